package org.vfps.namespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

class OriginalValueRegexTest {

  private static final Map<String, String> METADATA = Map.of("namespace", "test");

  private static OriginalValueRegex parse(String pattern) {
    return OriginalValueRegex.parse(pattern, METADATA);
  }

  private static boolean matches(String pattern, String value) {
    return parse(pattern).matches(value, METADATA);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "^[0-9]{10}$",
        "^[A-Z]{2}\\d{6}$",
        "^(?:pat|case)-[a-f0-9]{8}$",
        "(?i)^abc",
        "^\\p{Lu}\\p{Ll}+$",
        "[[:alpha:]]+",
        "^(?P<site>[A-Z]{3})-(?<num>\\d+)$",
        "a|b|c",
        "x*?y+?z??",
        "^\\d{1,1000}$",
        "\\Qa.b{3}\\E",
        "\\bword\\b",
        "(a+)+$",
        "(a|aa)*b"
      })
  void acceptsRe2Patterns(String pattern) {
    assertThat(parse(pattern).validates()).isTrue();
    assertThat(parse(pattern).text()).isEqualTo(pattern);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "(a)\\1|backreferences such as `\\1` are not supported",
        "(?<n>a)\\k<n>|backreferences such as `\\k` are not supported",
        "foo(?=bar)|lookahead and lookbehind such as `(?=` are not supported",
        "foo(?!bar)|lookahead and lookbehind such as `(?!` are not supported",
        "(?<=foo)bar|lookahead and lookbehind such as `(?<=` are not supported",
        "(?<!foo)bar|lookahead and lookbehind such as `(?<!` are not supported",
        "(?>a+)b|atomic groups `(?>` are not supported",
        "a++|invalid nested repetition operator: `++`",
        "(|missing closing ): `(`",
        "[a-|missing closing ]: `[a-`",
        "a{1001}|invalid repeat count: `{1001}`",
        "\\Z|invalid escape sequence: `\\Z`",
        "((a{100}){100}){100}|its counted repetitions expand to more than 2000 elements",
        "(\\w{50}){50}|its counted repetitions expand to more than 2000 elements"
      })
  void refusesWhatRe2LacksOrCannotParseNamingWhy(String pattern, String why) {
    assertThatThrownBy(() -> parse(pattern))
        .isInstanceOfSatisfying(
            ServiceException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
              assertThat(e.getMessage())
                  .startsWith(
                      "The original value validation regex '"
                          + pattern
                          + "' is not a valid regular expression: ")
                  .contains(why)
                  .endsWith(".")
                  .doesNotContain("(Parameter");
              assertThat(e.metadata()).isEqualTo(METADATA);
            });
  }

  @Test
  void noneAndEmptyValidateNothingButStayApart() {
    assertThat(parse(null)).isSameAs(OriginalValueRegex.NONE);
    assertThat(parse(null).text()).isNull();
    assertThat(parse("").text()).isEmpty();
    assertThat(parse("").validates()).isFalse();
    assertThat(parse("")).isNotEqualTo(OriginalValueRegex.NONE);
    assertThat(parse("").matches("anything", METADATA)).isTrue();
    assertThat(OriginalValueRegex.NONE.matches("anything", METADATA)).isTrue();
  }

  @Test
  void matchesAnywhereInTheValueUnlessAnchored() {
    assertThat(matches("[0-9]{3}", "id-123-x")).isTrue();
    assertThat(matches("^[0-9]{3}$", "id-123-x")).isFalse();
    assertThat(matches("^[0-9]{3}$", "123")).isTrue();
    assertThat(matches("abc", "xxABCxx")).as("case-sensitive").isFalse();
  }

  @Test
  void shorthandClassesAreAsciiAndUnicodePropertiesAreNot() {
    assertThat(matches("^\\d+$", "٣٤٥")).isFalse();
    assertThat(matches("^\\p{Nd}+$", "٣٤٥")).isTrue();
    assertThat(matches("^\\w+$", "Ärztin")).isFalse();
    assertThat(matches("^\\p{L}+$", "Ärztin")).isTrue();
  }

  @Test
  void dollarMatchesOnlyAtTheEndOfTheValue() {
    assertThat(matches("^a$", "a\n")).isFalse();
    assertThat(matches("(?m)^a$", "a\n")).isTrue();
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.SECONDS)
  void patternsThatBacktrackCatastrophicallyElsewhereMatchInLinearTime() {
    String value = "a".repeat(50_000) + "!";

    assertThat(matches("(a+)+$", value)).isFalse();
    assertThat(matches("(a|aa)*b", value)).isFalse();
    assertThat(matches("^(a|a?)+$", value)).isFalse();
    assertThat(matches("(x+x+)+y", "x".repeat(50_000))).isFalse();
  }

  @Test
  void aStoredPatternThisServiceCannotCompileIsKeptAndRefusesValues() {
    OriginalValueRegex stored = OriginalValueRegex.stored("(a)\\1");

    assertThat(stored.text()).isEqualTo("(a)\\1");
    assertThat(stored.validates()).isTrue();
    assertThatThrownBy(() -> stored.matches("aa", METADATA))
        .isInstanceOfSatisfying(
            ServiceException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.FAILED_PRECONDITION);
              assertThat(e.getMessage()).contains("backreferences").doesNotContain("aa");
            });
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "abc|3",
        "a{10}|10",
        "(ab){10}|20",
        "(a{10}){10}|100",
        "a{2,5}|5",
        "a{3,}|4",
        "[a-z]{8}|8",
        "\\p{L}{4}|4",
        "x?b{10}|11",
        "a{,3}|5",
        "(?:x){2}|2",
        "(?i)a{3}|4"
      })
  void countsElementsAsTheyExpand(String pattern, long elements) {
    assertThat(RegexScan.of(pattern).elements()).isEqualTo(elements);
  }
}
