package org.vfps.alphabet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class AlphabetTest {

  private static final String PRINTABLE =
      "!\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~";

  @ParameterizedTest
  @EnumSource(AlphabetPreset.class)
  void takesEachOfGpasReadySets(AlphabetPreset preset) {
    Alphabet alphabet = preset.alphabet();

    assertThat(alphabet.symbols()).isEqualTo(preset.symbols());
    assertThat(alphabet.size())
        .isEqualTo(
            switch (preset) {
              case NUMBERS -> 10;
              case NUMBERS_WITHOUT_ZERO -> 9;
              case NUMBERS_X -> 11;
              case HEX -> 16;
              case SYMBOL_31 -> 31;
              case SYMBOL_32 -> 32;
            });
  }

  @Test
  void givesEachCharacterItsPositionAsValue() {
    Alphabet alphabet = Alphabet.of("XYZ");

    assertThat(alphabet.indexOf('X')).isZero();
    assertThat(alphabet.indexOf('Z')).isEqualTo(2);
    assertThat(alphabet.symbol(1)).isEqualTo('Y');
    assertThat(alphabet.indexOf('A')).isEqualTo(-1);
    assertThat(alphabet.indexOf('\u00e9')).isEqualTo(-1);
    assertThat(alphabet.spells("ZZXY")).isTrue();
    assertThat(alphabet.spells("ZZAY")).isFalse();
  }

  @Test
  void takesTwoToSixtyFourCharacters() {
    assertThat(Alphabet.of("01").size()).isEqualTo(2);
    assertThat(Alphabet.of(PRINTABLE.substring(0, 64)).size()).isEqualTo(64);
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Alphabet.of("0"))
        .withMessage("The alphabet needs 2 to 64 characters; it has 1.");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Alphabet.of(PRINTABLE.substring(0, 65)))
        .withMessage("The alphabet needs 2 to 64 characters; it has 65.");
  }

  @ParameterizedTest
  @ValueSource(strings = {"AB C", "AB\tC", "AB\u00c4", "AB\u007f"})
  void refusesCharactersOutsidePrintableAsciiNamingTheFirst(String symbols) {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Alphabet.of(symbols))
        .withMessage(
            "The alphabet's character 3 is U+%04X; it may hold only printable ASCII characters"
                + " from '!' to '~' (no space).",
            (int) symbols.charAt(2));
  }

  @Test
  void refusesARepeatedCharacterNamingBothPositions() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Alphabet.of("ABCB"))
        .withMessage(
            "The alphabet has 'B' twice (characters 2 and 4); its characters must be distinct.");
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 7, 100})
  void drawsTheCountOfCharactersOfTheAlphabet(int count) {
    Alphabet alphabet = AlphabetPreset.SYMBOL_31.alphabet();

    String drawn = alphabet.draw(count);

    assertThat(drawn).hasSize(count);
    assertThat(alphabet.spells(drawn)).isTrue();
  }

  @Test
  void drawsDifferentCharactersEachTime() {
    Alphabet alphabet = AlphabetPreset.HEX.alphabet();

    assertThat(alphabet.draw(32)).isNotEqualTo(alphabet.draw(32));
  }

  @Test
  void refusesANegativeCount() {
    assertThatIllegalArgumentException().isThrownBy(() -> Alphabet.of("01").draw(-1));
  }

  /**
   * A million draws from a seeded random (so the figures never change from run to run): the
   * chi-square statistic of the counts stays below a bound that the plain remainder of the same
   * bytes, which favours the first {@code 256 % size} characters, exceeds many times over.
   */
  @ParameterizedTest
  @ValueSource(ints = {10, 31, 52, 61})
  void drawsEveryCharacterEquallyOftenWhereTheRemainderOfAByteWouldNot(int size) {
    Alphabet alphabet = Alphabet.of(PRINTABLE.substring(0, size));
    int draws = 1_000_000;

    long[] counts = new long[size];
    for (char c : alphabet.draw(draws, new Random(43)).toCharArray()) {
      counts[alphabet.indexOf(c)]++;
    }
    long[] remainderCounts = new long[size];
    byte[] bytes = new byte[draws];
    new Random(43).nextBytes(bytes);
    for (byte b : bytes) {
      remainderCounts[(b & 0xFF) % size]++;
    }

    // the expected statistic is size - 1 with a standard deviation of sqrt(2 (size - 1)); a
    // uniform draw exceeds six deviations above it about once in ten million, while the remainder
    // of a byte lands hundreds above (for 10 characters: about 370; for 52: about 2,900)
    double bound = (size - 1) + 6 * Math.sqrt(2.0 * (size - 1));
    assertThat(chiSquare(counts, draws)).as("chi-square of the draws").isLessThan(bound);
    assertThat(chiSquare(remainderCounts, draws))
        .as("chi-square of the remainders")
        .isGreaterThan(3 * bound);
  }

  private static double chiSquare(long[] counts, int draws) {
    double expected = (double) draws / counts.length;
    double sum = 0;
    for (long count : counts) {
      sum += (count - expected) * (count - expected) / expected;
    }
    return sum;
  }

  @Test
  void equalsAnotherOfTheSameCharactersInTheSameOrder() {
    assertThat(Alphabet.of("abc")).isEqualTo(Alphabet.of("abc")).isNotEqualTo(Alphabet.of("acb"));
    assertThat(Alphabet.of("abc")).hasSameHashCodeAs(Alphabet.of("abc"));
  }
}
