package org.vfps.voprf;

import cafe.cryptography.curve25519.RistrettoElement;
import cafe.cryptography.curve25519.Scalar;
import java.security.SecureRandom;

/**
 * A client's input blinded for the server (RFC 9497 {@code Blind}): the element to send, and the
 * blind that only the client knows, to unblind the server's answer with. Used once.
 */
public final class BlindedInput {

  private final byte[] input;
  private final Scalar blind;
  private final RistrettoElement element;
  private final byte[] serialized;

  private BlindedInput(byte[] input, Scalar blind) {
    RistrettoElement hashed = Ristretto255Sha512.hashToGroup(input);
    if (hashed.equals(RistrettoElement.IDENTITY)) {
      // RFC 9497's InvalidInputError: an input whose hash is the identity, found by no one yet
      throw new IllegalArgumentException("the input hashes to the identity element");
    }
    this.input = input.clone();
    this.blind = blind;
    this.element = hashed.multiply(blind);
    this.serialized = Ristretto255Sha512.serialize(element);
  }

  /**
   * Blinds the input with a fresh random blind.
   *
   * @throws IllegalArgumentException if the input is longer than 65,535 bytes
   */
  public static BlindedInput blind(byte[] input, SecureRandom random) {
    requireFramable(input);
    return new BlindedInput(input, Ristretto255Sha512.randomScalar(random));
  }

  /** Blinds the input with the given blind: for tests. */
  static BlindedInput blind(byte[] input, Scalar blind) {
    requireFramable(input);
    return new BlindedInput(input, blind);
  }

  /** The blinded element to send, 32 bytes: a copy. */
  public byte[] element() {
    return serialized.clone();
  }

  byte[] input() {
    return input;
  }

  Scalar blind() {
    return blind;
  }

  RistrettoElement blindedElement() {
    return element;
  }

  byte[] serializedElement() {
    return serialized;
  }

  private static void requireFramable(byte[] input) {
    if (input.length > Ristretto255Sha512.MAX_INPUT_BYTES) {
      throw new IllegalArgumentException("an input is at most 65535 bytes");
    }
  }
}
