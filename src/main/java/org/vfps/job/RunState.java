package org.vfps.job;

import java.util.List;
import java.util.Optional;
import org.vfps.access.Caller;
import org.vfps.csv.CsvRecord;
import org.vfps.csv.CsvWriter;
import org.vfps.pseudonym.ListCursor;

/**
 * What a run of a job has done, from its checkpoint on: where it is in the input, its counters, its
 * output. It writes the output's rows in the job's format (delimiter, line break, formulas
 * neutralized when the job asks) and counts what it wrote. Not thread-safe: one worker thread uses
 * it.
 */
final class RunState {

  /** The line break of an output whose input has none (an export, a file of one line). */
  static final String DEFAULT_LINE_BREAK = "\r\n";

  final CsvJob job;
  final Caller creator;
  final MultipartOutput output;
  long offset;
  long nextChunk;
  Optional<ListCursor> cursor;
  CsvJob.Counters counters;
  String lineBreak = DEFAULT_LINE_BREAK;
  CsvJobRunner.Outcome outcome = CsvJobRunner.Outcome.ENDED;
  private long lastPublished = System.nanoTime();

  /** The state {@code checkpoint} describes, its output going into {@code output}. */
  RunState(CsvJob job, Caller creator, Checkpoint checkpoint, MultipartOutput output) {
    this.job = job;
    this.creator = creator;
    this.output = output;
    this.offset = checkpoint.inputOffset();
    this.nextChunk = checkpoint.nextChunk();
    this.cursor = checkpoint.exportCursor();
    this.counters = checkpoint.counters();
  }

  /** Whether the run has written nothing yet: its output starts with the header row. */
  boolean nothingWritten() {
    return output.isEmpty() && nextChunk == 0;
  }

  /** Where a worker that takes the job over resumes. */
  Checkpoint checkpoint() {
    return new Checkpoint(
        offset, counters, output.uploadId(), output.partETags(), nextChunk, cursor);
  }

  /** Counts malformed rows, missing and unresolved values. */
  void count(long bad, long missing, long unresolved) {
    count(bad, missing, unresolved, 0);
  }

  /** Counts malformed rows, missing and unresolved values, and mistyped pseudonyms. */
  void count(long bad, long missing, long unresolved, long mistyped) {
    counters =
        new CsvJob.Counters(
            counters.totalBytes(),
            counters.bytesProcessed(),
            counters.rowsProcessed(),
            counters.badDataRows() + bad,
            counters.missingValues() + missing,
            counters.unresolvedValues() + unresolved,
            counters.neutralizedCells(),
            counters.mistypedPseudonyms() + mistyped);
  }

  /** Counts processed rows. */
  void rows(int processed) {
    counters =
        new CsvJob.Counters(
            counters.totalBytes(),
            counters.bytesProcessed(),
            counters.rowsProcessed() + processed,
            counters.badDataRows(),
            counters.missingValues(),
            counters.unresolvedValues(),
            counters.neutralizedCells(),
            counters.mistypedPseudonyms());
  }

  private void neutralized(int cells) {
    if (cells > 0) {
      counters =
          new CsvJob.Counters(
              counters.totalBytes(),
              counters.bytesProcessed(),
              counters.rowsProcessed(),
              counters.badDataRows(),
              counters.missingValues(),
              counters.unresolvedValues(),
              counters.neutralizedCells() + cells,
              counters.mistypedPseudonyms());
    }
  }

  /**
   * Whether the counters are to be published with this checkpoint: once per {@code intervalNanos},
   * and whenever a part was just uploaded.
   */
  boolean publishDue(long intervalNanos) {
    long now = System.nanoTime();
    if (now - lastPublished >= intervalNanos || output.heldBytes() == 0) {
      lastPublished = now;
      return true;
    }
    return false;
  }

  /** Writes a row, neutralized when the job asks, and counts the cells it neutralized. */
  void write(StringBuilder text, List<String> fields) {
    neutralized(
        CsvWriter.append(text, fields, job.delimiter(), lineBreak, job.neutralizeFormulas()));
  }

  /**
   * Writes a malformed row as it was read and counts it. A job that neutralizes writes the row's
   * text as one cell instead: a spreadsheet would split it into cells that no one checked.
   */
  void writeMalformed(StringBuilder text, CsvRecord record) {
    if (job.neutralizeFormulas()) {
      write(text, List.of(record.raw()));
    } else {
      CsvWriter.appendRaw(text, record.raw(), lineBreak);
    }
    count(1, 0, 0);
  }
}
