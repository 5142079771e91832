package org.vfps.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.pseudonym.ListCursor;

class CsvLayoutTest {

  private static CsvJob job(JobDirection direction, boolean header, ColumnMapping... mappings) {
    return TestJobs.job(direction, PseudonymizeMode.CREATE_IF_MISSING, header, false, mappings);
  }

  @Test
  void aTargetTheHeaderLacksIsAddedAfterTheLastColumn() {
    CsvLayout layout =
        CsvLayout.resolve(
            job(
                JobDirection.PSEUDONYMIZE,
                true,
                new ColumnMapping("id", null, "a", null),
                new ColumnMapping("case", "case_pseudonym", "b", null),
                new ColumnMapping("id", "name", "a", null)),
            List.of("id", "name", "case"));

    assertThat(layout.header()).containsExactly("id", "name", "case", "case_pseudonym");
    assertThat(layout.width()).isEqualTo(4);
    assertThat(layout.columns())
        .extracting(CsvLayout.Column::source, CsvLayout.Column::target)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(0, 0),
            org.assertj.core.groups.Tuple.tuple(2, 3),
            org.assertj.core.groups.Tuple.tuple(0, 1));
  }

  @Test
  void anImportReportAddsTheStatusColumnAndReadsTheNamespaceColumn() {
    CsvLayout layout =
        CsvLayout.resolve(
            job(JobDirection.IMPORT, true, new ColumnMapping("o", "p", "", "ns")),
            List.of("ns", "p", "o"));

    assertThat(layout.header()).containsExactly("ns", "p", "o", "status");
    CsvLayout.Column column = layout.columns().getFirst();
    assertThat(List.of(column.source(), column.target(), column.namespaceField()))
        .containsExactly(2, 1, 0);
  }

  @Test
  void anUnknownColumnOrAnIndexBeyondTheFirstRowIsInvalid() {
    assertThatThrownBy(
            () ->
                CsvLayout.resolve(
                    job(
                        JobDirection.PSEUDONYMIZE,
                        true,
                        new ColumnMapping("nope", null, "a", null)),
                    List.of("id")))
        .isInstanceOf(ServiceException.class)
        .hasMessageContaining("no column 'nope'")
        .extracting(e -> ((ServiceException) e).code())
        .isEqualTo(ErrorCode.INVALID_ARGUMENT);
    assertThatThrownBy(
            () ->
                CsvLayout.resolve(
                    job(JobDirection.PSEUDONYMIZE, false, new ColumnMapping("3", null, "a", null)),
                    List.of("x", "y")))
        .hasMessageContaining("Column 3 is not in the file");
  }

  @Test
  void aCheckpointReadsBackAsItWasWritten() {
    Checkpoint checkpoint =
        new Checkpoint(
            1234,
            new CsvJob.Counters(10, 9, 8, 7, 6, 5, 4, 3),
            "upload-1",
            List.of("e1", "e2"),
            42,
            Optional.of(new ListCursor(Instant.parse("2026-12-02T10:15:30.123456Z"), "v,\"1", 2)));

    assertThat(Checkpoint.decode(checkpoint.encode())).isEqualTo(checkpoint);
    // a checkpoint of a job created before cells were neutralized or mistyped pseudonyms counted
    String older =
        checkpoint
            .encode()
            .replace(",\"neutralizedCells\":4", "")
            .replace(",\"mistypedPseudonyms\":3", "");
    assertThat(older).doesNotContain("neutralized").doesNotContain("mistyped");
    assertThat(Checkpoint.decode(older).counters().neutralizedCells()).isZero();
    assertThat(Checkpoint.decode(older).counters().mistypedPseudonyms()).isZero();
    Checkpoint first = Checkpoint.start(CsvJob.Counters.NONE, "u");
    assertThat(Checkpoint.decode(first.encode())).isEqualTo(first);
  }
}
