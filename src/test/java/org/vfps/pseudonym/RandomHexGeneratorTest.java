package org.vfps.pseudonym;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RandomHexGeneratorTest {

  private final PseudonymGenerator generator = new RandomHexGenerator();

  @ParameterizedTest
  @ValueSource(ints = {1, 16, 17, 32, 64})
  void generatesExactlyLengthLowerCaseHexDigits(int length) {
    assertThat(generator.generate("test", length)).hasSize(length).matches("^[0-9a-f]*$");
  }

  @Test
  void twoCallsGiveDifferentValues() {
    assertThat(generator.generate("test", 64)).isNotEqualTo(generator.generate("test", 64));
  }

  @ParameterizedTest
  @ValueSource(ints = {0, -1})
  void rejectsLengthBelowOne(int length) {
    assertThatIllegalArgumentException().isThrownBy(() -> generator.generate("test", length));
  }
}
