package org.vfps.pseudonym;

import java.nio.charset.StandardCharsets;

/**
 * Exactly {@code length} characters, each drawn on its own and uniformly from an ASCII alphabet: a
 * random byte below the largest multiple of the alphabet's size picks a character, any other is
 * redrawn. Thread-safe.
 */
abstract class RandomCharactersGenerator implements PseudonymGenerator {

  private static final int TOP_UP_BYTES = 16;

  private final byte[] alphabet;

  /** Byte values below it map onto the alphabet without bias; the rest are redrawn. */
  private final int acceptBelow;

  /**
   * @param alphabet at most 256 ASCII characters
   */
  RandomCharactersGenerator(String alphabet) {
    this.alphabet = alphabet.getBytes(StandardCharsets.US_ASCII);
    this.acceptBelow = 256 - 256 % this.alphabet.length;
  }

  @Override
  public final String generate(String originalValue, int length) {
    LengthChecks.requirePositive(length);
    byte[] chars = new byte[length];
    ThreadLocalSecureRandom.nextBytes(chars);
    // each accepted byte is written at or before the position it was read from, so one array
    // serves as both the random input and the output
    int filled = accept(chars, length, chars, 0);
    byte[] topUp = null;
    while (filled < length) {
      if (topUp == null) {
        topUp = new byte[TOP_UP_BYTES];
      }
      ThreadLocalSecureRandom.nextBytes(topUp);
      filled = accept(topUp, topUp.length, chars, filled);
    }
    return new String(chars, StandardCharsets.US_ASCII);
  }

  private int accept(byte[] random, int count, byte[] chars, int filled) {
    for (int i = 0; i < count && filled < chars.length; i++) {
      int value = random[i] & 0xFF;
      if (value < acceptBelow) {
        chars[filled++] = alphabet[value % alphabet.length];
      }
    }
    return filled;
  }
}
