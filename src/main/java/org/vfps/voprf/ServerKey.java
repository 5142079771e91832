package org.vfps.voprf;

import cafe.cryptography.curve25519.RistrettoElement;
import cafe.cryptography.curve25519.Scalar;
import java.io.ByteArrayOutputStream;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;

/**
 * A VOPRF server's key pair, and the evaluation of blinded elements with it (RFC 9497 §3.3.2,
 * batched as §2.2.1 allows: one proof for the whole batch). The secret never leaves this object.
 * Thread-safe.
 */
public final class ServerKey {

  /** The bytes of a serialized secret key (a scalar, little-endian). */
  public static final int SECRET_KEY_BYTES = Ristretto255Sha512.SCALAR_BYTES;

  private static final byte[] DERIVE_DST =
      Ristretto255Sha512.concat(
          Ristretto255Sha512.ascii("DeriveKeyPair"), Ristretto255Sha512.CONTEXT);

  private final Scalar secret;
  private final byte[] publicKey;

  private ServerKey(Scalar secret) {
    this.secret = secret;
    this.publicKey = Ristretto255Sha512.serialize(Ristretto255Sha512.multiplyGenerator(secret));
  }

  /**
   * RFC 9497 {@code DeriveKeyPair(seed, info)}: the same seed and info give the same key.
   *
   * @throws IllegalArgumentException if {@code info} is longer than 65,535 bytes, or (with
   *     probability 2^-2000) no counter gives a non-zero scalar
   */
  public static ServerKey derive(byte[] seed, byte[] info) {
    if (info.length > Ristretto255Sha512.MAX_INPUT_BYTES) {
      throw new IllegalArgumentException("the key info is longer than 65535 bytes");
    }
    ByteArrayOutputStream input = new ByteArrayOutputStream();
    input.writeBytes(seed);
    Ristretto255Sha512.framed(input, info);
    byte[] deriveInput = input.toByteArray();
    byte[] withCounter = new byte[deriveInput.length + 1];
    System.arraycopy(deriveInput, 0, withCounter, 0, deriveInput.length);
    for (int counter = 0; counter <= 255; counter++) {
      withCounter[deriveInput.length] = (byte) counter;
      Scalar candidate = Ristretto255Sha512.hashToScalar(withCounter, DERIVE_DST);
      if (!candidate.equals(Scalar.ZERO)) {
        return new ServerKey(candidate);
      }
    }
    throw new IllegalArgumentException("DeriveKeyPair found no key for this seed");
  }

  /**
   * The key of a serialized secret: 32 bytes, little-endian, below the group order, not zero.
   *
   * @throws IllegalArgumentException otherwise
   */
  public static ServerKey fromSecret(byte[] secretKey) {
    if (secretKey.length != SECRET_KEY_BYTES) {
      throw new IllegalArgumentException("a secret key is " + SECRET_KEY_BYTES + " bytes");
    }
    Scalar scalar = Ristretto255Sha512.canonicalScalar(secretKey);
    if (scalar == null || scalar.equals(Scalar.ZERO)) {
      throw new IllegalArgumentException(
          "the secret key is no non-zero scalar below the group order");
    }
    return new ServerKey(scalar);
  }

  /** A new random key, for development only. */
  public static ServerKey random(SecureRandom random) {
    return new ServerKey(Ristretto255Sha512.randomScalar(random));
  }

  /** The serialized public key, 32 bytes: a copy. */
  public byte[] publicKey() {
    return publicKey.clone();
  }

  /**
   * Evaluates the blinded elements, in order, with one proof for them all.
   *
   * @throws InvalidElementException if an element is not 32 bytes, not a canonical encoding, or the
   *     identity
   * @throws IllegalArgumentException if there are none
   */
  public Evaluation evaluate(List<byte[]> blindedElements, SecureRandom random)
      throws InvalidElementException {
    return evaluate(blindedElements, Ristretto255Sha512.randomScalar(random));
  }

  /** As {@link #evaluate(List, SecureRandom)}, with the proof's random scalar given: for tests. */
  Evaluation evaluate(List<byte[]> blindedElements, Scalar proofRandom)
      throws InvalidElementException {
    if (blindedElements.isEmpty()) {
      throw new IllegalArgumentException("no blinded elements");
    }
    List<RistrettoElement> blinded = new ArrayList<>(blindedElements.size());
    for (byte[] element : blindedElements) {
      blinded.add(Ristretto255Sha512.deserialize(element));
    }
    List<byte[]> evaluated = new ArrayList<>(blinded.size());
    for (RistrettoElement element : blinded) {
      evaluated.add(Ristretto255Sha512.serialize(element.multiply(secret)));
    }
    byte[] proof =
        Dleq.generate(secret, publicKey, blinded, blindedElements, evaluated, proofRandom);
    return new Evaluation(evaluated, proof);
  }

  /** The serialized secret: for tests that compare it with the RFC's. */
  byte[] secretBytes() {
    return secret.toByteArray();
  }
}
