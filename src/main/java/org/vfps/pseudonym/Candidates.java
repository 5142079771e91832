package org.vfps.pseudonym;

import java.util.function.Supplier;

/**
 * The candidate pseudonyms for one original value: {@link #get()} returns a fresh one on each call
 * (the same one for a deterministic method), and {@link #distinct()} says how many different ones
 * there are, which is also how many pseudonyms the namespace can hold. Used on one thread at a
 * time.
 */
@FunctionalInterface
public interface Candidates extends Supplier<String> {

  /** How many different candidates {@link #get()} can return; infinite unless known. */
  default double distinct() {
    return Double.POSITIVE_INFINITY;
  }
}
