package org.vfps.job;

import java.util.List;
import java.util.Map;
import org.vfps.csv.CsvRecord;

/**
 * The rows of a pseudonymize or de-pseudonymize job, written with each mapped value replaced by
 * what its namespace made of it: a pseudonym, or an original value. A missing cell stays as it is;
 * a malformed row is passed on as it was read.
 */
final class ValueReplacement {

  private final Cells cells;

  ValueReplacement(Cells cells) {
    this.cells = cells;
  }

  /**
   * Writes the chunk's rows into {@code text} and counts them in {@code state}. A value without
   * pseudonym is left empty by a pseudonymize job that blanks it, fails a job that fails then (a
   * {@link JobFailure} naming its row and column, not the value), and stays as it was in a
   * de-pseudonymize job, which counts it when its namespace's check digit refused it (mistyped).
   *
   * @param rowsBefore the data rows (the header row not counted) before the chunk's first
   * @param replaced by namespace: what the chunk's values became
   */
  void write(
      RunState state,
      CsvLayout layout,
      List<CsvRecord> records,
      long rowsBefore,
      Map<String, ValueResolution.Answers> replaced,
      StringBuilder text) {
    CsvJob job = state.job;
    long row = RowNumbers.before(job, rowsBefore);
    for (CsvRecord record : records) {
      row++;
      if (record.malformed()) {
        state.writeMalformed(text, record);
        continue;
      }
      List<String> fields = Cells.widened(record.fields(), layout.width());
      long missingCells = 0;
      long unresolved = 0;
      long mistyped = 0;
      for (CsvLayout.Column column : layout.columns()) {
        String cell = Cells.cell(record.fields(), column.source());
        if (cells.missing(cell)) {
          missingCells++;
          fields.set(column.target(), cell == null ? "" : cell);
          continue;
        }
        ValueResolution.Answers answers = replaced.get(column.mapping().namespace());
        String value = answers.values().get(cell);
        if (value == null) {
          if (job.direction() == JobDirection.PSEUDONYMIZE) {
            if (job.pseudonymizeMode() == PseudonymizeMode.FAIL_IF_MISSING) {
              throw new JobFailure(
                  "Row "
                      + row
                      + ", column '"
                      + column.mapping().sourceColumn()
                      + "': the value has no pseudonym in namespace '"
                      + column.mapping().namespace()
                      + "', and the job fails then (PSEUDONYMIZE_MODE_FAIL_IF_MISSING).");
            }
            unresolved++;
            value = "";
          } else {
            if (answers.mistyped().contains(cell)) {
              mistyped++;
            }
            value = cell;
          }
        }
        fields.set(column.target(), value);
      }
      state.write(text, fields);
      state.count(0, missingCells, unresolved, mistyped);
    }
    state.rows(records.size());
  }
}
