package org.vfps.metrics;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.hawkular.agent.prometheus.text.TextPrometheusMetricsProcessor;
import org.hawkular.agent.prometheus.types.Counter;
import org.hawkular.agent.prometheus.types.Gauge;
import org.hawkular.agent.prometheus.types.Histogram;
import org.hawkular.agent.prometheus.types.Metric;
import org.hawkular.agent.prometheus.types.MetricFamily;
import org.hawkular.agent.prometheus.types.MetricType;
import org.hawkular.agent.prometheus.types.Summary;
import org.hawkular.agent.prometheus.walkers.CollectorPrometheusMetricsWalker;

/** A Prometheus text exposition, parsed by a Prometheus text format parser, for assertions. */
public record Scrape(String text, List<MetricFamily> families) {

  /** Parses {@code text}; fails on text the parser does not accept. */
  public static Scrape parse(String text) {
    CollectorPrometheusMetricsWalker collector = new CollectorPrometheusMetricsWalker();
    new TextPrometheusMetricsProcessor(
            new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), collector)
        .walk();
    return new Scrape(text, List.copyOf(collector.getAllMetricFamilies()));
  }

  public Optional<MetricFamily> family(String name) {
    return families.stream().filter(family -> family.getName().equals(name)).findFirst();
  }

  public MetricType type(String family) {
    return family(family).orElseThrow(() -> missing(family)).getType();
  }

  /** The series of the family whose labels include {@code labels}. */
  public Optional<Metric> series(String family, Map<String, String> labels) {
    return family(family).stream()
        .flatMap(f -> f.getMetrics().stream())
        .filter(metric -> metric.getLabels().entrySet().containsAll(labels.entrySet()))
        .findFirst();
  }

  /**
   * The value of a counter or gauge series, or the sample count of a histogram or summary series; 0
   * when the series does not exist (a counter that never moved).
   */
  public double value(String family, Map<String, String> labels) {
    return series(family, labels)
        .map(
            metric ->
                switch (metric) {
                  case Counter counter -> counter.getValue();
                  case Gauge gauge -> gauge.getValue();
                  case Histogram histogram -> (double) histogram.getSampleCount();
                  case Summary summary -> (double) summary.getSampleCount();
                  default -> throw new AssertionError(family + " is neither counted nor measured");
                })
        .orElse(0.0);
  }

  public double value(String family) {
    return value(family, Map.of());
  }

  /**
   * The values of the counter or gauge series of the family whose labels include {@code labels},
   * added up; 0 when it has none.
   */
  public double sum(String family, Map<String, String> labels) {
    return family(family).stream()
        .flatMap(f -> f.getMetrics().stream())
        .filter(metric -> metric.getLabels().entrySet().containsAll(labels.entrySet()))
        .mapToDouble(
            metric ->
                switch (metric) {
                  case Counter counter -> counter.getValue();
                  case Gauge gauge -> gauge.getValue();
                  default -> throw new AssertionError(family + " is neither counter nor gauge");
                })
        .sum();
  }

  /** The values of every counter or gauge series of the family, added up; 0 when it has none. */
  public double sum(String family) {
    return sum(family, Map.of());
  }

  private static AssertionError missing(String family) {
    return new AssertionError("no metric family " + family);
  }
}
