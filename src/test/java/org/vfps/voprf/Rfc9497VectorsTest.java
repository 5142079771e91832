package org.vfps.voprf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cafe.cryptography.curve25519.Scalar;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * RFC 9497 appendix A.1.2: VOPRF(ristretto255, SHA-512) in verifiable mode, the key derived from
 * its seed and info, each test vector's blinded and evaluated elements, proof and output, and the
 * batch of two with its single proof.
 */
class Rfc9497VectorsTest {

  private static final HexFormat HEX = HexFormat.of();
  private static final byte[] SEED = hex("a3".repeat(32));
  private static final byte[] KEY_INFO = hex("74657374206b6579");
  private static final String SK =
      "e6f73f344b79b379f1a0dd37e07ff62e38d9f71345ce62ae3a9bc60b04ccd909";
  private static final String PK =
      "c803e2cc6b05fc15064549b5920659ca4a77b2cca6f04f6b357009335476ad4e";
  private static final String BLIND_1 =
      "64d37aed22a27f5191de1c1d69fadb899d8862b58eb4220029e036ec4c1f6706";
  private static final String BLIND_2 =
      "222a5e897cf59db8145db8d16e597e8facb80ae7d4e26d9881aa6f61d645fc0e";
  private static final String OUTPUT_1 =
      "b58cfbe118e0cb94d79b5fd6a6dafb98764dff49c14e1770b566e42402da1a7d"
          + "a4d8527693914139caee5bd03903af43a491351d23b430948dd50cde10d32b3c";
  private static final String OUTPUT_2 =
      "8a9a2f3c7f085b65933594309041fc1898d42d0858e59f90814ae90571a6df60"
          + "356f4610bf816f27afdd84f47719e480906d27ecd994985890e5f539e7ea74b6";

  private final ServerKey key = ServerKey.derive(SEED, KEY_INFO);

  @Test
  void derivesTheKeyPairFromSeedAndInfo() {
    assertThat(HEX.formatHex(key.secretBytes())).isEqualTo(SK);
    assertThat(HEX.formatHex(key.publicKey())).isEqualTo(PK);
    assertThat(HEX.formatHex(ServerKey.fromSecret(hex(SK)).publicKey())).isEqualTo(PK);
  }

  @Test
  void vector1() throws Exception {
    runSingle(
        "00",
        "863f330cc1a1259ed5a5998a23acfd37fb4351a793a5b3c090b642ddc439b945",
        "aa8fa048764d5623868679402ff6108d2521884fa138cd7f9c7669a9a014267e",
        "ddef93772692e535d1a53903db24367355cc2cc78de93b3be5a8ffcc6985dd06"
            + "6d4346421d17bf5117a2a1ff0fcb2a759f58a539dfbe857a40bce4cf49ec600d",
        OUTPUT_1);
  }

  @Test
  void vector2() throws Exception {
    runSingle(
        "5a".repeat(17),
        "cc0b2a350101881d8a4cba4c80241d74fb7dcbfde4a61fde2f91443c2bf9ef0c",
        "60a59a57208d48aca71e9e850d22674b611f752bed48b36f7a91b372bd7ad468",
        "401a0da6264f8cf45bb2f5264bc31e109155600babb3cd4e5af7d181a2c9dc0a"
            + "67154fabf031fd936051dec80b0b6ae29c9503493dde7393b722eafdf5a50b02",
        OUTPUT_2);
  }

  @Test
  void vector3BatchOfTwoWithOneProof() throws Exception {
    List<BlindedInput> inputs =
        List.of(
            BlindedInput.blind(hex("00"), scalar(BLIND_1)),
            BlindedInput.blind(hex("5a".repeat(17)), scalar(BLIND_2)));
    assertThat(inputs.stream().map(input -> HEX.formatHex(input.element())))
        .containsExactly(
            "863f330cc1a1259ed5a5998a23acfd37fb4351a793a5b3c090b642ddc439b945",
            "90a0145ea9da29254c3a56be4fe185465ebb3bf2a1801f7124bbbadac751e654");

    Evaluation evaluation =
        key.evaluate(
            inputs.stream().map(BlindedInput::element).toList(),
            scalar("419c4f4f5052c53c45f3da494d2b67b220d02118e0857cdbcf037f9ea84bbe0c"));

    assertThat(evaluation.evaluatedElements().stream().map(HEX::formatHex))
        .containsExactly(
            "aa8fa048764d5623868679402ff6108d2521884fa138cd7f9c7669a9a014267e",
            "cc5ac221950a49ceaa73c8db41b82c20372a4c8d63e5dded2db920b7eee36a2a");
    assertThat(HEX.formatHex(evaluation.proof()))
        .isEqualTo(
            "cc203910175d786927eeb44ea847328047892ddf8590e723c37205cb74600b0a"
                + "5ab5337c8eb4ceae0494c2cf89529dcf94572ed267473d567aeed6ab873dee08");
    List<byte[]> outputs =
        ServerPublicKey.of(hex(PK))
            .finalize(inputs, evaluation.evaluatedElements(), evaluation.proof());
    assertThat(outputs.stream().map(HEX::formatHex)).containsExactly(OUTPUT_1, OUTPUT_2);
  }

  @Test
  void aBatchProofDoesNotVerifyForTheElementsSwapped() throws Exception {
    List<BlindedInput> inputs =
        List.of(
            BlindedInput.blind(hex("00"), scalar(BLIND_1)),
            BlindedInput.blind(hex("5a".repeat(17)), scalar(BLIND_2)));
    Evaluation evaluation =
        key.evaluate(inputs.stream().map(BlindedInput::element).toList(), scalar(BLIND_2));
    List<byte[]> swapped =
        List.of(evaluation.evaluatedElements().get(1), evaluation.evaluatedElements().get(0));

    assertThatThrownBy(
            () -> ServerPublicKey.of(hex(PK)).finalize(inputs, swapped, evaluation.proof()))
        .isInstanceOf(VerificationException.class)
        .hasMessageContaining("proof");
  }

  private void runSingle(
      String input, String blinded, String evaluated, String proof, String output)
      throws Exception {
    BlindedInput blindedInput = BlindedInput.blind(hex(input), scalar(BLIND_1));
    assertThat(HEX.formatHex(blindedInput.element())).isEqualTo(blinded);

    Evaluation evaluation = key.evaluate(List.of(blindedInput.element()), scalar(BLIND_2));

    assertThat(HEX.formatHex(evaluation.evaluatedElements().getFirst())).isEqualTo(evaluated);
    assertThat(HEX.formatHex(evaluation.proof())).isEqualTo(proof);
    List<byte[]> outputs =
        ServerPublicKey.of(hex(PK))
            .finalize(List.of(blindedInput), evaluation.evaluatedElements(), evaluation.proof());
    assertThat(HEX.formatHex(outputs.getFirst())).isEqualTo(output);
  }

  private static Scalar scalar(String hex) {
    return Scalar.fromCanonicalBytes(hex(hex));
  }

  private static byte[] hex(String hex) {
    return HEX.parseHex(hex);
  }
}
