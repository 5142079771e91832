package org.vfps.auth;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals JSON objects into cookie values and opens them again: AES-256-GCM under a key every replica
 * shares (kept in the database), with the cookie's name as associated data, so a value is secret,
 * cannot be changed, and is valid only under the name it was sealed for. The value is base64url
 * text: a 12-byte nonce, then the ciphertext with its tag. Thread-safe.
 */
final class SessionSeal {

  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;
  private static final Base64.Encoder TEXT = Base64.getUrlEncoder().withoutPadding();

  private final SecretKeySpec key;
  private final SecureRandom random = new SecureRandom();

  /** Uses a 32-byte key. */
  SessionSeal(byte[] key) {
    if (key.length != 32) {
      throw new IllegalArgumentException("a session key has 32 bytes");
    }
    this.key = new SecretKeySpec(key, "AES");
  }

  /** The cookie value that carries {@code content} under the cookie name {@code name}. */
  String seal(String name, JsonObject content) {
    byte[] nonce = new byte[NONCE_BYTES];
    random.nextBytes(nonce);
    try {
      byte[] sealed =
          cipher(Cipher.ENCRYPT_MODE, name, nonce).doFinal(content.toBuffer().getBytes());
      return TEXT.encodeToString(
          ByteBuffer.allocate(NONCE_BYTES + sealed.length).put(nonce).put(sealed).array());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-GCM is not available", e);
    }
  }

  /** What {@link #seal} sealed under {@code name}; empty for any other value. */
  Optional<JsonObject> open(String name, String value) {
    byte[] bytes;
    try {
      bytes = Base64.getUrlDecoder().decode(value);
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    if (bytes.length <= NONCE_BYTES + TAG_BITS / 8) {
      return Optional.empty();
    }
    try {
      byte[] plain =
          cipher(Cipher.DECRYPT_MODE, name, Arrays.copyOf(bytes, NONCE_BYTES))
              .doFinal(bytes, NONCE_BYTES, bytes.length - NONCE_BYTES);
      return Optional.of(new JsonObject(new String(plain, StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException | DecodeException e) {
      return Optional.empty();
    }
  }

  private Cipher cipher(int mode, String name, byte[] nonce) throws GeneralSecurityException {
    Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
    cipher.init(mode, key, new GCMParameterSpec(TAG_BITS, nonce));
    cipher.updateAAD(name.getBytes(StandardCharsets.UTF_8));
    return cipher;
  }
}
