package org.vfps.pseudonym;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.vfps.namespace.GenerationMethod;

/** Upper-case hex of the unsalted SHA-256 of the original value's UTF-8 bytes. */
final class Sha256HexGenerator implements PseudonymGenerator {

  private static final HexFormat HEX = HexFormat.of().withUpperCase();
  private static final ThreadLocal<MessageDigest> DIGEST =
      ThreadLocal.withInitial(Sha256HexGenerator::newDigest);

  @Override
  public String generate(String originalValue, int length) {
    LengthChecks.requireFixed(GenerationMethod.SHA256_HEX_ENCODED, length);
    return HEX.formatHex(sha256(originalValue.getBytes(StandardCharsets.UTF_8)));
  }

  static byte[] sha256(byte[] input) {
    return DIGEST.get().digest(input);
  }

  private static MessageDigest newDigest() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime provides SHA-256", e);
    }
  }
}
