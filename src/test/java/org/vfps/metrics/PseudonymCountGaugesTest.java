package org.vfps.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PseudonymCountGaugesTest {

  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final PseudonymCountGauges gauges = new PseudonymCountGauges(registry);

  private double value(String namespace) {
    return Scrape.parse(registry.scrape()).value("vfps_pseudonyms", Map.of("namespace", namespace));
  }

  private void count(Map<String, Long> counts) {
    assertThat(gauges.countStarted()).isTrue();
    gauges.counted(counts, Map.of());
  }

  @Test
  void aCountSetsOneSeriesPerNamespaceWithPseudonyms() {
    count(Map.of("a", 3L, "b", 1L));

    assertThat(gauges.namespaces()).containsExactlyInAnyOrder("a", "b");
    assertThat(value("a")).isEqualTo(3);
    assertThat(value("b")).isEqualTo(1);
  }

  @Test
  void aLaterCountUpdatesAndDropsSeries() {
    count(Map.of("a", 3L, "b", 1L));

    count(Map.of("a", 5L));

    assertThat(gauges.namespaces()).containsExactly("a");
    assertThat(value("a")).isEqualTo(5);
    assertThat(Scrape.parse(registry.scrape()).series("vfps_pseudonyms", Map.of("namespace", "b")))
        .isEmpty();
  }

  @Test
  void aDeletedNamespaceLosesItsSeriesAtOnce() {
    count(Map.of("a", 3L, "b", 1L));

    gauges.deleted("a");

    assertThat(gauges.namespaces()).containsExactly("b");
    assertThat(registry.scrape()).doesNotContain("namespace=\"a\"");
  }

  @Test
  void aCountRunningWhileANamespaceIsDeletedDoesNotBringItBack() {
    count(Map.of("a", 3L));
    assertThat(gauges.countStarted()).isTrue();

    gauges.deleted("a");
    gauges.counted(Map.of("a", 3L, "b", 2L), Map.of());

    assertThat(gauges.namespaces()).containsExactly("b");
  }

  @Test
  void onlyOneCountRunsAtATime() {
    assertThat(gauges.countStarted()).isTrue();
    assertThat(gauges.countStarted()).isFalse();

    gauges.countFailed();

    assertThat(gauges.countStarted()).isTrue();
  }

  @Test
  void aFailedCountKeepsTheLastValues() {
    count(Map.of("a", 3L));
    assertThat(gauges.countStarted()).isTrue();

    gauges.countFailed();

    assertThat(value("a")).isEqualTo(3);
  }

  @Test
  void aNamespaceThatDrawsAtRandomAlsoHasItsUsedRatio() {
    assertThat(gauges.countStarted()).isTrue();
    gauges.counted(
        Map.of("digits", 2_500L, "hashed", 7L), Map.of("digits", 10_000.0, "hashed", 1.0));

    Scrape scrape = Scrape.parse(registry.scrape());
    String ratio = "vfps_namespace_capacity_used_ratio";
    assertThat(scrape.value(ratio, Map.of("namespace", "digits"))).isEqualTo(0.25);
    // a method that derives the pseudonym: its capacity is that of the values
    assertThat(scrape.series(ratio, Map.of("namespace", "hashed"))).isEmpty();
    assertThat(value("hashed")).isEqualTo(7);

    gauges.deleted("digits");

    assertThat(Scrape.parse(registry.scrape()).series(ratio, Map.of("namespace", "digits")))
        .isEmpty();
  }
}
