package org.vfps.pseudonym;

import io.vertx.core.Future;
import java.util.List;

/**
 * Derives the pseudonym cores of a keyed method (VOPRF) from original values, with a key held
 * elsewhere: asynchronous, and cheapest for many values at once. Deterministic: the same value
 * yields the same core while the key and the settings stay. Thread-safe.
 */
public interface KeyedGenerator {

  /** No key holder configured; {@link org.vfps.namespace.GenerationSupport} keeps calls away. */
  KeyedGenerator NONE =
      originalValues ->
          Future.failedFuture(new IllegalStateException("no VOPRF server is configured"));

  /**
   * The cores of the values, in their order. Fails with {@link org.vfps.error.ServiceException}:
   * {@code INVALID_ARGUMENT} for a value the method cannot take, {@code UNAVAILABLE} while the
   * key's holder cannot be reached, {@code OVERLOADED} when it refuses the load, {@code INTERNAL}
   * for an answer that does not prove itself; then no core is returned for any of them.
   */
  Future<List<String>> derive(List<String> originalValues);

  /**
   * Whether the two values are one input to {@link #derive}: equal once prepared as it prepares
   * every value (the VOPRF client normalizes them, to NFC by default), so that they derive one core
   * under every key.
   */
  default boolean sameInput(String a, String b) {
    return a.equals(b);
  }
}
