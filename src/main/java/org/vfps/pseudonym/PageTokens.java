package org.vfps.pseudonym;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.namespace.TextLimits;

/**
 * Turns list cursors into opaque page tokens and back. A token is the cursor encrypted and
 * authenticated with AES-256-GCM under a key every replica shares (it is kept in the database), and
 * bound to its namespace: no original value can be read from it, and a changed, truncated or
 * foreign token is rejected. Thread-safe.
 *
 * <p>Sealed inside is the creation time (microseconds since the epoch, 8 bytes), the sequence
 * number (8 bytes), the length of the original value in UTF-8 (4 bytes), the original value and
 * zeros up to {@link TextLimits#MAX_ORIGINAL_VALUE_BYTES}: every token has the same length, which
 * says nothing about the value. (A value longer than that, stored by the .NET vfps, is padded to a
 * whole multiple of it.)
 *
 * <p>Tokens of the versions before padding still read: they are sealed with the namespace alone as
 * the associated data, and hold the time, the original value and, when the sequence number is not
 * 0, a mark byte 0xFF and the sequence number. Padded tokens are sealed with {@link #PADDED} before
 * the namespace, so those versions refuse them as {@code INVALID_ARGUMENT}, never misread them.
 */
public final class PageTokens {

  /**
   * What precedes the namespace in a padded token's associated data: 0xFF, which UTF-8 never has,
   * so that it never equals a namespace name of an unpadded token.
   */
  private static final byte[] PADDED = {(byte) 0xFF, 2};

  /** The time, the sequence number and the value's length in front of a padded token's value. */
  private static final int HEADER_BYTES = Long.BYTES + Long.BYTES + Integer.BYTES;

  /** What a padded token's value takes: the longest value, or a multiple for longer ones. */
  private static final int VALUE_BLOCK = TextLimits.MAX_ORIGINAL_VALUE_BYTES;

  /** Where an unpadded token's original value ends and its sequence number follows. */
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

  /** The token for the cursor in the namespace; one length for every value vfps accepts. */
  public String encode(String namespace, ListCursor cursor) {
    byte[] original = cursor.originalValue().getBytes(StandardCharsets.UTF_8);
    int blocks = Math.max(1, (original.length + VALUE_BLOCK - 1) / VALUE_BLOCK);
    ByteBuffer plain =
        ByteBuffer.allocate(HEADER_BYTES + blocks * VALUE_BLOCK)
            .putLong(ChronoUnit.MICROS.between(Instant.EPOCH, cursor.createdAt()))
            .putLong(cursor.sequenceNumber())
            .putInt(original.length)
            .put(original);
    byte[] nonce = new byte[NONCE_BYTES];
    random.nextBytes(nonce);
    try {
      Cipher cipher = cipher(Cipher.ENCRYPT_MODE, nonce, paddedAad(namespace));
      byte[] sealed = cipher.doFinal(plain.array());
      return ENCODER.encodeToString(
          ByteBuffer.allocate(nonce.length + sealed.length).put(nonce).put(sealed).array());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-GCM is not available", e);
    }
  }

  /**
   * The cursor in the token; fails with {@code INVALID_ARGUMENT} if the token was not made by
   * {@link #encode} (of this version or one before padding) for this namespace with this key.
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
    byte[] plain = open(bytes, paddedAad(namespace));
    if (plain != null) {
      return padded(namespace, plain);
    }
    plain = open(bytes, namespace.getBytes(StandardCharsets.UTF_8));
    if (plain != null) {
      return unpadded(plain);
    }
    throw invalid(namespace);
  }

  /** The plaintext of a sealed token, or null if it was not sealed with this associated data. */
  private byte[] open(byte[] token, byte[] aad) {
    try {
      return cipher(Cipher.DECRYPT_MODE, Arrays.copyOf(token, NONCE_BYTES), aad)
          .doFinal(token, NONCE_BYTES, token.length - NONCE_BYTES);
    } catch (GeneralSecurityException e) {
      return null;
    }
  }

  private static ListCursor padded(String namespace, byte[] plain) {
    if (plain.length < HEADER_BYTES) {
      throw invalid(namespace);
    }
    ByteBuffer buffer = ByteBuffer.wrap(plain);
    Instant createdAt = Instant.EPOCH.plus(buffer.getLong(), ChronoUnit.MICROS);
    long sequenceNumber = buffer.getLong();
    int length = buffer.getInt();
    if (length < 0 || length > plain.length - HEADER_BYTES) {
      throw invalid(namespace);
    }
    return new ListCursor(
        createdAt, new String(plain, HEADER_BYTES, length, StandardCharsets.UTF_8), sequenceNumber);
  }

  private static ListCursor unpadded(byte[] plain) {
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

  private static byte[] paddedAad(String namespace) {
    byte[] name = namespace.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(PADDED.length + name.length).put(PADDED).put(name).array();
  }

  private Cipher cipher(int mode, byte[] nonce, byte[] aad) throws GeneralSecurityException {
    Cipher cipher = Cipher.getInstance(TRANSFORMATION);
    cipher.init(mode, key, new GCMParameterSpec(TAG_BITS, nonce));
    cipher.updateAAD(aad);
    return cipher;
  }

  private static ServiceException invalid(String namespace) {
    return new ServiceException(
        ErrorCode.INVALID_ARGUMENT,
        "The page token is malformed or belongs to another list.",
        Map.of("namespace", namespace));
  }
}
