package org.vfps.pseudonym;

import org.vfps.namespace.GenerationMethod;

/**
 * An RFC 9562 version 7 UUID: Unix epoch milliseconds, then random bits without a monotonic
 * counter, in lower-case canonical form.
 */
final class Uuid7Generator implements PseudonymGenerator {

  @Override
  public String generate(String originalValue, int length) {
    LengthChecks.requireFixed(GenerationMethod.UUID7, length);
    long millis = System.currentTimeMillis() & 0xFFFF_FFFF_FFFFL;
    return RandomUuids.randomUuid((millis << 16) | 0x7000L, 0x0FFFL);
  }
}
