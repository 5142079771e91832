package org.vfps.pseudonym;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.vfps.namespace.GenerationMethod;

class RandomBase32GeneratorTest {

  private static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

  private final PseudonymGenerator generator = new RandomBase32Generator();

  @ParameterizedTest
  @ValueSource(ints = {1, 5, 7, 8, 16, 33, 1024})
  void generatesExactlyLengthCharactersOfTheRfc4648AlphabetWithoutPadding(int length) {
    assertThat(generator.generate("test", length)).hasSize(length).matches("^[A-Z2-7]*$");
  }

  @Test
  void isTheGeneratorOfMethodSeven() {
    assertThat(GenerationMethod.fromNumber(7))
        .contains(GenerationMethod.FULL_RANDOM_BASE32_ENCODED);
    assertThat(PseudonymGenerators.forMethod(GenerationMethod.FULL_RANDOM_BASE32_ENCODED))
        .isInstanceOf(RandomBase32Generator.class);
    assertThat(PseudonymGenerators.distinctCores(GenerationMethod.FULL_RANDOM_BASE32_ENCODED, 4))
        .isEqualTo(1 << 20);
  }

  @Test
  void twoCallsGiveDifferentValues() {
    assertThat(generator.generate("test", 64)).isNotEqualTo(generator.generate("test", 64));
  }

  @Test
  void everySymbolAppearsAboutEquallyOftenAtEveryPosition() {
    int rounds = 4000;
    int length = 8;
    int[][] counts = new int[length][ALPHABET.length()];
    for (int i = 0; i < rounds * ALPHABET.length() / length; i++) {
      String value = generator.generate("test", length);
      for (int position = 0; position < length; position++) {
        counts[position][ALPHABET.indexOf(value.charAt(position))]++;
      }
    }

    // each count has mean 500 and standard deviation about 22, so +-25% is over 5 sigma and never
    // flakes, yet a character that one in 32 draws missed or doubled, or a position fixed by a
    // 5-bit grouping of bytes, would fail
    int mean = rounds / length;
    for (int position = 0; position < length; position++) {
      for (int symbol = 0; symbol < ALPHABET.length(); symbol++) {
        assertThat(counts[position][symbol])
            .as("count of '%s' at %d", ALPHABET.charAt(symbol), position)
            .isBetween(mean * 75 / 100, mean * 125 / 100);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {0, -1})
  void rejectsLengthBelowOne(int length) {
    assertThatIllegalArgumentException().isThrownBy(() -> generator.generate("test", length));
  }
}
