package org.vfps.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.vfps.csv.CsvRecord;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

class RefusedValuesTest {

  private static final CsvJob JOB =
      TestJobs.job(
          JobDirection.PSEUDONYMIZE,
          PseudonymizeMode.CREATE_IF_MISSING,
          true,
          false,
          new ColumnMapping("a", null, "ns-a", null),
          new ColumnMapping("b", null, "ns-b", null));

  private static final List<CsvRecord> FILE = TestJobs.records("a,b\nx,y\nz,w\nq,y2\n");
  private static final CsvLayout LAYOUT = CsvLayout.resolve(JOB, FILE.getFirst().fields());
  private static final List<CsvRecord> ROWS = FILE.subList(1, FILE.size());

  private static ServiceException refusal(int index, int of) {
    return new ServiceException(
        ErrorCode.INVALID_ARGUMENT,
        "value " + (index + 1) + " of " + of + " does not match the namespace's pattern",
        Map.of("index", String.valueOf(index)));
  }

  @Test
  void namesTheRowAndColumnOfTheRefusedValueInsteadOfItsPositionInTheCall() {
    ServiceException located =
        RefusedValues.located(
            refusal(1, 2), List.of("y", "y2"), ROWS, LAYOUT, RowNumbers.before(JOB, 0), "ns-b");

    assertThat(located.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
    assertThat(located.getMessage())
        .isEqualTo("Row 4, column 'b': value does not match the namespace's pattern");
  }

  @Test
  void countsTheRowsOfEarlierChunks() {
    ServiceException located =
        RefusedValues.located(
            refusal(0, 1), List.of("z"), ROWS, LAYOUT, RowNumbers.before(JOB, 500), "ns-a");

    assertThat(located.getMessage()).startsWith("Row 503, column 'a': ");
  }

  @Test
  void aValueOfAnotherNamespaceIsNotMistakenForTheRefusedOne() {
    ServiceException refusal = refusal(0, 1);

    assertThat(RefusedValues.located(refusal, List.of("y"), ROWS, LAYOUT, 1, "ns-a"))
        .isSameAs(refusal);
  }

  @Test
  void aRefusalNamingNoValueIsLeftAsItIs() {
    ServiceException denied = new ServiceException(ErrorCode.PERMISSION_DENIED, "not yours");
    ServiceException outOfCall = refusal(5, 6);

    assertThat(RefusedValues.located(denied, List.of("x"), ROWS, LAYOUT, 1, "ns-a"))
        .isSameAs(denied);
    assertThat(RefusedValues.located(outOfCall, List.of("x"), ROWS, LAYOUT, 1, "ns-a"))
        .isSameAs(outOfCall);
  }

  @Test
  void theHeaderRowIsRowOne() {
    CsvJob headerless =
        TestJobs.job(
            JobDirection.PSEUDONYMIZE,
            PseudonymizeMode.CREATE_IF_MISSING,
            false,
            false,
            new ColumnMapping("0", null, "ns", null));

    assertThat(RowNumbers.before(JOB, 0)).isEqualTo(1);
    assertThat(RowNumbers.before(headerless, 0)).isZero();
    assertThat(RowNumbers.before(headerless, 10)).isEqualTo(10);
  }
}
