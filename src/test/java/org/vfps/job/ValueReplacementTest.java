package org.vfps.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.vfps.csv.CsvRecord;
import org.vfps.objectstore.InMemoryObjectStore;

class ValueReplacementTest {

  private static final ColumnMapping ID_TO_PSN = new ColumnMapping("id", "psn", "ns", null);

  private final InMemoryObjectStore store = new InMemoryObjectStore();
  private final ValueReplacement replacement = new ValueReplacement(new Cells(List.of("N/A")));

  /** Writes the data rows of {@code csv} (its first line the header, if the job has one). */
  private String write(
      RunState state, String csv, long rowsBefore, Map<String, Map<String, String>> replaced) {
    Map<String, ValueResolution.Answers> answers = new HashMap<>();
    replaced.forEach(
        (namespace, values) ->
            answers.put(namespace, new ValueResolution.Answers(values, Set.of())));
    return writeAnswers(state, csv, rowsBefore, answers);
  }

  private String writeAnswers(
      RunState state, String csv, long rowsBefore, Map<String, ValueResolution.Answers> replaced) {
    List<CsvRecord> records = TestJobs.records(csv);
    CsvLayout layout = CsvLayout.resolve(state.job, records.getFirst().fields());
    List<CsvRecord> data = state.job.hasHeaderRow() ? records.subList(1, records.size()) : records;
    state.lineBreak = "\n";
    StringBuilder text = new StringBuilder();
    replacement.write(state, layout, data, rowsBefore, replaced, text);
    return text.toString();
  }

  private RunState pseudonymize(PseudonymizeMode mode, boolean header, ColumnMapping mapping) {
    return state(JobDirection.PSEUDONYMIZE, mode, header, false, mapping);
  }

  /** A de-pseudonymize job with a header row that writes column psn's originals into original. */
  private RunState depseudonymizePsnIntoOriginal() {
    return state(
        JobDirection.DEPSEUDONYMIZE,
        PseudonymizeMode.CREATE_IF_MISSING,
        true,
        false,
        new ColumnMapping("psn", "original", "ns", null));
  }

  private RunState state(
      JobDirection direction,
      PseudonymizeMode mode,
      boolean header,
      boolean neutralize,
      ColumnMapping mapping) {
    return TestJobs.state(TestJobs.job(direction, mode, header, neutralize, mapping), store);
  }

  @Test
  void writesEachValuesPseudonymIntoTheTargetColumn() {
    RunState state = pseudonymize(PseudonymizeMode.CREATE_IF_MISSING, true, ID_TO_PSN);

    String text =
        write(state, "id,x\na,1\nb,2\na,3\n", 0, Map.of("ns", Map.of("a", "psn-a", "b", "psn-b")));

    assertThat(text).isEqualTo("a,1,psn-a\nb,2,psn-b\na,3,psn-a\n");
    assertThat(state.counters.rowsProcessed()).isEqualTo(3);
    assertThat(state.counters.missingValues()).isZero();
  }

  @Test
  void keepsAndCountsMissingCellsBlankOrPlaceholder() {
    RunState state =
        pseudonymize(
            PseudonymizeMode.CREATE_IF_MISSING, true, new ColumnMapping("id", null, "ns", null));

    String text = write(state, "id,x\n,1\n n/a ,2\nb,3\n", 0, Map.of("ns", Map.of("b", "psn-b")));

    // the writer quotes a cell with surrounding spaces, so that no reader trims them
    assertThat(text).isEqualTo(",1\n\" n/a \",2\npsn-b,3\n");
    assertThat(state.counters.missingValues()).isEqualTo(2);
    assertThat(state.counters.rowsProcessed()).isEqualTo(3);
  }

  @Test
  void aBlankingJobLeavesAValueWithoutPseudonymEmptyAndCountsIt() {
    RunState state = pseudonymize(PseudonymizeMode.BLANK_IF_MISSING, true, ID_TO_PSN);

    String text = write(state, "id\nknown\nunknown\n", 0, Map.of("ns", Map.of("known", "psn-k")));

    assertThat(text).isEqualTo("known,psn-k\nunknown,\n");
    assertThat(state.counters.unresolvedValues()).isEqualTo(1);
  }

  @Test
  void aFailingJobNamesTheRowCountingTheHeaderAsRowOneAndNotTheValue() {
    RunState state = pseudonymize(PseudonymizeMode.FAIL_IF_MISSING, true, ID_TO_PSN);

    assertThatThrownBy(
            () -> write(state, "id\nknown\nsecret-value\n", 0, Map.of("ns", Map.of("known", "p"))))
        .isInstanceOf(JobFailure.class)
        .hasMessage(
            "Row 3, column 'id': the value has no pseudonym in namespace 'ns', and the job fails"
                + " then (PSEUDONYMIZE_MODE_FAIL_IF_MISSING).")
        .hasMessageNotContaining("secret-value");
  }

  @Test
  void rowsAreNumberedAfterTheRowsOfEarlierChunksWithoutHeaderFromOne() {
    RunState state =
        pseudonymize(
            PseudonymizeMode.FAIL_IF_MISSING, false, new ColumnMapping("0", "1", "ns", null));

    assertThatThrownBy(() -> write(state, "unknown,x\n", 1000, Map.of("ns", Map.of())))
        .isInstanceOf(JobFailure.class)
        .hasMessageStartingWith("Row 1001, column '0'");
  }

  @Test
  void deidentifiedValuesWithoutOriginalStayAsTheyWere() {
    RunState state = depseudonymizePsnIntoOriginal();

    String text = write(state, "psn\np1\np2\n", 0, Map.of("ns", Map.of("p1", "alice")));

    assertThat(text).isEqualTo("p1,alice\np2,p2\n");
    assertThat(state.counters.unresolvedValues()).isZero();
    assertThat(state.counters.mistypedPseudonyms()).isZero();
  }

  @Test
  void mistypedPseudonymsStayAsTheyWereAndAreCountedPerCell() {
    RunState state = depseudonymizePsnIntoOriginal();

    String text =
        writeAnswers(
            state,
            "psn\np1\ntypo\nunknown\ntypo\n",
            0,
            Map.of("ns", new ValueResolution.Answers(Map.of("p1", "alice"), Set.of("typo"))));

    assertThat(text).isEqualTo("p1,alice\ntypo,typo\nunknown,unknown\ntypo,typo\n");
    assertThat(state.counters.mistypedPseudonyms()).isEqualTo(2);
    assertThat(state.counters.unresolvedValues()).isZero();
    assertThat(state.counters.rowsProcessed()).isEqualTo(4);
  }

  @Test
  void passesAMalformedRowOnAsReadAndCountsIt() {
    RunState state = pseudonymize(PseudonymizeMode.CREATE_IF_MISSING, true, ID_TO_PSN);

    String text = write(state, "id\na\"b,c\"d\nb\n", 0, Map.of("ns", Map.of("b", "psn-b")));

    assertThat(text).isEqualTo("a\"b,c\"d\nb,psn-b\n");
    assertThat(state.counters.badDataRows()).isEqualTo(1);
    assertThat(state.counters.rowsProcessed()).isEqualTo(2);
  }

  @Test
  void aNeutralizingJobQuotesFormulasAndTheTextOfMalformedRows() {
    RunState state =
        state(JobDirection.PSEUDONYMIZE, PseudonymizeMode.CREATE_IF_MISSING, true, true, ID_TO_PSN);

    String text = write(state, "id,x\na,=1+1\n=b\"x,y\n", 0, Map.of("ns", Map.of("a", "psn-a")));

    assertThat(text).isEqualTo("a,\"'=1+1\",psn-a\n\"'=b\"\"x,y\"\n");
    assertThat(state.counters.neutralizedCells()).isEqualTo(2);
    assertThat(state.counters.badDataRows()).isEqualTo(1);
  }
}
