package org.vfps.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.vfps.csv.CsvRecord;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

class SeparatorLineTest {

  private static CsvRecord line(String raw) {
    return new CsvRecord(List.of(raw), raw, "\r\n", false, 0, raw.length() + 2);
  }

  @Test
  void aFirstLineNamingTheJobsDelimiterIsASeparatorLine() {
    assertThat(SeparatorLine.isFirst(line("sep=;"), ';')).isTrue();
    assertThat(SeparatorLine.isFirst(line("sep=\t"), '\t')).isTrue();
    assertThat(SeparatorLine.isFirst(line("sep=,"), ',')).isTrue();
  }

  @Test
  void anyOtherFirstLineIsNot() {
    for (String raw :
        new String[] {"Original value;Pseudonym", "sep=", "sep=;;", "SEP=;", "sep=a"}) {
      assertThat(SeparatorLine.isFirst(line(raw), ';')).as(raw).isFalse();
    }
  }

  @Test
  void oneNamingAnotherDelimiterIsRefusedSayingBoth() {
    assertThatThrownBy(() -> SeparatorLine.isFirst(line("sep=\t"), ';'))
        .isInstanceOfSatisfying(
            ServiceException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
        .hasMessage(
            "The file's first line 'sep=\\t' names another delimiter than the job's ';': create"
                + " the job with the file's delimiter.");
  }
}
