package org.vfps.job;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.vfps.csv.CsvRecord;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.pseudonym.ImportStatus;
import org.vfps.pseudonym.ImportedPair;

/**
 * The rows of an import job: each row's pair of original value and pseudonym goes to its
 * namespace's import, one call per namespace and chunk, and the row is written back with the
 * import's status of its pair as an added last column. A row with a missing cell is not imported
 * ({@link ImportStatus#MISSING_VALUE}); a malformed row is passed on as it was read.
 */
final class PairImport {

  /** The import of one namespace's pairs, waited for on the worker thread. */
  @FunctionalInterface
  interface Importer {
    /** The status of each pair, in order; fails with {@code NOT_FOUND} for an unknown namespace. */
    List<ImportStatus> importPairs(String namespace, List<ImportedPair> pairs);
  }

  private final Cells cells;

  PairImport(Cells cells) {
    this.cells = cells;
  }

  /**
   * Imports the chunk's pairs through {@code importer} and writes its report rows into {@code
   * text}, counting them in {@code state}; returns the nanoseconds spent in the imports.
   */
  long write(
      RunState state,
      CsvLayout layout,
      List<CsvRecord> records,
      Importer importer,
      StringBuilder text) {
    CsvLayout.Column column = layout.columns().getFirst();
    ImportStatus[] statuses = new ImportStatus[records.size()];
    Map<String, List<Integer>> byNamespace = new LinkedHashMap<>();
    for (int i = 0; i < records.size(); i++) {
      CsvRecord record = records.get(i);
      if (record.malformed()) {
        continue;
      }
      String original = Cells.cell(record.fields(), column.source());
      String pseudonym = Cells.cell(record.fields(), column.target());
      String namespace =
          column.namespaceField() < 0
              ? column.mapping().namespace()
              : Cells.cell(record.fields(), column.namespaceField());
      if (cells.missing(original) || cells.missing(pseudonym) || cells.missing(namespace)) {
        statuses[i] = ImportStatus.MISSING_VALUE;
        state.count(0, 1, 0);
      } else {
        byNamespace.computeIfAbsent(namespace.strip(), ns -> new ArrayList<>()).add(i);
      }
    }
    long waiting = System.nanoTime();
    for (Map.Entry<String, List<Integer>> entry : byNamespace.entrySet()) {
      List<ImportedPair> pairs =
          entry.getValue().stream()
              .map(
                  i ->
                      new ImportedPair(
                          Cells.cell(records.get(i).fields(), column.source()),
                          Cells.cell(records.get(i).fields(), column.target())))
              .toList();
      List<ImportStatus> outcome;
      try {
        outcome = importer.importPairs(entry.getKey(), pairs);
      } catch (ServiceException e) {
        if (e.code() != ErrorCode.NOT_FOUND) {
          throw e;
        }
        outcome = Collections.nCopies(pairs.size(), ImportStatus.UNKNOWN_NAMESPACE);
      }
      for (int j = 0; j < pairs.size(); j++) {
        statuses[entry.getValue().get(j)] = outcome.get(j);
      }
    }
    long waited = System.nanoTime() - waiting;
    for (int i = 0; i < records.size(); i++) {
      CsvRecord record = records.get(i);
      if (record.malformed()) {
        state.writeMalformed(text, record);
        continue;
      }
      List<String> fields = new ArrayList<>(record.fields());
      fields.add(statuses[i].label());
      state.write(text, fields);
    }
    state.rows(records.size());
    return waited;
  }
}
