package org.vfps.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class TimeSpansTest {

  @ParameterizedTest
  @CsvSource({
    "0.01:00:00, PT1H",
    "01:00:00, PT1H",
    "00:00:30, PT30S",
    "1.02:03:04.5, PT26H3M4.5S",
    "00:00:00.1234567, PT0.1234567S",
    "00:05, PT5M",
    "1:2, PT1H2M",
    "7.00:00:00, PT168H",
    "1, PT24H",
    "30, PT720H",
    "-00:00:01, PT-1S",
    "-1, PT-24H",
    "23:59:59.9999999, PT23H59M59.9999999S"
  })
  void parsesDotNetTimeSpanText(String text, String expected) {
    assertThat(TimeSpans.parse(text)).isEqualTo(Duration.parse(expected));
  }

  @Test
  void ignoresSurroundingWhitespace() {
    assertThat(TimeSpans.parse("  0.01:00:00\t")).isEqualTo(Duration.ofHours(1));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "25:00:00",
        "24:00:00",
        "00:60:00",
        "00:00:60",
        "abc",
        "1.2.3",
        "1 hour",
        "",
        " ",
        "1:2:3:4",
        "00:00:00.12345678",
        "0.01:00:00.",
        ".01:00:00",
        "1.",
        "+01:00:00",
        "01:00:00Z",
        "PT1H",
        "\uff11"
      })
  void rejectsTextThatIsNotATimeSpan(String text) {
    assertThatIllegalArgumentException().isThrownBy(() -> TimeSpans.parse(text));
  }

  @Test
  void namesTheOutOfRangeComponent() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> TimeSpans.parse("25:00:00"))
        .withMessageContaining("hours out of range (0-23)");
  }

  @Test
  void rejectsMoreDaysThanADotNetTimeSpanHolds() {
    assertThatIllegalArgumentException().isThrownBy(() -> TimeSpans.parse("10675200"));
  }

  @ParameterizedTest
  @CsvSource({
    "PT10S, 00:00:10",
    "PT1H, 01:00:00",
    "PT1.5S, 00:00:01.5",
    "PT0.1234567S, 00:00:00.1234567",
    "PT26H3M4S, 1.02:03:04",
    "PT0S, 00:00:00",
    "PT-1S, -00:00:01"
  })
  void writesDurationsAsTheSettingsDo(String duration, String expected) {
    assertThat(TimeSpans.format(Duration.parse(duration))).isEqualTo(expected);
    assertThat(TimeSpans.parse(expected)).isEqualTo(Duration.parse(duration));
  }
}
