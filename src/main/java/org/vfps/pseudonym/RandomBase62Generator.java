package org.vfps.pseudonym;

import java.nio.charset.StandardCharsets;

/** Exactly {@code length} characters drawn uniformly from {@code 0-9A-Za-z}. */
final class RandomBase62Generator implements PseudonymGenerator {

  private static final byte[] ALPHABET =
      "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
          .getBytes(StandardCharsets.US_ASCII);

  /** 4 * 62: byte values below it map onto the alphabet without bias, the rest are redrawn. */
  private static final int ACCEPT_BELOW = 248;

  private static final int TOP_UP_BYTES = 16;

  @Override
  public String generate(String originalValue, int length) {
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

  private static int accept(byte[] random, int count, byte[] chars, int filled) {
    for (int i = 0; i < count && filled < chars.length; i++) {
      int value = random[i] & 0xFF;
      if (value < ACCEPT_BELOW) {
        chars[filled++] = ALPHABET[value % ALPHABET.length];
      }
    }
    return filled;
  }
}
