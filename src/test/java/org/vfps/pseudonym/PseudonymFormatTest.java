package org.vfps.pseudonym;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.vfps.alphabet.AlphabetFormat;
import org.vfps.alphabet.CheckDigitKind;
import org.vfps.namespace.GenerationMethod;
import org.vfps.namespace.Namespace;
import org.vfps.namespace.OriginalValueRegex;
import org.vfps.namespace.ParentValidationMode;

class PseudonymFormatTest {

  private static Namespace namespace(
      GenerationMethod method, long length, String prefix, String suffix) {
    return new Namespace(
        "ns",
        null,
        method,
        length,
        prefix,
        suffix,
        OriginalValueRegex.NONE,
        false,
        null,
        ParentValidationMode.UNSPECIFIED,
        null,
        Instant.EPOCH,
        Instant.EPOCH);
  }

  /** A namespace of the alphabet method, three drawn characters, the prefix P and suffix S. */
  private static Namespace alphabetNamespace(AlphabetFormat format) {
    return new Namespace(
        "ns",
        null,
        GenerationMethod.X_SECURE_RANDOM_ALPHABET,
        3,
        "P",
        "S",
        OriginalValueRegex.NONE,
        false,
        null,
        ParentValidationMode.UNSPECIFIED,
        format,
        Instant.EPOCH,
        Instant.EPOCH);
  }

  @ParameterizedTest
  @EnumSource(
      value = GenerationMethod.class,
      mode = EnumSource.Mode.EXCLUDE,
      names = {"VOPRF", "X_SECURE_RANDOM_ALPHABET"})
  void whatEachGeneratorMakesFitsItsNamespacesFormatForEveryLength(GenerationMethod method) {
    PseudonymGenerator generator = PseudonymGenerators.forMethod(method);
    for (int length :
        method.fixedLength().isPresent()
            ? new int[] {method.fixedLength().getAsInt()}
            : new int[] {1, 2, 3, 7, 16, 31, 32, 64}) {
      Namespace plain = namespace(method, length, "", "");
      Namespace affixed = namespace(method, length, "pre-", "=suf");
      for (int i = 0; i < 200; i++) {
        String core = generator.generate("value-" + i, length);
        assertThat(PseudonymFormat.fits(plain, core))
            .as("%s %d: %s", method, length, core)
            .isTrue();
        assertThat(PseudonymFormat.fits(affixed, "pre-" + core + "=suf")).isTrue();
        assertThat(PseudonymFormat.fits(affixed, core)).isFalse();
        assertThat(PseudonymFormat.fits(plain, core + core.charAt(0))).isFalse();
        assertThat(PseudonymFormat.fits(plain, core.substring(1))).isFalse();
        assertThat(PseudonymFormat.fits(plain, "=" + core.substring(1))).isFalse();
      }
    }
  }

  @Test
  void aCoreOutsideTheMethodsAlphabetDoesNotFit() {
    assertThat(fits(GenerationMethod.FULL_RANDOM_HEX_ENCODED, 4, "0a9f")).isTrue();
    assertThat(fits(GenerationMethod.FULL_RANDOM_HEX_ENCODED, 4, "0A9F")).isFalse();
    assertThat(fits(GenerationMethod.FULL_RANDOM_HEX_ENCODED, 4, "0a9g")).isFalse();
    assertThat(fits(GenerationMethod.FULL_RANDOM_BASE32_ENCODED, 4, "AZ27")).isTrue();
    assertThat(fits(GenerationMethod.FULL_RANDOM_BASE32_ENCODED, 4, "AZ18")).isFalse();
    assertThat(fits(GenerationMethod.FULL_RANDOM_BASE32_ENCODED, 4, "az27")).isFalse();
    assertThat(fits(GenerationMethod.FULL_RANDOM_BASE62_ENCODED, 4, "aZ09")).isTrue();
    assertThat(fits(GenerationMethod.FULL_RANDOM_BASE62_ENCODED, 4, "aZ-9")).isFalse();
    assertThat(fits(GenerationMethod.SHA256_HEX_ENCODED, 64, "AB".repeat(32))).isTrue();
    assertThat(fits(GenerationMethod.SHA256_HEX_ENCODED, 64, "ab".repeat(32))).isFalse();
    assertThat(fits(GenerationMethod.UUID4, 36, "0189c3a2-7b1e-4c2d-9a3b-2f4e5d6c7b8a")).isTrue();
    assertThat(fits(GenerationMethod.UUID4, 36, "0189C3A2-7B1E-4C2D-9A3B-2F4E5D6C7B8A")).isFalse();
    assertThat(fits(GenerationMethod.UUID7, 36, "0189c3a27b1e4c2d9a3b2f4e5d6c7b8a0000")).isFalse();
    // 16 random bytes and the 8-byte header: 32 characters of base64url
    assertThat(fits(GenerationMethod.UNSPECIFIED, 16, "W86Y9_kXRABgUApaNZVah7-_lCqsKt_r")).isTrue();
    assertThat(fits(GenerationMethod.UNSPECIFIED, 16, "W86Y9_kXRABgUApaNZVah7-_lCqsKt_="))
        .isFalse();
    assertThat(fits(GenerationMethod.UNSPECIFIED, 16, "W86Y9_kXRABgUApaNZVah7+/lCqsKt_r"))
        .isFalse();
  }

  @Test
  void aVoprfCoreIsItsOutputAfterAnOptionalKeyId() {
    String output = "AbC-_9".repeat(14) + "xy"; // 86 characters, as 64 bytes in base64url
    assertThat(fits(GenerationMethod.VOPRF, 86, output)).isTrue();
    assertThat(fits(GenerationMethod.VOPRF, 86, "v1." + output)).isTrue();
    assertThat(fits(GenerationMethod.VOPRF, 86, "key_2026-a." + output)).isTrue();
    assertThat(fits(GenerationMethod.VOPRF, 86, "." + output)).isFalse();
    assertThat(fits(GenerationMethod.VOPRF, 86, "v1" + output)).isFalse();
    assertThat(fits(GenerationMethod.VOPRF, 86, "=1." + output)).isFalse();
    assertThat(fits(GenerationMethod.VOPRF, 86, "k".repeat(65) + "." + output)).isFalse();
    assertThat(fits(GenerationMethod.VOPRF, 86, output.substring(1))).isFalse();
    assertThat(fits(GenerationMethod.VOPRF, 32, "0123456789abcdef".repeat(2))).isTrue();
  }

  @Test
  void anAlphabetNamespaceStoresItsCanonicalFormAndLooksUpAnyTypedForm() {
    // Damm over the ten digits: 572 has the check digit 4; groups of two with "-"
    AlphabetFormat format = AlphabetFormat.of("0123456789", CheckDigitKind.DAMM, 2, "-", 3);
    Namespace namespace = alphabetNamespace(format);

    assertThat(PseudonymFormat.fits(namespace, "P57-24S")).isTrue();
    assertThat(PseudonymFormat.fits(namespace, "P5724S")).as("not as written").isFalse();
    assertThat(PseudonymFormat.fits(namespace, "P57-25S")).as("check digit").isFalse();
    assertThat(PseudonymFormat.fits(namespace, "57-24")).as("no affixes").isFalse();

    assertThat(PseudonymFormat.lookupForm(namespace, "P5724S")).contains("P57-24S");
    assertThat(PseudonymFormat.lookupForm(namespace, "P57-24S")).contains("P57-24S");
    assertThat(PseudonymFormat.lookupForm(namespace, "P57-25S")).as("mistyped").isEmpty();
    assertThat(PseudonymFormat.lookupForm(namespace, "P75-24S")).as("swapped").isEmpty();
    // not of the format's shape: looked up as it is, and not found
    assertThat(PseudonymFormat.lookupForm(namespace, "P57-2S")).contains("P57-2S");
    assertThat(PseudonymFormat.lookupForm(namespace, "X57-24S")).contains("X57-24S");
  }

  @Test
  void anImportStoresTheCanonicalFormAndSaysWhyAPseudonymDoesNotFit() {
    // gPAS's Damm over the ten digits: 572 has the check digit 1; groups of two with "-"
    Namespace namespace =
        alphabetNamespace(AlphabetFormat.of("0123456789", CheckDigitKind.X_GPAS_DAMM, 2, "-", 3));

    assertThat(PseudonymFormat.toImport(namespace, "P57-21S"))
        .isEqualTo(new PseudonymFormat.Imported("P57-21S", null));
    assertThat(PseudonymFormat.toImport(namespace, "P5721S"))
        .as("without its delimiters")
        .isEqualTo(new PseudonymFormat.Imported("P57-21S", null));
    assertThat(PseudonymFormat.toImport(namespace, "P57-24S").refusal())
        .as("the standard Damm's check digit")
        .isEqualTo(ImportStatus.PSEUDONYM_CHECK_DIGIT_MISMATCH);
    assertThat(PseudonymFormat.toImport(namespace, "P57-2AS").refusal())
        .isEqualTo(ImportStatus.PSEUDONYM_OUTSIDE_ALPHABET);
    assertThat(PseudonymFormat.toImport(namespace, "P57_21S").refusal())
        .as("another delimiter")
        .isEqualTo(ImportStatus.PSEUDONYM_OUTSIDE_ALPHABET);
    for (String malformed : new String[] {"P57-2S", "P572-1S", "P57--21S", "57-21", "P57-21"}) {
      assertThat(PseudonymFormat.toImport(namespace, malformed).refusal())
          .as(malformed)
          .isEqualTo(ImportStatus.INVALID_PSEUDONYM_VALUE);
    }
    assertThat(PseudonymFormat.fits(namespace, "P57-21S")).isTrue();
    assertThat(PseudonymFormat.fits(namespace, "P5721S")).isFalse();
  }

  @Test
  void anImportOfAnotherMethodStoresThePseudonymAsItIs() {
    Namespace namespace = namespace(GenerationMethod.FULL_RANDOM_HEX_ENCODED, 4, "legacy-", "");

    assertThat(PseudonymFormat.toImport(namespace, "legacy-00af"))
        .isEqualTo(new PseudonymFormat.Imported("legacy-00af", null));
    assertThat(PseudonymFormat.toImport(namespace, "legacy-00AF"))
        .isEqualTo(new PseudonymFormat.Imported(null, ImportStatus.INVALID_PSEUDONYM_VALUE));
  }

  private static boolean fits(GenerationMethod method, long length, String core) {
    return PseudonymFormat.fits(namespace(method, length, "", ""), core);
  }
}
