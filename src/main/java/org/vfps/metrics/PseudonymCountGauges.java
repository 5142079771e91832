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
 * count found them; and {@code vfps_namespace_capacity_used_ratio{namespace}} beside it for each of
 * them whose method draws its pseudonyms at random: that count over the distinct pseudonyms the
 * namespace's settings make. A deleted namespace's series go at once, and a count that was running
 * while it was deleted does not bring them back. Used from one thread (the metrics verticle's event
 * loop); the registry reads the values from any.
 */
final class PseudonymCountGauges {

  private final MeterRegistry registry;
  private final Map<String, Series> series = new ConcurrentHashMap<>();
  // each value holds its ratio's bits (Double.doubleToLongBits)
  private final Map<String, Series> usedRatios = new ConcurrentHashMap<>();
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
   * all others (no pseudonyms left, deleted) lose theirs. A namespace's used ratio is set where
   * {@code distinctPseudonyms} holds more than 1 for it, and goes where it does not.
   *
   * @param counts the pseudonyms per namespace
   * @param distinctPseudonyms the distinct pseudonyms each namespace's settings make
   */
  void counted(Map<String, Long> counts, Map<String, Double> distinctPseudonyms) {
    counting = false;
    for (String name : Set.copyOf(series.keySet())) {
      if (!counts.containsKey(name)) {
        removeSeries(name);
      }
    }
    for (String name : Set.copyOf(usedRatios.keySet())) {
      if (!drawsAtRandom(distinctPseudonyms.get(name))) {
        remove(usedRatios, name);
      }
    }
    counts.forEach(
        (name, count) -> {
          if (!deletedDuringCount.contains(name)) {
            series.computeIfAbsent(name, this::register).value().set(count);
            Double distinct = distinctPseudonyms.get(name);
            if (drawsAtRandom(distinct)) {
              usedRatios
                  .computeIfAbsent(name, this::registerUsedRatio)
                  .value()
                  .set(Double.doubleToLongBits(count / distinct));
            }
          }
        });
    deletedDuringCount.clear();
  }

  /** Whether a namespace's capacity is that of its pseudonyms: not a method that derives them. */
  private static boolean drawsAtRandom(Double distinct) {
    return distinct != null && distinct > 1;
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

  private Series registerUsedRatio(String name) {
    AtomicLong bits = new AtomicLong();
    Gauge gauge =
        Gauge.builder(
                "vfps.namespace.capacity.used.ratio",
                bits,
                value -> Double.longBitsToDouble(value.get()))
            .description(
                "Pseudonyms per namespace over those its settings make, as of the last count")
            .tag("namespace", name)
            .register(registry);
    return new Series(bits, gauge);
  }

  private void removeSeries(String name) {
    remove(series, name);
    remove(usedRatios, name);
  }

  private void remove(Map<String, Series> from, String name) {
    Series removed = from.remove(name);
    if (removed != null) {
      registry.remove(removed.gauge());
    }
  }
}
