package org.vfps.job;

/**
 * Rows as a spreadsheet numbers a file's lines, for the messages that name a row: the header row,
 * if the file has one, is row 1.
 */
final class RowNumbers {

  private RowNumbers() {}

  /**
   * The number of the row before a chunk's first.
   *
   * @param rowsBefore the data rows (the header row not counted) before the chunk's first
   */
  static long before(CsvJob job, long rowsBefore) {
    return rowsBefore + (job.hasHeaderRow() ? 1 : 0);
  }
}
