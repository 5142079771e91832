package org.vfps.audit;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;

/**
 * The hash that chains an audit line to the one before, and the bytes a checkpoint signs. Both are
 * an unambiguous encoding of strings (each as its UTF-8 length, four bytes big-endian, then its
 * UTF-8 bytes), so that no two different lines encode alike. A line's hash is the SHA-256, in
 * base64url without padding, of: the previous line's hash (empty for a chain's first line), the
 * line's timestamp in epoch milliseconds, its message, and each of its fields, key then value, in
 * the line's order: {@code chain} and {@code seq} among them, all but {@code hash} itself.
 */
final class ChainHash {

  /** The previous hash of a chain's first line. */
  static final String START = "";

  private static final String CHECKPOINT_CONTEXT = "vfps audit checkpoint v1";

  private ChainHash() {}

  /**
   * The hash of a line.
   *
   * @param fields the line's fields without {@code hash}, each value as the log shows it
   */
  static String of(String previous, long timestamp, String message, List<Field> fields) {
    return of(sha256(), previous, timestamp, message, fields);
  }

  /**
   * The hash of a line, made with a digest of the caller's (reset first), which a writer that
   * hashes one line at a time keeps.
   */
  static String of(
      MessageDigest sha256, String previous, long timestamp, String message, List<Field> fields) {
    sha256.reset();
    update(sha256, previous);
    update(sha256, Long.toString(timestamp));
    update(sha256, message);
    for (Field field : fields) {
      update(sha256, field.key());
      update(sha256, field.value());
    }
    return Base64.getUrlEncoder().withoutPadding().encodeToString(sha256.digest());
  }

  /** The bytes a checkpoint's signature covers. */
  static byte[] checkpointContent(String chain, long seq, String hash, long timestamp) {
    ByteArrayOutputStream content = new ByteArrayOutputStream(128);
    for (String part :
        List.of(CHECKPOINT_CONTEXT, chain, Long.toString(seq), hash, Long.toString(timestamp))) {
      byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
      content.writeBytes(ByteBuffer.allocate(4).putInt(bytes.length).array());
      content.writeBytes(bytes);
    }
    return content.toByteArray();
  }

  private static void update(MessageDigest digest, String part) {
    byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
    digest.update((byte) (bytes.length >>> 24));
    digest.update((byte) (bytes.length >>> 16));
    digest.update((byte) (bytes.length >>> 8));
    digest.update((byte) bytes.length);
    digest.update(bytes);
  }

  static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}
