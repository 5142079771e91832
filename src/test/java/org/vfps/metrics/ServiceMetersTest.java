package org.vfps.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.hawkular.agent.prometheus.types.Histogram;
import org.hawkular.agent.prometheus.types.MetricType;
import org.junit.jupiter.api.Test;

class ServiceMetersTest {

  private final ServiceMeters meters = ServiceMeters.create();

  private Scrape scrape() {
    return Scrape.parse(meters.registry().scrape());
  }

  @Test
  void upsertDurationsAreAHistogramWithTheDotnetBuckets() {
    meters.upsertTook(3_000_000);
    meters.upsertTook(40_000_000);

    Scrape scrape = scrape();

    assertThat(scrape.type("vfps_upsert_duration_seconds")).isEqualTo(MetricType.HISTOGRAM);
    Histogram histogram =
        (Histogram) scrape.series("vfps_upsert_duration_seconds", Map.of()).orElseThrow();
    assertThat(histogram.getSampleCount()).isEqualTo(2);
    assertThat(histogram.getSampleSum())
        .isCloseTo(0.043, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(histogram.getBuckets())
        .extracting(Histogram.Bucket::getUpperBound)
        .containsExactly(
            0.005,
            0.01,
            0.025,
            0.05,
            0.075,
            0.1,
            0.25,
            0.5,
            0.75,
            1.0,
            2.5,
            5.0,
            7.5,
            10.0,
            Double.POSITIVE_INFINITY);
    assertThat(histogram.getBuckets().get(0).getCumulativeCount()).isEqualTo(1);
    assertThat(histogram.getBuckets().get(3).getCumulativeCount()).isEqualTo(2);
  }

  @Test
  void batchUpsertDurationsAreExportedBeforeAnythingFeedsThem() {
    Scrape before = scrape();
    meters.batchUpsertTook(1_000_000, 7);

    assertThat(before.type("vfps_batch_upsert_duration_seconds")).isEqualTo(MetricType.HISTOGRAM);
    assertThat(before.value("vfps_batch_upsert_duration_seconds")).isZero();
    assertThat(scrape().value("vfps_batch_upsert_duration_seconds")).isEqualTo(1);
  }

  @Test
  void rowsPerUpsertStatementAreAHistogramOfPowersOfTwo() {
    meters.upsertTook(1_000_000);
    meters.batchUpsertTook(1_000_000, 3);
    meters.batchUpsertTook(1_000_000, 100);

    Scrape scrape = scrape();

    assertThat(scrape.type("vfps_upsert_statement_rows")).isEqualTo(MetricType.HISTOGRAM);
    Histogram histogram =
        (Histogram) scrape.series("vfps_upsert_statement_rows", Map.of()).orElseThrow();
    assertThat(histogram.getSampleCount()).isEqualTo(3);
    assertThat(histogram.getSampleSum()).isEqualTo(104);
    assertThat(histogram.getBuckets())
        .extracting(Histogram.Bucket::getUpperBound)
        .containsExactly(
            1.0,
            2.0,
            4.0,
            8.0,
            16.0,
            32.0,
            64.0,
            128.0,
            256.0,
            512.0,
            1024.0,
            Double.POSITIVE_INFINITY);
    // cumulative: 1 | 1 | 3 (+3 rows) | ... | 100 (+100 rows)
    assertThat(histogram.getBuckets())
        .extracting(Histogram.Bucket::getCumulativeCount)
        .containsExactly(1L, 1L, 2L, 2L, 2L, 2L, 2L, 3L, 3L, 3L, 3L, 3L);
  }

  @Test
  void grpcCallsAreCountedByServiceMethodAndCode() {
    GrpcServerMeters grpc = meters.grpc();
    grpc.started("vfps.api.v1.PseudonymService", "Create");
    grpc.handled("vfps.api.v1.PseudonymService", "Create", "OK", 1_000_000);
    grpc.started("vfps.api.v1.PseudonymService", "Create");
    grpc.handled("vfps.api.v1.PseudonymService", "Create", "NOT_FOUND", 1_000_000);
    grpc.started("vfps.api.v1.PseudonymService", "Create");
    grpc.handled("vfps.api.v1.PseudonymService", "Create", "OK", 1_000_000);

    Scrape scrape = scrape();

    Map<String, String> create =
        Map.of("grpc_service", "vfps.api.v1.PseudonymService", "grpc_method", "Create");
    assertThat(scrape.type("grpc_server_started_total")).isEqualTo(MetricType.COUNTER);
    assertThat(scrape.value("grpc_server_started_total", create)).isEqualTo(3);
    assertThat(scrape.value("grpc_server_handled_total", with(create, "grpc_code", "OK")))
        .isEqualTo(2);
    assertThat(scrape.value("grpc_server_handled_total", with(create, "grpc_code", "NOT_FOUND")))
        .isEqualTo(1);
    assertThat(scrape.type("grpc_server_handling_seconds")).isEqualTo(MetricType.HISTOGRAM);
    assertThat(scrape.value("grpc_server_handling_seconds", create)).isEqualTo(3);
  }

  @Test
  void cacheStatisticsAreReadAtEachScrape() {
    AtomicLong hits = new AtomicLong();
    meters.bindCache("namespaces", () -> new CacheStatistics(7, hits.get(), 3));

    Scrape before = scrape();
    hits.set(5);
    // nothing but the registry holds the supplier: it must survive a collection
    System.gc();
    Scrape after = scrape();

    Map<String, String> namespaces = Map.of("cache", "namespaces");
    assertThat(before.type("vfps_cache_entries")).isEqualTo(MetricType.GAUGE);
    assertThat(before.value("vfps_cache_entries", namespaces)).isEqualTo(7);
    assertThat(before.value("vfps_cache_hits_total", namespaces)).isZero();
    assertThat(after.value("vfps_cache_hits_total", namespaces)).isEqualTo(5);
    assertThat(after.value("vfps_cache_misses_total", namespaces)).isEqualTo(3);
    assertThat(after.text())
        .contains("vfps_cache_hits_total{cache=\"namespaces\"} 5")
        .contains("vfps_cache_misses_total{cache=\"namespaces\"} 3");
  }

  @Test
  void buildInfoIsOneGaugeOfOneLabelledWithVersionAndRevision() {
    Scrape before = scrape();
    meters.bindBuildInfo("1.2.3", "4bd8d3c");
    Scrape after = scrape();

    assertThat(before.family("vfps_build_info")).isEmpty();
    assertThat(after.type("vfps_build_info")).isEqualTo(MetricType.GAUGE);
    assertThat(after.value("vfps_build_info", Map.of("version", "1.2.3", "revision", "4bd8d3c")))
        .isEqualTo(1);
    assertThat(after.family("vfps_build_info").orElseThrow().getMetrics()).hasSize(1);
  }

  @Test
  void processFileDescriptorsAreExported() {
    assertThat(scrape().value("process_files_open_files")).isPositive();
  }

  private static Map<String, String> with(Map<String, String> labels, String key, String value) {
    Map<String, String> all = new java.util.HashMap<>(labels);
    all.put(key, value);
    return all;
  }
}
