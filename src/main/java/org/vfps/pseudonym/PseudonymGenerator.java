package org.vfps.pseudonym;

/**
 * Generates the core of a pseudonym, the part between the namespace's prefix and suffix.
 *
 * <p>Implementations are thread-safe.
 */
public interface PseudonymGenerator {

  /**
   * Returns a new pseudonym core for {@code originalValue}, which only deterministic methods read.
   *
   * @param length the namespace's {@code pseudonym_length}
   * @throws IllegalArgumentException if {@code length} is less than 1, or the method has a fixed
   *     length and {@code length} differs from it
   */
  String generate(String originalValue, int length);
}
