package org.vfps.audit;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.SignatureException;
import java.security.interfaces.EdECPrivateKey;
import java.security.spec.NamedParameterSpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.Base64;
import org.vfps.config.AuditSigningKeyFile;

/**
 * The Ed25519 keys of the checkpoints: new pairs, their PEM text, the public key of a private one,
 * and a key's id, which a checkpoint names so that a verifier with several keys knows which one
 * signed it.
 */
final class CheckpointKeys {

  private static final String ALGORITHM = "Ed25519";
  private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

  private CheckpointKeys() {}

  /** A new random key pair. */
  static KeyPair generate() {
    try {
      return KeyPairGenerator.getInstance(ALGORITHM).generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("every supported JDK has Ed25519", e);
    }
  }

  /**
   * The public key of an Ed25519 private key. The JDK derives one only when it generates a pair, so
   * the pair is generated again from the private key's own bytes.
   *
   * @throws IllegalArgumentException when the key is no Ed25519 key
   */
  static PublicKey publicKeyOf(PrivateKey key) {
    if (!(key instanceof EdECPrivateKey edec) || edec.getBytes().isEmpty()) {
      throw new IllegalArgumentException("not an Ed25519 private key");
    }
    byte[] seed = edec.getBytes().get();
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance(ALGORITHM);
      generator.initialize(NamedParameterSpec.ED25519, new FixedBytes(seed));
      return generator.generateKeyPair().getPublic();
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("not an Ed25519 private key", e);
    } finally {
      Arrays.fill(seed, (byte) 0);
    }
  }

  /** The key's id: the first 8 bytes of the SHA-256 of its X.509 encoding, base64url. */
  static String id(PublicKey key) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getEncoded());
      return BASE64URL.encodeToString(Arrays.copyOf(digest, 8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  static byte[] sign(PrivateKey key, byte[] content) {
    try {
      Signature signature = Signature.getInstance(ALGORITHM);
      signature.initSign(key);
      signature.update(content);
      return signature.sign();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the checkpoint key cannot sign", e);
    }
  }

  /** Whether {@code signature} is the key's signature of {@code content}. */
  static boolean verifies(PublicKey key, byte[] content, byte[] signature) {
    try {
      Signature verifier = Signature.getInstance(ALGORITHM);
      verifier.initVerify(key);
      verifier.update(content);
      return verifier.verify(signature);
    } catch (InvalidKeyException | SignatureException e) {
      return false;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("every supported JDK has Ed25519", e);
    }
  }

  /** The private key as PKCS#8 PEM. */
  static String privatePem(PrivateKey key) {
    return pem("PRIVATE KEY", key.getEncoded());
  }

  /** The public key as X.509 SubjectPublicKeyInfo PEM. */
  static String publicPem(PublicKey key) {
    return pem("PUBLIC KEY", key.getEncoded());
  }

  /**
   * The Ed25519 public key of a PEM text ({@code -----BEGIN PUBLIC KEY-----}).
   *
   * @throws IllegalArgumentException when the text holds none
   */
  static PublicKey readPublicPem(String text) {
    byte[] der = AuditSigningKeyFile.pemContents(text, "PUBLIC KEY");
    if (der == null) {
      throw new IllegalArgumentException("holds no PEM public key (-----BEGIN PUBLIC KEY-----)");
    }
    try {
      return KeyFactory.getInstance(ALGORITHM).generatePublic(new X509EncodedKeySpec(der));
    } catch (GeneralSecurityException | RuntimeException e) {
      throw new IllegalArgumentException("holds no Ed25519 public key");
    }
  }

  private static String pem(String label, byte[] der) {
    return "-----BEGIN "
        + label
        + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
        + "\n-----END "
        + label
        + "-----\n";
  }

  /** A random source that gives the same bytes, to derive a key pair from a known private key. */
  private static final class FixedBytes extends SecureRandom {

    private static final long serialVersionUID = 1L;

    private final transient byte[] bytes;

    FixedBytes(byte[] bytes) {
      this.bytes = bytes;
    }

    @Override
    public void nextBytes(byte[] into) {
      System.arraycopy(bytes, 0, into, 0, Math.min(bytes.length, into.length));
    }
  }
}
