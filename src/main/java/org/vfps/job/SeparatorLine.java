package org.vfps.job;

import org.vfps.csv.CsvRecord;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/**
 * A spreadsheet's hint of a file's delimiter, a first line {@code sep=;} as Excel reads and writes
 * it and gPAS's CSV files have had it: it is no header row and no data, so a job skips it (and
 * copies it to its output).
 */
final class SeparatorLine {

  private static final String KEY = "sep=";

  private SeparatorLine() {}

  /**
   * Whether {@code first}, a file's first record, is a separator line naming {@code delimiter}.
   *
   * @throws ServiceException {@code INVALID_ARGUMENT} if it is one that names another delimiter
   */
  static boolean isFirst(CsvRecord first, char delimiter) {
    String raw = first.raw();
    if (raw.length() != KEY.length() + 1
        || !raw.startsWith(KEY)
        || !CsvJobService.isDelimiter(raw.substring(KEY.length()))) {
      return false;
    }
    char named = raw.charAt(KEY.length());
    if (named != delimiter) {
      throw new ServiceException(
          ErrorCode.INVALID_ARGUMENT,
          "The file's first line '"
              + raw.replace("\t", "\\t")
              + "' names another delimiter than the job's '"
              + (delimiter == '\t' ? "\\t" : String.valueOf(delimiter))
              + "': create the job with the file's delimiter.");
    }
    return true;
  }
}
