package org.vfps.pseudonym;

import java.util.HexFormat;

/** Exactly {@code length} lower-case hex digits of random bytes; odd lengths drop the last one. */
final class RandomHexGenerator implements PseudonymGenerator {

  private static final HexFormat HEX = HexFormat.of();

  @Override
  public String generate(String originalValue, int length) {
    LengthChecks.requirePositive(length);
    byte[] random = new byte[(length + 1) / 2];
    ThreadLocalSecureRandom.nextBytes(random);
    String hex = HEX.formatHex(random);
    return hex.length() == length ? hex : hex.substring(0, length);
  }
}
