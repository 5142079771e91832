package org.vfps.pseudonym;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.UUID;
import org.vfps.namespace.GenerationMethod;

/** A random RFC 9562 version 4 UUID in lower-case canonical form. */
final class Uuid4Generator implements PseudonymGenerator {

  private static final VarHandle LONG_BE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  @Override
  public String generate(String originalValue, int length) {
    LengthChecks.requireFixed(GenerationMethod.UUID4, length);
    // same bits as UUID.randomUUID(), which would draw from one JVM-wide SecureRandom
    byte[] random = new byte[16];
    ThreadLocalSecureRandom.nextBytes(random);
    long high = ((long) LONG_BE.get(random, 0) & ~0xF000L) | 0x4000L;
    long low = ((long) LONG_BE.get(random, 8) & ~(0b11L << 62)) | (0b10L << 62);
    return new UUID(high, low).toString();
  }
}
