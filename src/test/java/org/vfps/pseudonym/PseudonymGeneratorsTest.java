package org.vfps.pseudonym;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.vfps.namespace.GenerationMethod;

class PseudonymGeneratorsTest {

  @ParameterizedTest
  @EnumSource(
      value = GenerationMethod.class,
      mode = EnumSource.Mode.EXCLUDE,
      names = {"VOPRF", "X_SECURE_RANDOM_ALPHABET"})
  void everyMethodButVoprfHasAGeneratorThatYieldsOutput(GenerationMethod method) {
    int length = method.fixedLength().orElse(32);

    PseudonymGenerator generator = PseudonymGenerators.forMethod(method);

    assertThat(generator).isNotNull();
    assertThat(generator.generate("test", length)).isNotEmpty();
  }

  @ParameterizedTest
  @EnumSource(GenerationMethod.class)
  void returnsTheSameInstanceOnEveryLookup(GenerationMethod method) {
    assertThat(PseudonymGenerators.forMethod(method))
        .isSameAs(PseudonymGenerators.forMethod(method));
  }

  @Test
  void fixedLengthMethodsProduceTheirFixedLength() {
    assertThat(PseudonymGenerators.forMethod(GenerationMethod.SHA256_HEX_ENCODED).generate("t", 64))
        .hasSize(64);
    assertThat(PseudonymGenerators.forMethod(GenerationMethod.UUID4).generate("t", 36)).hasSize(36);
    assertThat(PseudonymGenerators.forMethod(GenerationMethod.UUID7).generate("t", 36)).hasSize(36);
  }

  @ParameterizedTest
  @EnumSource(
      value = GenerationMethod.class,
      mode = EnumSource.Mode.EXCLUDE,
      names = {"VOPRF", "X_SECURE_RANDOM_ALPHABET"})
  void coreLengthIsTheLengthOfWhatTheGeneratorMakes(GenerationMethod method) {
    PseudonymGenerator generator = PseudonymGenerators.forMethod(method);
    for (int length = 1; length <= 70; length++) {
      int asked = method.fixedLength().orElse(length);

      assertThat(generator.generate("value " + length, asked))
          .as("%s, length %d", method, asked)
          .hasSize(PseudonymGenerators.coreLength(method, asked));
    }
  }

  @Test
  void voprfHasNoGeneratorWithoutAVoprfServer() {
    PseudonymGenerator voprf = PseudonymGenerators.forMethod(GenerationMethod.VOPRF);

    assertThatIllegalStateException().isThrownBy(() -> voprf.generate("test", 86));
  }

  @Test
  void theAlphabetMethodHasNoGeneratorOfItsOwnButItsNamespacesFormat() {
    assertThatThrownBy(
            () ->
                PseudonymGenerators.forMethod(GenerationMethod.X_SECURE_RANDOM_ALPHABET)
                    .generate("value", 8))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void unspecifiedGeneratesLikeBase64Url() {
    PseudonymGenerator unspecified = PseudonymGenerators.forMethod(GenerationMethod.UNSPECIFIED);

    assertThat(unspecified)
        .isSameAs(PseudonymGenerators.forMethod(GenerationMethod.SECURE_RANDOM_BASE64URL_ENCODED));
    String value = unspecified.generate("test", 32);
    assertThat(value).hasSize(54);
    assertThat(Base64.getUrlDecoder().decode(value)).hasSize(40);
  }
}
