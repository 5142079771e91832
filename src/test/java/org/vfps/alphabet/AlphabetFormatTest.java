package org.vfps.alphabet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.vfps.alphabet.AlphabetFormat.Verdict;

class AlphabetFormatTest {

  private static final AlphabetFormat GROUPED_DAMM =
      AlphabetFormat.of("0123456789", CheckDigitKind.DAMM, 4, "-", 8);

  @Test
  void groupsTheCharactersWithTheLastGroupShort() {
    Grouping grouping = new Grouping(4, "-");

    assertThat(grouping.format("ABCDEFGHI")).isEqualTo("ABCD-EFGH-I");
    assertThat(grouping.format("ABCDEFGH")).isEqualTo("ABCD-EFGH");
    assertThat(grouping.format("ABC")).isEqualTo("ABC");
    assertThat(new Grouping(3, " / ").format("1234567")).isEqualTo("123 / 456 / 7");
    assertThat(Grouping.NONE.format("ABCDEFGHI")).isEqualTo("ABCDEFGHI");
  }

  @Test
  void readsTheCharactersWithAllDelimitersOrNone() {
    Grouping grouping = new Grouping(4, "-");

    assertThat(grouping.parse("ABCD-EFGH-I", 9)).contains("ABCDEFGHI");
    assertThat(grouping.parse("ABCDEFGHI", 9)).contains("ABCDEFGHI");
    assertThat(new Grouping(3, " / ").parse("123 / 456 / 7", 7)).contains("1234567");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "ABCD-EFGHI",
        "ABC-DEFGH-I",
        "ABCD--EFGH-I",
        "ABCD-EFGH-I-",
        "ABCDEFGH",
        "-ABCDEFGHI",
        "ABCD_EFGH_I"
      })
  void refusesMissingMisplacedOrForeignDelimitersAndWrongLengths(String written) {
    assertThat(new Grouping(4, "-").parse(written, 9)).isEmpty();
  }

  @Test
  void refusesGroupSettingsThatCannotBeRead() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new Grouping(-1, "-"))
        .withMessage("The group size is -1; it must be 0 or more.");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new Grouping(0, "-"))
        .withMessage(
            "A group delimiter needs a group size: set group_size, or leave group_delimiter empty.");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new Grouping(4, ""))
        .withMessage("The group delimiter has 0 characters; groups need 1 to 8.");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new Grouping(4, "\u2013"))
        .withMessage(
            "The group delimiter may hold only printable ASCII characters (space to '~').");
  }

  @Test
  void writesTheDrawnCharactersTheCheckDigitAndTheGroups() {
    assertThat(GROUPED_DAMM.write("57200000")).isEqualTo("5720-0000-" + damm("57200000"));
    assertThat(GROUPED_DAMM.characters()).isEqualTo(9);
    assertThat(AlphabetFormat.of("0123456789", CheckDigitKind.UNSPECIFIED, 0, "", 5).write("57200"))
        .isEqualTo("57200");
    assertThatIllegalArgumentException().isThrownBy(() -> GROUPED_DAMM.write("5720000"));
    assertThatIllegalArgumentException().isThrownBy(() -> GROUPED_DAMM.write("5720000A"));
  }

  @Test
  void generatesPseudonymsItsOwnReadingAccepts() {
    for (int i = 0; i < 100; i++) {
      String pseudonym = GROUPED_DAMM.generate();

      assertThat(pseudonym).matches("[0-9]{4}-[0-9]{4}-[0-9]");
      assertThat(GROUPED_DAMM.verdict(pseudonym)).isEqualTo(Verdict.FITS);
      assertThat(GROUPED_DAMM.canonical(pseudonym.replace("-", ""))).contains(pseudonym);
    }
  }

  @Test
  void tellsAMistypedCheckDigitFromAMalformedPseudonym() {
    String valid = GROUPED_DAMM.write("57200000");
    char wrong = valid.charAt(10) == '0' ? '1' : '0';
    String mistyped = valid.substring(0, 10) + wrong;

    assertThat(GROUPED_DAMM.verdict(mistyped)).isEqualTo(Verdict.CHECK_DIGIT_MISMATCH);
    assertThat(GROUPED_DAMM.verdict(mistyped.replace("-", "")))
        .isEqualTo(Verdict.CHECK_DIGIT_MISMATCH);
    assertThat(GROUPED_DAMM.canonical(mistyped)).isEmpty();
    assertThat(GROUPED_DAMM.verdict("5720-0000")).isEqualTo(Verdict.MALFORMED);
    assertThat(GROUPED_DAMM.verdict("5720-000O-" + valid.charAt(10))).isEqualTo(Verdict.MALFORMED);
  }

  @Test
  void refusesADelimiterOfAlphabetCharactersAndALengthBelowOne() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> AlphabetFormat.of("0123456789X", CheckDigitKind.LUHN_MOD_N, 3, "X", 8))
        .withMessage(
            "The group delimiter has 'X', which is in the alphabet; it must use other characters.");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> AlphabetFormat.of("0123456789", CheckDigitKind.LUHN_MOD_N, 0, "", 0))
        .withMessage("The pseudonym length is 0; it must be at least 1.");
  }

  @Test
  void countsTheDistinctPseudonymsOfTheDrawnCharacters() {
    assertThat(GROUPED_DAMM.distinctPseudonyms()).isEqualTo(1e8);
    assertThat(
            AlphabetFormat.of(
                    AlphabetPreset.SYMBOL_32.symbols(), CheckDigitKind.LUHN_MOD_N, 0, "", 6)
                .distinctPseudonyms())
        .isEqualTo(Math.pow(2, 30));
  }

  private static char damm(String drawn) {
    return CheckDigitKind.DAMM.over(AlphabetPreset.NUMBERS.alphabet()).orElseThrow().compute(drawn);
  }
}
