package org.vfps.csv;

import java.io.IOException;

/** The input is no CSV this package reads: a record is too long, or the bytes are not UTF-8. */
public final class CsvFormatException extends IOException {

  private static final long serialVersionUID = 1L;

  private final long offset;

  /** A failure at byte {@code offset} of the whole file. */
  CsvFormatException(String message, long offset) {
    super(message);
    this.offset = offset;
  }

  /** The byte offset in the whole file where the failure lies. */
  public long offset() {
    return offset;
  }
}
