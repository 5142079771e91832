package org.vfps.access;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;

/**
 * The text of an access token, as the .NET vfps writes it: {@code vfps_pat_} or {@code vfps_sat_},
 * the token id (unpadded base64url of 16 random bytes), a dot, and the secret (unpadded base64url
 * of 32 random bytes). The dot separates because base64url has underscores. Only the id and the
 * SHA-256 of the secret's UTF-8 bytes are stored.
 *
 * @param tokenId the public part, which the database is searched by
 * @param secret the private part; never logged, never stored
 */
public record AccessTokenSecret(AccessToken.Type type, String tokenId, String secret) {

  /** What every token's text starts with. */
  public static final String PREFIX = "vfps_";

  private static final SecureRandom RANDOM = new SecureRandom();
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

  /** A new token of the type, from fresh random bytes. */
  public static AccessTokenSecret generate(AccessToken.Type type) {
    byte[] id = new byte[16];
    byte[] secret = new byte[32];
    RANDOM.nextBytes(id);
    RANDOM.nextBytes(secret);
    return new AccessTokenSecret(type, ENCODER.encodeToString(id), ENCODER.encodeToString(secret));
  }

  /**
   * The parts of a token's text, as the .NET vfps reads it: a known prefix, then an id and a secret
   * on either side of the first dot, both non-empty, the secret without a second dot; empty when
   * the text is not such a token.
   */
  public static Optional<AccessTokenSecret> parse(String text) {
    AccessToken.Type type;
    if (text.startsWith(AccessToken.Type.PERSONAL.prefix())) {
      type = AccessToken.Type.PERSONAL;
    } else if (text.startsWith(AccessToken.Type.SERVICE_ACCOUNT.prefix())) {
      type = AccessToken.Type.SERVICE_ACCOUNT;
    } else {
      return Optional.empty();
    }
    String rest = text.substring(type.prefix().length());
    int dot = rest.indexOf('.');
    if (dot <= 0 || dot == rest.length() - 1 || rest.indexOf('.', dot + 1) >= 0) {
      return Optional.empty();
    }
    return Optional.of(
        new AccessTokenSecret(type, rest.substring(0, dot), rest.substring(dot + 1)));
  }

  /** SHA-256 of the secret's UTF-8 bytes, as {@code access_tokens.token_hash} holds it. */
  public byte[] hash() {
    return sha256(secret);
  }

  /** Whether the secret's hash is {@code stored}, compared in constant time. */
  public boolean matches(byte[] stored) {
    return MessageDigest.isEqual(hash(), stored);
  }

  /** The whole token, as a client sends it after {@code Bearer }. */
  public String text() {
    return type.prefix() + tokenId + "." + secret;
  }

  /** Keeps the secret out of any log the record may reach. */
  @Override
  public String toString() {
    return "AccessTokenSecret[type=" + type + ", tokenId=" + tokenId + ", secret=***]";
  }

  private static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}
