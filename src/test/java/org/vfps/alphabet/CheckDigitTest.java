package org.vfps.alphabet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each check digit against published examples (and, where marked, values python-stdnum gives);
 * {@link StdnumCrossCheckTest} holds them to that independent implementation at scale.
 */
class CheckDigitTest {

  private static final Alphabet DIGITS = AlphabetPreset.NUMBERS.alphabet();

  private static CheckDigit of(CheckDigitKind kind, String alphabet) {
    return kind.over(Alphabet.of(alphabet)).orElseThrow();
  }

  @ParameterizedTest
  @CsvSource({
    // the Luhn example of payment cards
    "0123456789, 7992739871, 3",
    // the Luhn mod N example over the alphabet abcdef
    "abcdef, abcdef, e",
    // computed with python-stdnum's luhn.calc_check_digit
    "ACDEFGHJKLMNPQRTUWXYZ0123456789, ACDE0123, J",
    "0123456789ABCDEF, 1F2E, 1"
  })
  void luhnModNGivesThePublishedCheckDigit(String alphabet, String drawn, char expected) {
    CheckDigit luhn = of(CheckDigitKind.LUHN_MOD_N, alphabet);

    assertThat(luhn.compute(drawn)).isEqualTo(expected);
    assertThat(luhn.isValid(drawn + expected)).isTrue();
  }

  @ParameterizedTest
  @CsvSource({"572, 4", "112946, 0"})
  void dammGivesThePublishedCheckDigit(String drawn, char expected) {
    CheckDigit damm = of(CheckDigitKind.DAMM, "0123456789");

    assertThat(damm.compute(drawn)).isEqualTo(expected);
    assertThat(damm.isValid(drawn + expected)).isTrue();
  }

  @ParameterizedTest
  @CsvSource({"236, 3", "12345, 1", "142857, 0"})
  void verhoeffGivesThePublishedCheckDigit(String drawn, char expected) {
    CheckDigit verhoeff = of(CheckDigitKind.VERHOEFF, "0123456789");

    assertThat(verhoeff.compute(drawn)).isEqualTo(expected);
    assertThat(verhoeff.isValid(drawn + expected)).isTrue();
  }

  /** Every digit in every position of a few numbers: each change is caught. */
  @ParameterizedTest
  @EnumSource(
      value = CheckDigitKind.class,
      names = {"LUHN_MOD_N", "DAMM", "VERHOEFF"})
  void refusesEverySingleChangedDigit(CheckDigitKind kind) {
    CheckDigit check = kind.over(DIGITS).orElseThrow();
    for (String drawn : new String[] {"0", "572", "7992739871", "00000000", "98765432"}) {
      String valid = drawn + check.compute(drawn);
      for (int position = 0; position < valid.length(); position++) {
        for (char digit = '0'; digit <= '9'; digit++) {
          if (digit != valid.charAt(position)) {
            char[] changed = valid.toCharArray();
            changed[position] = digit;
            assertThat(check.isValid(new String(changed))).as(new String(changed)).isFalse();
          }
        }
      }
    }
  }

  /** Damm and Verhoeff catch every swap of two different neighbours, the check digit included. */
  @ParameterizedTest
  @EnumSource(
      value = CheckDigitKind.class,
      names = {"DAMM", "VERHOEFF"})
  void refusesEverySwapOfDifferentNeighbours(CheckDigitKind kind) {
    CheckDigit check = kind.over(DIGITS).orElseThrow();
    for (int a = 0; a <= 9; a++) {
      for (int b = 0; b <= 9; b++) {
        String drawn = "31" + a + b + "7";
        String valid = drawn + check.compute(drawn);
        for (int position = 0; position + 1 < valid.length(); position++) {
          char[] swapped = valid.toCharArray();
          if (swapped[position] != swapped[position + 1]) {
            char first = swapped[position];
            swapped[position] = swapped[position + 1];
            swapped[position + 1] = first;
            assertThat(check.isValid(new String(swapped))).as(new String(swapped)).isFalse();
          }
        }
      }
    }
  }

  /** Luhn's known blind spot: the first and last character of the alphabet swapped. */
  @Test
  void luhnModNMissesTheSwapOfTheFirstAndLastCharacterOnly() {
    CheckDigit luhn = CheckDigitKind.LUHN_MOD_N.over(DIGITS).orElseThrow();

    assertThat(luhn.isValid("09" + luhn.compute("09"))).isTrue();
    assertThat(luhn.compute("09")).isEqualTo(luhn.compute("90"));
    assertThat(luhn.compute("18")).isNotEqualTo(luhn.compute("81"));
  }

  /**
   * Over an odd alphabet, Luhn mod N cannot tell two values that double to the same digit sum: in
   * gPAS's NumbersWithoutZero, '2' and '6' (values 1 and 5, doubled 2 and 1 + 1) in the last drawn
   * position.
   */
  @Test
  void luhnModNOverAnOddAlphabetMissesChangesBetweenValuesThatDoubleAlike() {
    CheckDigit luhn =
        CheckDigitKind.LUHN_MOD_N
            .over(AlphabetPreset.NUMBERS_WITHOUT_ZERO.alphabet())
            .orElseThrow();

    assertThat(luhn.compute("2")).isEqualTo(luhn.compute("6"));
    assertThat(luhn.compute("12")).isEqualTo(luhn.compute("16"));
    // the same change where the value is not doubled is caught
    assertThat(luhn.compute("21")).isNotEqualTo(luhn.compute("61"));
    assertThat(luhn.compute("3")).isNotEqualTo(luhn.compute("6"));
  }

  @Test
  void isNotValidForFewerThanTwoCharactersOrCharactersOutsideTheAlphabet() {
    CheckDigit luhn = of(CheckDigitKind.LUHN_MOD_N, "0123456789");

    assertThat(luhn.isValid("")).isFalse();
    assertThat(luhn.isValid("0")).isFalse();
    assertThat(luhn.isValid("79927398713")).isTrue();
    assertThat(luhn.isValid("7992739871O")).isFalse();
    assertThat(luhn.isValid("7992-739871-3")).isFalse();
  }

  @ParameterizedTest
  @EnumSource(
      value = CheckDigitKind.class,
      names = {"LUHN_MOD_N", "DAMM", "VERHOEFF"})
  void computeRefusesNothingToCheckAndCharactersOutsideTheAlphabet(CheckDigitKind kind) {
    CheckDigit check = kind.over(DIGITS).orElseThrow();

    assertThatIllegalArgumentException().isThrownBy(() -> check.compute(""));
    assertThatIllegalArgumentException()
        .isThrownBy(() -> check.compute("12a4"))
        .withMessage("character 3 of the drawn characters (U+0061) is not in the alphabet");
  }

  @ParameterizedTest
  @ValueSource(strings = {"123456789", "0123456789X", "9876543210", "0123456789ABCDEF"})
  void dammAndVerhoeffRefuseEveryAlphabetButTheTenDigits(String alphabet) {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> CheckDigitKind.DAMM.over(Alphabet.of(alphabet)))
        .withMessage(
            "CHECK_DIGIT_DAMM works on the ten digits only: the alphabet must be 0123456789, not "
                + alphabet
                + ".");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> CheckDigitKind.VERHOEFF.over(Alphabet.of(alphabet)))
        .withMessageStartingWith("CHECK_DIGIT_VERHOEFF works on the ten digits only");
    assertThat(CheckDigitKind.LUHN_MOD_N.over(Alphabet.of(alphabet))).isPresent();
  }

  @Test
  void unspecifiedMeansNoCheckDigit() {
    assertThat(CheckDigitKind.UNSPECIFIED.over(DIGITS)).isEmpty();
  }

  @Test
  void kindsAreTheApisCheckDigitValuesOneToOne() {
    assertThat(Arrays.stream(CheckDigitKind.values()).map(CheckDigitKind::protoName))
        .containsExactly(
            "CHECK_DIGIT_UNSPECIFIED",
            "CHECK_DIGIT_LUHN_MOD_N",
            "CHECK_DIGIT_DAMM",
            "CHECK_DIGIT_VERHOEFF",
            "CHECK_DIGIT_X_GPAS_DAMM",
            "CHECK_DIGIT_X_GPAS_VERHOEFF");
    for (CheckDigitKind kind : CheckDigitKind.values()) {
      assertThat(CheckDigitKind.fromNumber(kind.number())).contains(kind);
      assertThat(CheckDigitKind.parse(kind.protoName())).contains(kind);
      assertThat(CheckDigitKind.parse(kind.name().toLowerCase())).contains(kind);
      if (kind != CheckDigitKind.UNSPECIFIED) {
        assertThat(kind.over(DIGITS).orElseThrow().kind()).isEqualTo(kind);
      }
    }
    assertThat(CheckDigitKind.fromNumber(4)).isEmpty();
    assertThat(CheckDigitKind.fromNumber(1000)).contains(CheckDigitKind.X_GPAS_DAMM);
    assertThat(CheckDigitKind.fromNumber(1002)).isEmpty();
    assertThat(CheckDigitKind.fromNumber(-1)).isEmpty();
    assertThat(CheckDigitKind.parse("MOD_97")).isEmpty();
  }
}
