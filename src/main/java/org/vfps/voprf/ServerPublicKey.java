package org.vfps.voprf;

import cafe.cryptography.curve25519.RistrettoElement;
import cafe.cryptography.curve25519.RistrettoGeneratorTable;
import cafe.cryptography.curve25519.Scalar;
import java.io.ByteArrayOutputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The public key a client pins, and what it does with a server's answer (RFC 9497 §3.3.2 {@code
 * Finalize}, batched): verify the one proof over the whole batch, then unblind and hash each
 * element. Thread-safe.
 */
public final class ServerPublicKey {

  /** The bytes of a serialized public key. */
  public static final int BYTES = Ristretto255Sha512.ELEMENT_BYTES;

  /** The bytes of an output: a SHA-512 digest. */
  public static final int OUTPUT_BYTES = Ristretto255Sha512.OUTPUT_BYTES;

  private static final byte[] FINALIZE = Ristretto255Sha512.ascii("Finalize");

  private final byte[] serialized;
  // the key's multiples, for the one multiplication by it of each proof (a third of the cost)
  private final RistrettoGeneratorTable multiples;

  private ServerPublicKey(byte[] serialized, RistrettoElement element) {
    this.serialized = serialized;
    this.multiples = new RistrettoGeneratorTable(element);
  }

  /**
   * The key of 32 serialized bytes.
   *
   * @throws InvalidElementException unless they are a valid, non-identity element
   */
  public static ServerPublicKey of(byte[] publicKey) throws InvalidElementException {
    return new ServerPublicKey(publicKey.clone(), Ristretto255Sha512.deserialize(publicKey));
  }

  /** The serialized key: a copy. */
  public byte[] bytes() {
    return serialized.clone();
  }

  /** Whether {@code other} is this key's serialization. */
  public boolean matches(byte[] other) {
    return MessageDigest.isEqual(serialized, other);
  }

  /**
   * The outputs of the blinded inputs, in order, from the server's evaluated elements and proof.
   *
   * @throws VerificationException if the counts differ, an element is invalid, or the proof does
   *     not verify against this key: then nothing is returned
   */
  public List<byte[]> finalize(List<BlindedInput> inputs, List<byte[]> evaluated, byte[] proof)
      throws VerificationException {
    if (inputs.isEmpty() || inputs.size() != evaluated.size()) {
      throw new VerificationException(
          "the server answered " + evaluated.size() + " elements for " + inputs.size());
    }
    List<RistrettoElement> blinded = new ArrayList<>(inputs.size());
    List<byte[]> blindedBytes = new ArrayList<>(inputs.size());
    List<RistrettoElement> evaluatedElements = new ArrayList<>(inputs.size());
    for (int i = 0; i < inputs.size(); i++) {
      blinded.add(inputs.get(i).blindedElement());
      blindedBytes.add(inputs.get(i).serializedElement());
      try {
        evaluatedElements.add(Ristretto255Sha512.deserialize(evaluated.get(i)));
      } catch (InvalidElementException e) {
        throw new VerificationException(
            "evaluated element " + i + " is invalid: " + e.getMessage());
      }
    }
    if (!Dleq.verify(
        multiples, serialized, blinded, blindedBytes, evaluatedElements, evaluated, proof)) {
      throw new VerificationException("the proof does not verify against the pinned public key");
    }
    Scalar[] inverses = invertAll(inputs);
    List<byte[]> outputs = new ArrayList<>(inputs.size());
    for (int i = 0; i < inputs.size(); i++) {
      BlindedInput input = inputs.get(i);
      RistrettoElement unblinded = evaluatedElements.get(i).multiply(inverses[i]);
      ByteArrayOutputStream hashInput = new ByteArrayOutputStream();
      Ristretto255Sha512.framed(hashInput, input.input());
      Ristretto255Sha512.framed(hashInput, Ristretto255Sha512.serialize(unblinded));
      hashInput.writeBytes(FINALIZE);
      outputs.add(Ristretto255Sha512.sha512().digest(hashInput.toByteArray()));
    }
    return outputs;
  }

  /**
   * The inverses of the inputs' blinds with one inversion for all (Montgomery's trick): each
   * inversion costs some 250 multiplications, this three per blind.
   */
  private static Scalar[] invertAll(List<BlindedInput> inputs) {
    Scalar[] prefix = new Scalar[inputs.size()];
    Scalar product = Scalar.ONE;
    for (int i = 0; i < prefix.length; i++) {
      prefix[i] = product;
      product = product.multiply(inputs.get(i).blind());
    }
    Scalar inverse = Ristretto255Sha512.invert(product);
    Scalar[] inverses = new Scalar[prefix.length];
    for (int i = prefix.length - 1; i >= 0; i--) {
      inverses[i] = inverse.multiply(prefix[i]);
      inverse = inverse.multiply(inputs.get(i).blind());
    }
    return inverses;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof ServerPublicKey key && Arrays.equals(serialized, key.serialized);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(serialized);
  }
}
