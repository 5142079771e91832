package org.vfps.csv;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Reads the RFC 4180 records of a UTF-8 stream one at a time, with the byte offsets a job resumes
 * from.
 *
 * <p>Fields are separated by the delimiter and may be quoted with {@code "}; inside quotes the
 * delimiter, CR and LF are literal and {@code ""} is one quote. A record ends at CRLF, LF or CR
 * outside quotes, or at the end of the input. A blank line is a record of one empty field. A quote
 * in an unquoted field, text after a closing quote, and a quote still open at the end of the input
 * make a record {@linkplain CsvRecord#malformed() malformed}, and reading goes on with the next
 * one.
 *
 * <p>A reader started at the {@linkplain CsvRecord#endOffset() end offset} of a record, on a stream
 * that begins at that byte, reads exactly the records an uninterrupted read reads after it. A UTF-8
 * byte order mark is skipped at offset 0 only; it counts in the offsets.
 *
 * <p>The reader fills its own reusable buffer from the stream, so the stream need not be buffered.
 * It holds one record at a time, its bytes and their unquoted copy at most {@code maxRecordBytes}
 * each, and fails rather than read a longer one. It is not thread-safe.
 */
public final class CsvReader implements Closeable {

  private static final int BUFFER_SIZE = 64 * 1024;
  private static final int INITIAL_RECORD_SIZE = 1024;

  private static final int FIELD_START = 0;
  private static final int UNQUOTED = 1;
  private static final int QUOTED = 2;
  // after a quote in a quoted field: its end, or the first of a doubled quote
  private static final int QUOTE_IN_QUOTED = 3;

  private final InputStream in;
  private final byte delimiter;
  private final int maxRecordBytes;

  private final byte[] buffer = new byte[BUFFER_SIZE];
  private int position;
  private int limit;
  // the offset in the whole file of buffer[0]
  private long bufferOffset;
  private boolean endOfInput;
  private boolean started;

  private byte[] raw;
  private int rawLength;
  private byte[] content;
  private int[] fieldEnds = new int[16];
  private int fieldCount;

  private IOException failure;
  private boolean closed;

  /**
   * A reader of {@code in}, whose first byte lies at {@code startOffset} of the whole file: 0, or
   * the end offset of a record read before.
   *
   * @throws IllegalArgumentException if the offset is negative, the limit not positive, or the
   *     delimiter a quote, CR, LF or no ASCII character
   */
  public CsvReader(InputStream in, long startOffset, char delimiter, int maxRecordBytes) {
    if (startOffset < 0) {
      throw new IllegalArgumentException("the start offset is negative: " + startOffset);
    }
    if (maxRecordBytes < 1) {
      throw new IllegalArgumentException("the record limit is not positive: " + maxRecordBytes);
    }
    this.in = Objects.requireNonNull(in, "in");
    this.delimiter = checkDelimiter(delimiter);
    this.maxRecordBytes = maxRecordBytes;
    this.bufferOffset = startOffset;
    int initial = Math.min(INITIAL_RECORD_SIZE, maxRecordBytes);
    this.raw = new byte[initial];
    this.content = new byte[initial];
  }

  static byte checkDelimiter(char delimiter) {
    if (delimiter == '"' || delimiter == '\r' || delimiter == '\n' || delimiter >= 0x80) {
      throw new IllegalArgumentException(
          "the delimiter must be an ASCII character other than a quote, CR and LF: U+"
              + String.format("%04X", (int) delimiter));
    }
    return (byte) delimiter;
  }

  /**
   * The next record, or null at the end of the input.
   *
   * @throws CsvFormatException if the record is longer than the limit or its bytes are not UTF-8
   * @throws IOException if the stream fails, or the reader is closed; after any failure the reader
   *     throws the same exception on every call, and the job resumes from its last checkpoint with
   *     a new reader
   */
  public CsvRecord next() throws IOException {
    if (closed) {
      throw new IOException("the CSV reader is closed");
    }
    if (failure != null) {
      throw failure;
    }
    try {
      return read();
    } catch (IOException e) {
      // it stopped inside a record, or the stream is broken: no later call finds the next one
      failure = e;
      throw e;
    }
  }

  /** Closes the stream. */
  @Override
  public void close() throws IOException {
    closed = true;
    in.close();
  }

  private CsvRecord read() throws IOException {
    if (!started) {
      started = true;
      if (bufferOffset == 0) {
        skipByteOrderMark();
      }
    }
    if (position == limit && !fill()) {
      return null;
    }
    long start = bufferOffset + position;
    byte[] buf = buffer;
    int pos = position;
    int lim = limit;
    int segment = pos;
    byte[] cont = content;
    int contLength = 0;
    rawLength = 0;
    fieldCount = 0;
    byte delim = delimiter;
    int state = FIELD_START;
    boolean malformed = false;
    // the UTF-8 sequence being checked: continuation bytes still due, the range of the next one
    int due = 0;
    int low = 0x80;
    int high = 0xBF;
    long sequenceStart = 0;
    while (true) {
      if (pos == lim) {
        keep(segment, lim, start);
        position = pos;
        if (!fill()) {
          break;
        }
        pos = 0;
        lim = limit;
        segment = 0;
      }
      byte b = buf[pos++];
      if (b < 0) {
        int u = b & 0xFF;
        if (due > 0) {
          if (u < low || u > high) {
            throw notUtf8(sequenceStart);
          }
          low = 0x80;
          high = 0xBF;
          due--;
        } else {
          sequenceStart = bufferOffset + pos - 1;
          if (u >= 0xC2 && u <= 0xDF) {
            due = 1;
          } else if (u >= 0xE0 && u <= 0xEF) {
            due = 2;
          } else if (u >= 0xF0 && u <= 0xF4) {
            due = 3;
          } else {
            throw notUtf8(sequenceStart);
          }
          // four lead bytes narrow the range of the next byte (Unicode's table of well-formed
          // sequences): no overlong forms (E0, F0), no surrogates (ED), nothing above U+10FFFF (F4)
          switch (u) {
            case 0xE0 -> low = 0xA0;
            case 0xED -> high = 0x9F;
            case 0xF0 -> low = 0x90;
            case 0xF4 -> high = 0x8F;
            default -> {}
          }
        }
        // a byte of a multi-byte character is content in any state
      } else if (due > 0) {
        throw notUtf8(sequenceStart);
      } else if (state == QUOTED) {
        if (b == '"') {
          state = QUOTE_IN_QUOTED;
          continue;
        }
      } else if (b == delim) {
        endField(contLength, start);
        state = FIELD_START;
        continue;
      } else if (b == '\n' || b == '\r') {
        keep(segment, pos - 1, start);
        endField(contLength, start);
        String lineBreak = "\n";
        if (b == '\r') {
          lineBreak = "\r";
          position = pos;
          if (pos < lim || fill()) {
            pos = position;
            if (buffer[pos] == '\n') {
              pos++;
              lineBreak = "\r\n";
            }
          } else {
            pos = position;
          }
        }
        position = pos;
        return record(lineBreak, malformed, start);
      } else if (b == '"') {
        if (state == FIELD_START) {
          state = QUOTED;
          continue;
        }
        if (state == QUOTE_IN_QUOTED) {
          state = QUOTED;
        } else {
          malformed = true;
        }
      }
      // a content byte: it opens an unquoted field, or follows a quoted field's closing quote
      if (state == FIELD_START) {
        state = UNQUOTED;
      } else if (state == QUOTE_IN_QUOTED) {
        malformed = true;
        state = UNQUOTED;
      }
      if (contLength == cont.length) {
        cont = growContent(start);
      }
      cont[contLength++] = b;
    }
    if (due > 0) {
      throw notUtf8(sequenceStart);
    }
    if (state == QUOTED) {
      malformed = true;
    }
    endField(contLength, start);
    return record("", malformed, start);
  }

  private CsvRecord record(String lineBreak, boolean malformed, long start) {
    String text = new String(raw, 0, rawLength, StandardCharsets.UTF_8);
    String[] fields = new String[fieldCount];
    int from = 0;
    for (int i = 0; i < fieldCount; i++) {
      fields[i] = new String(content, from, fieldEnds[i] - from, StandardCharsets.UTF_8);
      from = fieldEnds[i];
    }
    return new CsvRecord(
        List.of(fields), text, lineBreak, malformed, start, bufferOffset + position);
  }

  /** Appends {@code buffer[from, to)} to the record's raw bytes. */
  private void keep(int from, int to, long start) throws CsvFormatException {
    int length = to - from;
    if (length == 0) {
      return;
    }
    int needed = rawLength + length;
    if (needed > maxRecordBytes) {
      throw tooLong(start);
    }
    if (needed > raw.length) {
      raw = Arrays.copyOf(raw, (int) Math.min(Math.max(2L * raw.length, needed), maxRecordBytes));
    }
    System.arraycopy(buffer, from, raw, rawLength, length);
    rawLength = needed;
  }

  private byte[] growContent(long start) throws CsvFormatException {
    // the content is never longer than the raw bytes it comes from
    if (content.length >= maxRecordBytes) {
      throw tooLong(start);
    }
    content = Arrays.copyOf(content, (int) Math.min(2L * content.length, maxRecordBytes));
    return content;
  }

  private void endField(int contentEnd, long start) throws CsvFormatException {
    if (fieldCount == fieldEnds.length) {
      // a delimiter before each field but the first
      if (fieldCount > maxRecordBytes) {
        throw tooLong(start);
      }
      fieldEnds = Arrays.copyOf(fieldEnds, (int) Math.min(2L * fieldCount, maxRecordBytes + 1L));
    }
    fieldEnds[fieldCount++] = contentEnd;
  }

  /** Reads the next bytes into the buffer, once all of it is consumed; false at the end. */
  private boolean fill() throws IOException {
    bufferOffset += limit;
    position = 0;
    limit = 0;
    if (endOfInput) {
      return false;
    }
    int n;
    do {
      n = in.read(buffer, 0, buffer.length);
    } while (n == 0);
    if (n < 0) {
      endOfInput = true;
      return false;
    }
    limit = n;
    return true;
  }

  private void skipByteOrderMark() throws IOException {
    while (limit < 3) {
      int n = in.read(buffer, limit, buffer.length - limit);
      if (n < 0) {
        endOfInput = true;
        break;
      }
      limit += n;
    }
    if (limit >= 3
        && buffer[0] == (byte) 0xEF
        && buffer[1] == (byte) 0xBB
        && buffer[2] == (byte) 0xBF) {
      position = 3;
    }
  }

  private CsvFormatException tooLong(long start) {
    return new CsvFormatException(
        "the record at offset "
            + start
            + " is longer than the limit of "
            + maxRecordBytes
            + " bytes",
        start);
  }

  private static CsvFormatException notUtf8(long offset) {
    return new CsvFormatException(
        "the file is not UTF-8: invalid byte at offset " + offset, offset);
  }
}
