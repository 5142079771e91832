package org.vfps.pseudonym;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RandomBase62GeneratorTest {

  private static final String ALPHABET =
      "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

  private final PseudonymGenerator generator = new RandomBase62Generator();

  @ParameterizedTest
  @ValueSource(ints = {1, 16, 17, 32, 64})
  void generatesExactlyLengthAlphanumericCharacters(int length) {
    assertThat(generator.generate("test", length)).hasSize(length).matches("^[0-9A-Za-z]*$");
  }

  @Test
  void twoCallsGiveDifferentValues() {
    assertThat(generator.generate("test", 64)).isNotEqualTo(generator.generate("test", 64));
  }

  @Test
  void everySymbolAppearsAboutEquallyOften() {
    int rounds = 2000;
    int[] counts = new int[ALPHABET.length()];
    for (int i = 0; i < rounds; i++) {
      for (char c : generator.generate("test", ALPHABET.length()).toCharArray()) {
        counts[ALPHABET.indexOf(c)]++;
      }
    }

    // each count has mean 2000 and standard deviation about 44, so +-15% is over 6 sigma and never
    // flakes, yet a plain "byte % 62" would push the first 8 symbols to about 2420 and fail
    for (int symbol = 0; symbol < counts.length; symbol++) {
      assertThat(counts[symbol])
          .as("count of '%s'", ALPHABET.charAt(symbol))
          .isBetween(rounds * 85 / 100, rounds * 115 / 100);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {0, -1})
  void rejectsLengthBelowOne(int length) {
    assertThatIllegalArgumentException().isThrownBy(() -> generator.generate("test", length));
  }
}
