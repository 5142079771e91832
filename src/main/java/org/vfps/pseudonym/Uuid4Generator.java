package org.vfps.pseudonym;

import org.vfps.namespace.GenerationMethod;

/** A random RFC 9562 version 4 UUID in lower-case canonical form. */
final class Uuid4Generator implements PseudonymGenerator {

  @Override
  public String generate(String originalValue, int length) {
    LengthChecks.requireFixed(GenerationMethod.UUID4, length);
    // same bits as UUID.randomUUID(), which would draw from one JVM-wide SecureRandom
    return RandomUuids.randomUuid(0x4000L, ~0xF000L);
  }
}
