package org.vfps.pseudonym;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.UUID;

/** RFC 9562 UUIDs whose bits are random but for those their version fixes. Thread-safe. */
final class RandomUuids {

  private static final VarHandle LONG_BE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private RandomUuids() {}

  /**
   * A UUID in lower-case canonical form: its high 64 bits are {@code fixedHigh} and, where {@code
   * randomHighMask} has ones, random bits; its low 64 bits the RFC variant and random bits.
   */
  static String randomUuid(long fixedHigh, long randomHighMask) {
    byte[] random = new byte[16];
    ThreadLocalSecureRandom.nextBytes(random);
    long high = fixedHigh | ((long) LONG_BE.get(random, 0) & randomHighMask);
    long low = ((long) LONG_BE.get(random, 8) & ~(0b11L << 62)) | (0b10L << 62);
    return new UUID(high, low).toString();
  }
}
