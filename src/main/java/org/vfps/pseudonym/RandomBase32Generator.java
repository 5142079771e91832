package org.vfps.pseudonym;

import java.nio.charset.StandardCharsets;

/**
 * Exactly {@code length} characters drawn uniformly from the RFC 4648 base32 alphabet {@code
 * A-Z2-7}, as the .NET vfps draws them ({@code RandomNumberGenerator.GetString}): each character on
 * its own, so no {@code =} padding and no grouping of bytes into 5-bit pieces.
 */
final class RandomBase32Generator implements PseudonymGenerator {

  private static final byte[] ALPHABET =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".getBytes(StandardCharsets.US_ASCII);

  /** 32 divides 256, so the low five bits of a random byte pick a character without bias. */
  private static final int LOW_FIVE_BITS = 0x1F;

  @Override
  public String generate(String originalValue, int length) {
    LengthChecks.requirePositive(length);
    byte[] chars = new byte[length];
    ThreadLocalSecureRandom.nextBytes(chars);
    for (int i = 0; i < length; i++) {
      chars[i] = ALPHABET[chars[i] & LOW_FIVE_BITS];
    }
    return new String(chars, StandardCharsets.US_ASCII);
  }
}
