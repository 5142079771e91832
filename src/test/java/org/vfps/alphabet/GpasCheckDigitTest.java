package org.vfps.alphabet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * gPAS's variants of Damm and Verhoeff against values gPAS itself made: the expected check digits
 * below and the files {@code gpas-damm.txt} and {@code gpas-verhoeff.txt} were computed by running
 * gPAS 2023.1.2's classes {@code Damm} and {@code Verhoeff} (module psn-ejb).
 */
class GpasCheckDigitTest {

  private static final Alphabet DIGITS = AlphabetPreset.NUMBERS.alphabet();

  /** A custom alphabet of ten characters, as gPAS allows for both. */
  private static final Alphabet LETTERS = Alphabet.of("ABCDEFGHJK");

  @ParameterizedTest
  @CsvSource({
    "X_GPAS_DAMM, 0, 0",
    "X_GPAS_DAMM, 1, 3",
    "X_GPAS_DAMM, 9, 2",
    "X_GPAS_DAMM, 572, 1",
    "X_GPAS_DAMM, 236, 3",
    "X_GPAS_DAMM, 12345, 6",
    "X_GPAS_DAMM, 00000000, 0",
    "X_GPAS_DAMM, 12345678, 7",
    "X_GPAS_DAMM, 87654321, 6",
    "X_GPAS_DAMM, 99999999, 9",
    "X_GPAS_DAMM, 2024081512, 2",
    "X_GPAS_VERHOEFF, 0, 0",
    "X_GPAS_VERHOEFF, 1, 1",
    "X_GPAS_VERHOEFF, 9, 9",
    "X_GPAS_VERHOEFF, 572, 6",
    "X_GPAS_VERHOEFF, 236, 0",
    "X_GPAS_VERHOEFF, 12345, 5",
    "X_GPAS_VERHOEFF, 00000000, 4",
    "X_GPAS_VERHOEFF, 12345678, 4",
    "X_GPAS_VERHOEFF, 87654321, 1",
    "X_GPAS_VERHOEFF, 99999999, 4",
    "X_GPAS_VERHOEFF, 2024081512, 1"
  })
  void givesGpassCheckDigitOverTheTenDigits(CheckDigitKind kind, String drawn, char expected) {
    CheckDigit check = kind.over(DIGITS).orElseThrow();

    assertThat(check.compute(drawn)).isEqualTo(expected);
    assertThat(check.isValid(drawn + expected)).isTrue();
  }

  @ParameterizedTest
  @CsvSource({
    "X_GPAS_DAMM, A, A",
    "X_GPAS_DAMM, K, C",
    "X_GPAS_DAMM, FHC, B",
    "X_GPAS_DAMM, CDG, D",
    "X_GPAS_DAMM, BCDEF, G",
    "X_GPAS_DAMM, BCDEFGHJ, H",
    "X_GPAS_VERHOEFF, A, A",
    "X_GPAS_VERHOEFF, K, K",
    "X_GPAS_VERHOEFF, FHC, G",
    "X_GPAS_VERHOEFF, CDG, A",
    "X_GPAS_VERHOEFF, BCDEF, F",
    "X_GPAS_VERHOEFF, AAAAAAAA, E"
  })
  void aCustomAlphabetOfTenCharactersGivesGpassCheckDigit(
      CheckDigitKind kind, String drawn, char expected) {
    assertThat(kind.over(LETTERS).orElseThrow().compute(drawn)).isEqualTo(expected);
  }

  @Test
  void theGpasVariantsAreNotTheStandardOnes() {
    assertThat(CheckDigitKind.DAMM.over(DIGITS).orElseThrow().compute("572")).isEqualTo('4');
    assertThat(CheckDigitKind.VERHOEFF.over(DIGITS).orElseThrow().compute("236")).isEqualTo('3');
  }

  @ParameterizedTest
  @CsvSource({"X_GPAS_DAMM, gpas-damm.txt, DAMM", "X_GPAS_VERHOEFF, gpas-verhoeff.txt, VERHOEFF"})
  void validatesAThousandPseudonymsGpasMadeWhichTheStandardOneMostlyRefuses(
      CheckDigitKind kind, String file, CheckDigitKind standard) throws IOException {
    CheckDigit check = kind.over(DIGITS).orElseThrow();
    CheckDigit standardCheck = standard.over(DIGITS).orElseThrow();
    List<String> made = gpasMade(file);

    assertThat(made).hasSize(1000);
    assertThat(made).allSatisfy(value -> assertThat(check.isValid(value)).as(value).isTrue());
    // about one in ten (one in five with the short ones here) passes the standard algorithm
    assertThat(made.stream().filter(standardCheck::isValid).count()).isLessThan(300);
  }

  @ParameterizedTest
  @EnumSource(
      value = CheckDigitKind.class,
      names = {"X_GPAS_DAMM", "X_GPAS_VERHOEFF"})
  void refusesEverySingleChangedCharacterAndEverySwapOfDrawnNeighbours(CheckDigitKind kind) {
    CheckDigit check = kind.over(DIGITS).orElseThrow();
    for (int number = 0; number < 100_000; number += 7) {
      String drawn = String.format("%05d", number);
      String valid = drawn + check.compute(drawn);
      for (int position = 0; position < valid.length(); position++) {
        for (char digit = '0'; digit <= '9'; digit++) {
          if (digit != valid.charAt(position)) {
            assertThat(check.isValid(replaced(valid, position, digit))).isFalse();
          }
        }
      }
      for (int position = 0; position + 1 < drawn.length(); position++) {
        if (valid.charAt(position) != valid.charAt(position + 1)) {
          assertThat(check.isValid(swapped(valid, position))).isFalse();
        }
      }
    }
  }

  /**
   * A thousand values of each variant validate in python-stdnum, put as gPAS computes them (see
   * {@code stdnum_check.py}), and with one digit changed are refused there.
   */
  @ParameterizedTest
  @EnumSource(
      value = CheckDigitKind.class,
      names = {"X_GPAS_DAMM", "X_GPAS_VERHOEFF"})
  void valuesOfTheVariantsValidateInStdnum(CheckDigitKind kind) throws Exception {
    Stdnum.assumeInstalled();
    CheckDigit check = kind.over(DIGITS).orElseThrow();
    Random random = new Random(1000 + kind.number());
    List<Stdnum.Query> valid = new ArrayList<>();
    List<Stdnum.Query> changed = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      String drawn = DIGITS.draw(1 + random.nextInt(16), random);
      String value = drawn + check.compute(drawn);
      int position = random.nextInt(value.length());
      char other = (char) ('0' + (value.charAt(position) - '0' + 1 + random.nextInt(9)) % 10);
      valid.add(new Stdnum.Query(kind, DIGITS.symbols(), value));
      changed.add(new Stdnum.Query(kind, DIGITS.symbols(), replaced(value, position, other)));
    }

    assertThat(Stdnum.validate(valid)).containsOnly(true);
    assertThat(Stdnum.validate(changed)).containsOnly(false);
  }

  /** What the docs say of the swap of the last drawn digit and the check digit, counted. */
  @Test
  void missesSomeSwapsOfTheLastDrawnDigitAndTheCheckDigit() {
    assertThat(missedLastSwaps(CheckDigitKind.X_GPAS_DAMM)).isEqualTo(9876);
    assertThat(missedLastSwaps(CheckDigitKind.X_GPAS_VERHOEFF)).isEqualTo(50_000);
    assertThat(missedLastSwaps(CheckDigitKind.DAMM)).isZero();
    assertThat(missedLastSwaps(CheckDigitKind.VERHOEFF)).isZero();
  }

  @ParameterizedTest
  @ValueSource(strings = {"123456789", "0123456789X", "0123456789ABCDEF"})
  void refuseAlphabetsOfOtherThanTenCharacters(String alphabet) {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> CheckDigitKind.X_GPAS_DAMM.over(Alphabet.of(alphabet)))
        .withMessage(
            "CHECK_DIGIT_X_GPAS_DAMM works on alphabets of ten characters only; this one has "
                + alphabet.length()
                + ".");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> CheckDigitKind.X_GPAS_VERHOEFF.over(Alphabet.of(alphabet)))
        .withMessageStartingWith("CHECK_DIGIT_X_GPAS_VERHOEFF works on alphabets of ten");
  }

  /** Of the 90,000 swaps of two different digits among all five-digit numbers, those unseen. */
  private static long missedLastSwaps(CheckDigitKind kind) {
    CheckDigit check = kind.over(DIGITS).orElseThrow();
    long missed = 0;
    for (int number = 0; number < 100_000; number++) {
      String drawn = String.format("%05d", number);
      String valid = drawn + check.compute(drawn);
      if (valid.charAt(4) != valid.charAt(5) && check.isValid(swapped(valid, 4))) {
        missed++;
      }
    }
    return missed;
  }

  private static String replaced(String text, int position, char c) {
    char[] chars = text.toCharArray();
    chars[position] = c;
    return new String(chars);
  }

  private static String swapped(String text, int position) {
    char[] chars = text.toCharArray();
    chars[position] = text.charAt(position + 1);
    chars[position + 1] = text.charAt(position);
    return new String(chars);
  }

  private static List<String> gpasMade(String file) throws IOException {
    try (InputStream in = GpasCheckDigitTest.class.getResourceAsStream(file);
        BufferedReader reader =
            new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      return reader.lines().filter(line -> !line.startsWith("#")).toList();
    }
  }
}
