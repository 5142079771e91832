package org.vfps.voprf;

import static org.vfps.voprf.Ristretto255Sha512.framed;
import static org.vfps.voprf.Ristretto255Sha512.serialize;

import cafe.cryptography.curve25519.RistrettoElement;
import cafe.cryptography.curve25519.RistrettoGeneratorTable;
import cafe.cryptography.curve25519.Scalar;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;

/**
 * The batched discrete-log-equality proof of RFC 9497 §2.2, with the generator as {@code A}: that
 * one key {@code k} maps every {@code C[i]} to {@code D[i]} and the generator to {@code B = k·G}.
 * The proof is {@code c || s}, two scalars.
 */
final class Dleq {

  static final int PROOF_BYTES = 2 * Ristretto255Sha512.SCALAR_BYTES;

  private static final byte[] SEED_DST =
      Ristretto255Sha512.concat(Ristretto255Sha512.ascii("Seed-"), Ristretto255Sha512.CONTEXT);
  private static final byte[] COMPOSITE = Ristretto255Sha512.ascii("Composite");
  private static final byte[] CHALLENGE = Ristretto255Sha512.ascii("Challenge");

  private Dleq() {}

  /** {@code GenerateProof(k, G, B, C, D)} with the proof's random scalar {@code r}. */
  static byte[] generate(
      Scalar k,
      byte[] publicKey,
      List<RistrettoElement> c,
      List<byte[]> cBytes,
      List<byte[]> dBytes,
      Scalar r) {
    // ComputeCompositesFast: the server knows k, so Z = k·M
    RistrettoElement m = RistrettoElement.IDENTITY;
    byte[] seed = seed(publicKey);
    for (int i = 0; i < c.size(); i++) {
      m = c.get(i).multiply(weight(seed, i, cBytes.get(i), dBytes.get(i))).add(m);
    }
    RistrettoElement z = m.multiply(k);
    RistrettoElement t2 = Ristretto255Sha512.multiplyGenerator(r);
    RistrettoElement t3 = m.multiply(r);
    Scalar challenge = challenge(publicKey, m, z, t2, t3);
    Scalar s = r.subtract(challenge.multiply(k));
    byte[] proof = new byte[PROOF_BYTES];
    System.arraycopy(challenge.toByteArray(), 0, proof, 0, 32);
    System.arraycopy(s.toByteArray(), 0, proof, 32, 32);
    return proof;
  }

  /**
   * {@code VerifyProof(G, B, C, D, proof)}: false for any proof that does not hold. {@code B} comes
   * as a table of its multiples, as the pinned key is used for every answer.
   */
  static boolean verify(
      RistrettoGeneratorTable publicKey,
      byte[] publicKeyBytes,
      List<RistrettoElement> c,
      List<byte[]> cBytes,
      List<RistrettoElement> d,
      List<byte[]> dBytes,
      byte[] proof) {
    if (proof.length != PROOF_BYTES) {
      return false;
    }
    Scalar challenge = Ristretto255Sha512.canonicalScalar(Arrays.copyOfRange(proof, 0, 32));
    Scalar s = Ristretto255Sha512.canonicalScalar(Arrays.copyOfRange(proof, 32, 64));
    if (challenge == null || s == null) {
      return false;
    }
    byte[] seed = seed(publicKeyBytes);
    RistrettoElement m = RistrettoElement.IDENTITY;
    RistrettoElement z = RistrettoElement.IDENTITY;
    for (int i = 0; i < c.size(); i++) {
      Scalar weight = weight(seed, i, cBytes.get(i), dBytes.get(i));
      m = c.get(i).multiply(weight).add(m);
      z = d.get(i).multiply(weight).add(z);
    }
    RistrettoElement t2 =
        Ristretto255Sha512.multiplyGenerator(s).add(publicKey.multiply(challenge));
    RistrettoElement t3 = m.multiply(s).add(z.multiply(challenge));
    return challenge(publicKeyBytes, m, z, t2, t3).equals(challenge);
  }

  /** {@code Hash(I2OSP(len(Bm), 2) || Bm || I2OSP(len(seedDST), 2) || seedDST)}. */
  private static byte[] seed(byte[] publicKey) {
    ByteArrayOutputStream transcript = new ByteArrayOutputStream();
    framed(transcript, publicKey);
    framed(transcript, SEED_DST);
    return Ristretto255Sha512.sha512().digest(transcript.toByteArray());
  }

  /** The composite weight {@code d_i} of pair {@code i}. */
  private static Scalar weight(byte[] seed, int index, byte[] ci, byte[] di) {
    ByteArrayOutputStream transcript = new ByteArrayOutputStream();
    framed(transcript, seed);
    transcript.write(index >>> 8);
    transcript.write(index);
    framed(transcript, ci);
    framed(transcript, di);
    transcript.writeBytes(COMPOSITE);
    return Ristretto255Sha512.hashToScalar(transcript.toByteArray());
  }

  private static Scalar challenge(
      byte[] publicKey,
      RistrettoElement m,
      RistrettoElement z,
      RistrettoElement t2,
      RistrettoElement t3) {
    ByteArrayOutputStream transcript = new ByteArrayOutputStream();
    framed(transcript, publicKey);
    framed(transcript, serialize(m));
    framed(transcript, serialize(z));
    framed(transcript, serialize(t2));
    framed(transcript, serialize(t3));
    transcript.writeBytes(CHALLENGE);
    return Ristretto255Sha512.hashToScalar(transcript.toByteArray());
  }
}
