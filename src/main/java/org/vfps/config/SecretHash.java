package org.vfps.config;

import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;

/**
 * A client account's secret as configured: salted and slow, PBKDF2 with HMAC-SHA256, written {@code
 * pbkdf2-sha256:<iterations>:<salt>:<hash>} (salt and hash in base64url without padding). No {@code
 * $} in it, so shells and compose files take it as it is. {@code java -jar vfps.jar hash-secret}
 * makes one.
 *
 * @param iterations at least {@link #MIN_ITERATIONS}
 * @param salt at least {@link #MIN_SALT_BYTES} bytes; a copy
 * @param hash the derived key, {@link #HASH_BYTES} bytes; a copy
 */
public record SecretHash(int iterations, byte[] salt, byte[] hash) {

  /** The algorithm name the text form starts with. */
  public static final String ALGORITHM = "pbkdf2-sha256";

  /** The fewest iterations accepted (OWASP asks for 600,000 with HMAC-SHA256). */
  public static final int MIN_ITERATIONS = 100_000;

  /** The most iterations accepted, so that one check stays under a few seconds. */
  public static final int MAX_ITERATIONS = 10_000_000;

  public static final int MIN_SALT_BYTES = 16;
  public static final int HASH_BYTES = 32;

  public SecretHash {
    if (iterations < MIN_ITERATIONS || iterations > MAX_ITERATIONS) {
      throw new IllegalArgumentException(
          "iterations must be " + MIN_ITERATIONS + " to " + MAX_ITERATIONS);
    }
    Objects.requireNonNull(salt, "salt");
    Objects.requireNonNull(hash, "hash");
    if (salt.length < MIN_SALT_BYTES) {
      throw new IllegalArgumentException(
          "the salt must have at least " + MIN_SALT_BYTES + " bytes");
    }
    if (hash.length != HASH_BYTES) {
      throw new IllegalArgumentException("the hash must have " + HASH_BYTES + " bytes");
    }
    salt = salt.clone();
    hash = hash.clone();
  }

  /**
   * Reads the text form.
   *
   * @throws IllegalArgumentException saying what is wrong, never quoting the text
   */
  public static SecretHash parse(String text) {
    String[] parts = text.strip().split(":", -1);
    if (parts.length != 4 || !parts[0].equals(ALGORITHM)) {
      throw new IllegalArgumentException(
          "is not " + ALGORITHM + ":<iterations>:<salt>:<hash> (make one with 'hash-secret')");
    }
    if (!parts[1].matches("[0-9]{1,9}")) {
      throw new IllegalArgumentException("the iterations are not a number");
    }
    byte[] salt;
    byte[] hash;
    try {
      salt = Base64.getUrlDecoder().decode(parts[2]);
      hash = Base64.getUrlDecoder().decode(parts[3]);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("the salt or the hash is not base64url");
    }
    return new SecretHash(Integer.parseInt(parts[1]), salt, hash);
  }

  @Override
  public byte[] salt() {
    return salt.clone();
  }

  @Override
  public byte[] hash() {
    return hash.clone();
  }

  /** The text form, as {@link #parse} reads it. */
  @Override
  public String toString() {
    Base64.Encoder encoder = Base64.getUrlEncoder().withoutPadding();
    return ALGORITHM
        + ":"
        + iterations
        + ":"
        + encoder.encodeToString(salt)
        + ":"
        + encoder.encodeToString(hash);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof SecretHash that
        && iterations == that.iterations
        && Arrays.equals(salt, that.salt)
        && Arrays.equals(hash, that.hash);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * iterations + Arrays.hashCode(salt)) + Arrays.hashCode(hash);
  }
}
