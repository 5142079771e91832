package org.vfps.csv;

import java.util.List;
import java.util.Objects;

/**
 * One record as read: its fields, its exact text and line break, and where it lies in the file.
 *
 * @param fields the fields, unquoted, at least one; unmodifiable
 * @param raw the record's exact text as read, without its line break
 * @param lineBreak {@code "\r\n"}, {@code "\n"}, {@code "\r"}, or {@code ""} for a last line
 *     without one
 * @param malformed whether the record breaks RFC 4180 (a quote in an unquoted field, text after a
 *     closing quote, a quote still open at the end of the input); its fields are then a best guess
 *     and {@code raw} is the text to pass on unchanged
 * @param startOffset the byte offset in the whole file where the record starts
 * @param endOffset the byte offset in the whole file where the next record starts, after the line
 *     break: the checkpoint to resume from
 */
public record CsvRecord(
    List<String> fields,
    String raw,
    String lineBreak,
    boolean malformed,
    long startOffset,
    long endOffset) {

  public CsvRecord {
    fields = List.copyOf(fields);
    Objects.requireNonNull(raw, "raw");
    Objects.requireNonNull(lineBreak, "lineBreak");
  }
}
