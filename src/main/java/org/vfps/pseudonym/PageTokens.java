package org.vfps.pseudonym;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.Map;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/**
 * Turns list cursors into opaque page tokens and back. A token is the cursor encrypted and
 * authenticated with AES-256-GCM under a key every replica shares (it is kept in the database), and
 * bound to its namespace: no original value can be read from it, and a changed, truncated or
 * foreign token is rejected. Thread-safe.
 *
 * <p>Sealed inside is the creation time (microseconds since the epoch, 8 bytes), the original value
 * in UTF-8 and, when the sequence number is not 0, a mark byte 0xFF and the sequence number (8
 * bytes). UTF-8 never holds that byte, so the mark cannot be part of the original value; and a
 * token of sequence number 0 is the token of the versions from before sequence numbers, so tokens
 * pass both ways between replicas of either version while they are replaced.
 */
public final class PageTokens {

  /** Where the original value ends and the sequence number follows: a byte UTF-8 never has. */
  private static final byte SEQUENCE_MARK = (byte) 0xFF;

  private static final String TRANSFORMATION = "AES/GCM/NoPadding";
  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

  private final SecretKey key;
  private final SecureRandom random = new SecureRandom();

  /** Uses a 32-byte key. */
  public PageTokens(byte[] key) {
    if (key.length != 32) {
      throw new IllegalArgumentException("a page token key has 32 bytes");
    }
    this.key = new SecretKeySpec(key, "AES");
  }

  /** The token for the cursor in the namespace. */
  public String encode(String namespace, ListCursor cursor) {
    byte[] original = cursor.originalValue().getBytes(StandardCharsets.UTF_8);
    boolean sequenced = cursor.sequenceNumber() != 0;
    ByteBuffer plain =
        ByteBuffer.allocate(Long.BYTES + original.length + (sequenced ? 1 + Long.BYTES : 0));
    plain.putLong(ChronoUnit.MICROS.between(Instant.EPOCH, cursor.createdAt())).put(original);
    if (sequenced) {
      plain.put(SEQUENCE_MARK).putLong(cursor.sequenceNumber());
    }
    byte[] nonce = new byte[NONCE_BYTES];
    random.nextBytes(nonce);
    try {
      Cipher cipher = cipher(Cipher.ENCRYPT_MODE, nonce, namespace);
      byte[] sealed = cipher.doFinal(plain.array());
      return ENCODER.encodeToString(
          ByteBuffer.allocate(nonce.length + sealed.length).put(nonce).put(sealed).array());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-GCM is not available", e);
    }
  }

  /**
   * The cursor in the token; fails with {@code INVALID_ARGUMENT} if the token was not made by
   * {@link #encode} for this namespace with this key.
   */
  public ListCursor decode(String namespace, String token) {
    byte[] bytes;
    try {
      bytes = DECODER.decode(token);
    } catch (IllegalArgumentException e) {
      throw invalid(namespace);
    }
    if (bytes.length < NONCE_BYTES + TAG_BITS / 8 + Long.BYTES) {
      throw invalid(namespace);
    }
    byte[] plain;
    try {
      byte[] nonce = java.util.Arrays.copyOf(bytes, NONCE_BYTES);
      plain =
          cipher(Cipher.DECRYPT_MODE, nonce, namespace)
              .doFinal(bytes, NONCE_BYTES, bytes.length - NONCE_BYTES);
    } catch (GeneralSecurityException e) {
      throw invalid(namespace);
    }
    ByteBuffer buffer = ByteBuffer.wrap(plain);
    Instant createdAt = Instant.EPOCH.plus(buffer.getLong(), ChronoUnit.MICROS);
    int originalEnd = plain.length;
    long sequenceNumber = 0;
    int markAt = plain.length - 1 - Long.BYTES;
    if (markAt >= Long.BYTES && plain[markAt] == SEQUENCE_MARK) {
      sequenceNumber = buffer.getLong(markAt + 1);
      originalEnd = markAt;
    }
    String originalValue =
        new String(plain, Long.BYTES, originalEnd - Long.BYTES, StandardCharsets.UTF_8);
    return new ListCursor(createdAt, originalValue, sequenceNumber);
  }

  private Cipher cipher(int mode, byte[] nonce, String namespace) throws GeneralSecurityException {
    Cipher cipher = Cipher.getInstance(TRANSFORMATION);
    cipher.init(mode, key, new GCMParameterSpec(TAG_BITS, nonce));
    cipher.updateAAD(namespace.getBytes(StandardCharsets.UTF_8));
    return cipher;
  }

  private static ServiceException invalid(String namespace) {
    return new ServiceException(
        ErrorCode.INVALID_ARGUMENT,
        "The page token is malformed or belongs to another list.",
        Map.of("namespace", namespace));
  }
}
