package org.vfps.auth;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import org.vfps.config.SecretHash;

/**
 * PBKDF2 with HMAC-SHA256 from the JDK: makes the {@link SecretHash} of a client account's secret
 * and checks a secret against one. Slow on purpose (hundreds of milliseconds at the default
 * iterations): never call it on an event loop.
 */
public final class SecretHashing {

  /** The iterations of new hashes, as OWASP recommends for PBKDF2-HMAC-SHA256. */
  public static final int ITERATIONS = 600_000;

  private static final int SALT_BYTES = 16;
  private static final SecureRandom RANDOM = new SecureRandom();

  private SecretHashing() {}

  /** A new salted hash of the secret, with {@link #ITERATIONS} iterations. */
  public static SecretHash hash(char[] secret) {
    return hash(secret, ITERATIONS);
  }

  /** A new salted hash of the secret with this many iterations (fewer make faster tests). */
  static SecretHash hash(char[] secret, int iterations) {
    byte[] salt = new byte[SALT_BYTES];
    RANDOM.nextBytes(salt);
    return new SecretHash(iterations, salt, derive(secret, salt, iterations));
  }

  /** Whether the secret is the one hashed, compared in constant time. */
  static boolean matches(SecretHash hash, char[] secret) {
    byte[] derived = derive(secret, hash.salt(), hash.iterations());
    try {
      return MessageDigest.isEqual(derived, hash.hash());
    } finally {
      Arrays.fill(derived, (byte) 0);
    }
  }

  private static byte[] derive(char[] secret, byte[] salt, int iterations) {
    PBEKeySpec spec = new PBEKeySpec(secret, salt, iterations, SecretHash.HASH_BYTES * 8);
    try {
      return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
    } catch (GeneralSecurityException e) {
      // every JDK has PBKDF2WithHmacSHA256
      throw new IllegalStateException("PBKDF2WithHmacSHA256 is not available", e);
    } finally {
      spec.clearPassword();
    }
  }
}
