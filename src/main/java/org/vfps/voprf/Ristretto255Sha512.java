package org.vfps.voprf;

import cafe.cryptography.curve25519.CompressedRistretto;
import cafe.cryptography.curve25519.Constants;
import cafe.cryptography.curve25519.InvalidEncodingException;
import cafe.cryptography.curve25519.RistrettoElement;
import cafe.cryptography.curve25519.Scalar;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;

/**
 * The suite's group and hash: ristretto255 (RFC 9496) with SHA-512, the hash-to-group and
 * hash-to-scalar of RFC 9497 §4.1 with {@code expand_message_xmd} (RFC 9380 §5.3.1), and the
 * verifiable mode's context string. Thread-safe.
 */
final class Ristretto255Sha512 {

  /** A serialized element: a point's Ristretto encoding. */
  static final int ELEMENT_BYTES = 32;

  /** A serialized scalar, little-endian. */
  static final int SCALAR_BYTES = 32;

  /** The output of {@code Finalize}: a SHA-512 digest. */
  static final int OUTPUT_BYTES = 64;

  /** The longest input: lengths are framed as two bytes. */
  static final int MAX_INPUT_BYTES = 0xFFFF;

  /** {@code "OPRFV1-" || 0x01 || "-" || "ristretto255-SHA512"}: the VOPRF mode's context. */
  static final byte[] CONTEXT = context();

  private static final byte[] HASH_TO_GROUP_DST = concat(ascii("HashToGroup-"), CONTEXT);
  private static final byte[] HASH_TO_SCALAR_DST = concat(ascii("HashToScalar-"), CONTEXT);
  private static final int SHA512_BLOCK_BYTES = 128;

  /** The group's order, 2^252 + 27742317777372353535851937790883648493. */
  private static final BigInteger ORDER =
      BigInteger.ONE.shiftLeft(252).add(new BigInteger("27742317777372353535851937790883648493"));

  /** The exponent of Fermat's inversion, the order minus 2, as bits from the highest. */
  private static final boolean[] INVERSE_EXPONENT = bitsOf(ORDER.subtract(BigInteger.TWO));

  private Ristretto255Sha512() {}

  /** RFC 9497's {@code HashToGroup}: {@code hash_to_ristretto255} with the suite's DST. */
  static RistrettoElement hashToGroup(byte[] input) {
    return RistrettoElement.fromUniformBytes(expandMessageXmd(input, HASH_TO_GROUP_DST, 64));
  }

  /** {@code HashToScalar} with the suite's DST. */
  static Scalar hashToScalar(byte[] input) {
    return hashToScalar(input, HASH_TO_SCALAR_DST);
  }

  /** {@code HashToScalar} with another DST, as {@code DeriveKeyPair} needs. */
  static Scalar hashToScalar(byte[] input, byte[] dst) {
    return Scalar.fromBytesModOrderWide(expandMessageXmd(input, dst, 64));
  }

  /** A uniformly random scalar, never zero. */
  static Scalar randomScalar(SecureRandom random) {
    byte[] wide = new byte[64];
    while (true) {
      random.nextBytes(wide);
      Scalar scalar = Scalar.fromBytesModOrderWide(wide);
      if (!scalar.equals(Scalar.ZERO)) {
        return scalar;
      }
    }
  }

  /** The scalar's inverse modulo the group order, in constant time (Fermat's little theorem). */
  static Scalar invert(Scalar scalar) {
    Scalar result = Scalar.ONE;
    for (boolean bit : INVERSE_EXPONENT) {
      result = result.multiply(result);
      if (bit) {
        result = result.multiply(scalar);
      }
    }
    return result;
  }

  /** The generator times the scalar, through the precomputed table. */
  static RistrettoElement multiplyGenerator(Scalar scalar) {
    return Constants.RISTRETTO_GENERATOR_TABLE.multiply(scalar);
  }

  /** {@code SerializeElement}. */
  static byte[] serialize(RistrettoElement element) {
    return element.compress().toByteArray();
  }

  /**
   * {@code DeserializeElement}: the element a 32-byte Ristretto encoding names.
   *
   * @throws InvalidElementException unless {@code bytes} is 32 bytes, a canonical encoding, and not
   *     the identity
   */
  static RistrettoElement deserialize(byte[] bytes) throws InvalidElementException {
    if (bytes.length != ELEMENT_BYTES) {
      throw new InvalidElementException("an element is " + ELEMENT_BYTES + " bytes");
    }
    RistrettoElement element;
    try {
      element = new CompressedRistretto(bytes).decompress();
    } catch (InvalidEncodingException e) {
      throw new InvalidElementException("not a ristretto255 encoding");
    }
    if (element.equals(RistrettoElement.IDENTITY)) {
      throw new InvalidElementException("the identity element");
    }
    return element;
  }

  /**
   * A canonical 32-byte scalar, or null where the bytes are not one (a proof then fails to verify).
   */
  static Scalar canonicalScalar(byte[] bytes) {
    try {
      return Scalar.fromCanonicalBytes(bytes);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  static MessageDigest sha512() {
    try {
      return MessageDigest.getInstance("SHA-512");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-512", e);
    }
  }

  /** RFC 9380 §5.3.1 with SHA-512, for at most 255 blocks. */
  static byte[] expandMessageXmd(byte[] message, byte[] dst, int length) {
    MessageDigest sha512 = sha512();
    int hashBytes = sha512.getDigestLength();
    int blocks = (length + hashBytes - 1) / hashBytes;
    if (blocks > 255 || dst.length > 255) {
      throw new IllegalArgumentException("expand_message_xmd: too long");
    }
    byte[] dstPrime = concat(dst, new byte[] {(byte) dst.length});
    sha512.update(new byte[SHA512_BLOCK_BYTES]);
    sha512.update(message);
    sha512.update(new byte[] {(byte) (length >>> 8), (byte) length, 0});
    sha512.update(dstPrime);
    byte[] b0 = sha512.digest();
    byte[] out = new byte[length];
    byte[] previous = new byte[hashBytes];
    for (int i = 1; i <= blocks; i++) {
      byte[] mixed = new byte[hashBytes];
      for (int j = 0; j < hashBytes; j++) {
        mixed[j] = (byte) (b0[j] ^ previous[j]);
      }
      sha512.update(mixed);
      sha512.update((byte) i);
      sha512.update(dstPrime);
      previous = sha512.digest();
      System.arraycopy(
          previous, 0, out, (i - 1) * hashBytes, Math.min(hashBytes, length - (i - 1) * hashBytes));
    }
    return out;
  }

  /** Appends {@code I2OSP(len(part), 2) || part}. */
  static void framed(ByteArrayOutputStream out, byte[] part) {
    out.write(part.length >>> 8);
    out.write(part.length);
    out.writeBytes(part);
  }

  static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  static byte[] concat(byte[] first, byte[] second) {
    byte[] both = new byte[first.length + second.length];
    System.arraycopy(first, 0, both, 0, first.length);
    System.arraycopy(second, 0, both, first.length, second.length);
    return both;
  }

  private static byte[] context() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(ascii("OPRFV1-"));
    out.write(0x01);
    out.writeBytes(ascii("-ristretto255-SHA512"));
    return out.toByteArray();
  }

  private static boolean[] bitsOf(BigInteger value) {
    boolean[] bits = new boolean[value.bitLength()];
    for (int i = 0; i < bits.length; i++) {
      bits[i] = value.testBit(bits.length - 1 - i);
    }
    return bits;
  }
}
