package org.vfps.pseudonym;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.UUID;
import org.vfps.namespace.GenerationMethod;

/**
 * An RFC 9562 version 7 UUID: Unix epoch milliseconds, then random bits without a monotonic
 * counter, in lower-case canonical form.
 */
final class Uuid7Generator implements PseudonymGenerator {

  private static final VarHandle LONG_BE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  @Override
  public String generate(String originalValue, int length) {
    LengthChecks.requireFixed(GenerationMethod.UUID7, length);
    byte[] random = new byte[16];
    ThreadLocalSecureRandom.nextBytes(random);
    long millis = System.currentTimeMillis() & 0xFFFF_FFFF_FFFFL;
    long high = (millis << 16) | 0x7000L | ((long) LONG_BE.get(random, 0) & 0x0FFFL);
    long low = ((long) LONG_BE.get(random, 8) & ~(0b11L << 62)) | (0b10L << 62);
    return new UUID(high, low).toString();
  }
}
