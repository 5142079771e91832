package org.vfps.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code vfps_pseudonyms{namespace}}: one gauge per namespace that has pseudonyms, as the last
 * count found them. A deleted namespace's series goes at once, and a count that was running while
 * it was deleted does not bring it back. Used from one thread (the metrics verticle's event loop);
 * the registry reads the values from any.
 */
final class PseudonymCountGauges {

  private final MeterRegistry registry;
  private final Map<String, Series> series = new ConcurrentHashMap<>();
  private final Set<String> deletedDuringCount = new HashSet<>();
  private boolean counting;

  private record Series(AtomicLong value, Gauge gauge) {}

  PseudonymCountGauges(MeterRegistry registry) {
    this.registry = registry;
  }

  /**
   * Marks the start of a count; returns false when one is already running, and the caller then
   * skips this one.
   */
  boolean countStarted() {
    if (counting) {
      return false;
    }
    counting = true;
    deletedDuringCount.clear();
    return true;
  }

  /**
   * Sets the gauges to a finished count: namespaces in {@code counts} get or update their series,
   * all others (no pseudonyms left, deleted) lose theirs.
   */
  void counted(Map<String, Long> counts) {
    counting = false;
    for (String name : Set.copyOf(series.keySet())) {
      if (!counts.containsKey(name)) {
        removeSeries(name);
      }
    }
    counts.forEach(
        (name, count) -> {
          if (!deletedDuringCount.contains(name)) {
            series.computeIfAbsent(name, this::register).value().set(count);
          }
        });
    deletedDuringCount.clear();
  }

  /** A count failed; the gauges keep their values. */
  void countFailed() {
    counting = false;
    deletedDuringCount.clear();
  }

  /** Removes the series of a deleted namespace. */
  void deleted(String name) {
    if (counting) {
      deletedDuringCount.add(name);
    }
    removeSeries(name);
  }

  /** The namespaces that have a series, for tests. */
  Set<String> namespaces() {
    return Set.copyOf(series.keySet());
  }

  private Series register(String name) {
    AtomicLong value = new AtomicLong();
    Gauge gauge =
        Gauge.builder("vfps.pseudonyms", value, AtomicLong::get)
            .description("Pseudonyms per namespace, as of the last count")
            .tag("namespace", name)
            .register(registry);
    return new Series(value, gauge);
  }

  private void removeSeries(String name) {
    Series removed = series.remove(name);
    if (removed != null) {
      registry.remove(removed.gauge());
    }
  }
}
