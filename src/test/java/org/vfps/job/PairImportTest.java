package org.vfps.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.vfps.csv.CsvRecord;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.objectstore.InMemoryObjectStore;
import org.vfps.pseudonym.ImportStatus;
import org.vfps.pseudonym.ImportedPair;

class PairImportTest {

  private final InMemoryObjectStore store = new InMemoryObjectStore();
  private final PairImport pairImport = new PairImport(new Cells(List.of("-")));
  private final List<String> calls = new ArrayList<>();

  private RunState state(ColumnMapping mapping) {
    return TestJobs.state(
        TestJobs.job(JobDirection.IMPORT, PseudonymizeMode.CREATE_IF_MISSING, true, false, mapping),
        store);
  }

  private String write(RunState state, String csv, PairImport.Importer importer) {
    List<CsvRecord> records = TestJobs.records(csv);
    CsvLayout layout = CsvLayout.resolve(state.job, records.getFirst().fields());
    state.lineBreak = "\n";
    StringBuilder text = new StringBuilder();
    pairImport.write(state, layout, records.subList(1, records.size()), importer, text);
    return text.toString();
  }

  /** Imports each pair whose original value starts with "new", and finds the others present. */
  private List<ImportStatus> decide(String namespace, List<ImportedPair> pairs) {
    calls.add(namespace + ":" + pairs.size());
    return pairs.stream()
        .map(
            pair ->
                pair.originalValue().startsWith("new")
                    ? ImportStatus.IMPORTED
                    : ImportStatus.ALREADY_PRESENT)
        .toList();
  }

  @Test
  void writesEachRowWithItsPairsStatusAsTheLastColumn() {
    RunState state = state(new ColumnMapping("original", "pseudonym", "ns", null));

    String text = write(state, "original,pseudonym\nnew-1,p1\nold-2,p2\n", this::decide);

    assertThat(text).isEqualTo("new-1,p1,Imported\nold-2,p2,AlreadyPresent\n");
    assertThat(calls).containsExactly("ns:2");
    assertThat(state.counters.rowsProcessed()).isEqualTo(2);
  }

  @Test
  void aRowWithAMissingCellIsNotImportedAndCounted() {
    RunState state = state(new ColumnMapping("original", "pseudonym", "ns", null));

    String text = write(state, "original,pseudonym\nnew-1,-\n,p2\nnew-3,p3\n", this::decide);

    assertThat(text).isEqualTo("new-1,-,MissingValue\n,p2,MissingValue\nnew-3,p3,Imported\n");
    assertThat(calls).containsExactly("ns:1");
    assertThat(state.counters.missingValues()).isEqualTo(2);
  }

  @Test
  void rowsNamingTheirNamespaceAreImportedOneCallPerNamespace() {
    RunState state = state(new ColumnMapping("original", "pseudonym", "", "namespace"));

    String text =
        write(
            state,
            "original,pseudonym,namespace\nnew-1,p1,a\nnew-2,p2, b \nold-3,p3,a\n",
            this::decide);

    assertThat(text)
        .isEqualTo("new-1,p1,a,Imported\nnew-2,p2,\" b \",Imported\nold-3,p3,a,AlreadyPresent\n");
    assertThat(calls).containsExactly("a:2", "b:1");
  }

  @Test
  void anUnknownNamespaceMarksItsRowsAndOtherNamespacesGoOn() {
    RunState state = state(new ColumnMapping("original", "pseudonym", "", "namespace"));
    PairImport.Importer importer =
        (namespace, pairs) -> {
          if (namespace.equals("gone")) {
            throw new ServiceException(ErrorCode.NOT_FOUND, "no namespace");
          }
          return decide(namespace, pairs);
        };

    String text =
        write(state, "original,pseudonym,namespace\nnew-1,p1,gone\nnew-2,p2,a\n", importer);

    assertThat(text).isEqualTo("new-1,p1,gone,UnknownNamespace\nnew-2,p2,a,Imported\n");
  }

  @Test
  void anotherRefusalFailsTheChunk() {
    RunState state = state(new ColumnMapping("original", "pseudonym", "ns", null));
    PairImport.Importer importer =
        (namespace, pairs) -> {
          throw new ServiceException(ErrorCode.PERMISSION_DENIED, "not yours");
        };

    assertThatThrownBy(() -> write(state, "original,pseudonym\nnew-1,p1\n", importer))
        .isInstanceOfSatisfying(
            ServiceException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.PERMISSION_DENIED));
  }

  @Test
  void aMalformedRowIsPassedOnAndNotImported() {
    RunState state = state(new ColumnMapping("original", "pseudonym", "ns", null));

    String text = write(state, "original,pseudonym\nne\"w,p\"1\nnew-2,p2\n", this::decide);

    assertThat(text).isEqualTo("ne\"w,p\"1\nnew-2,p2,Imported\n");
    assertThat(calls).containsExactly("ns:1");
    assertThat(state.counters.badDataRows()).isEqualTo(1);
  }
}
