package org.vfps.pseudonym;

import java.security.SecureRandom;

/**
 * The random source of all random generators: one {@link SecureRandom} per thread, so concurrent
 * requests never queue on a single instance's lock.
 */
final class ThreadLocalSecureRandom {

  private static final ThreadLocal<SecureRandom> RANDOM =
      ThreadLocal.withInitial(SecureRandom::new);

  private ThreadLocalSecureRandom() {}

  /** Fills {@code bytes} with random bytes from the calling thread's instance. */
  static void nextBytes(byte[] bytes) {
    RANDOM.get().nextBytes(bytes);
  }
}
