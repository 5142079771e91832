package org.vfps.csv;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class CsvReaderTest {

  private static final int LIMIT = 1 << 20;

  private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

  /** Every feature the reader knows, in one file that starts with a byte order mark. */
  private static final byte[] SAMPLE =
      concat(
          BOM,
          bytes(
              "id,name,note\r\n"
                  + "1,\"Doe, Jane\",\"said \"\"hi\"\"\"\n"
                  + "2,\"two\rlines\",\"and\nmore\"\r"
                  + "3,\"crlf\r\ninside\",\r\n"
                  + "\n"
                  + "\r\n"
                  + ",,\n"
                  + "4,Müller,€ 𝄞\n"
                  + "5,ab\"c,d\n"
                  + "6,\"ab\"c,d\r"
                  + "\r"
                  + "7,\"\",\" padded \"\n"
                  + "8,\"still open,\nto the end"));

  @Test
  void quotedFieldsHoldDelimitersQuotesCrLfAndCrlf() throws IOException {
    String text = "a,\"b,c\",\"d\"\"e\",\"f\rg\",\"h\ni\",\"j\r\nk\",\"\"\"\"\nnext\n";

    List<CsvRecord> records = readAll(bytes(text));

    assertThat(records).hasSize(2);
    CsvRecord first = records.get(0);
    assertThat(first.fields()).containsExactly("a", "b,c", "d\"e", "f\rg", "h\ni", "j\r\nk", "\"");
    assertThat(first.raw()).isEqualTo(text.substring(0, text.indexOf("\nnext")));
    assertThat(first.lineBreak()).isEqualTo("\n");
    assertThat(first.malformed()).isFalse();
    assertThat(records.get(1).fields()).containsExactly("next");
  }

  @Test
  void everyKindOfLineBreakEndsARecordAndALastLineNeedsNone() throws IOException {
    List<CsvRecord> records = readAll(bytes("a\r\nb\nc\rd"));

    assertThat(records)
        .containsExactly(
            new CsvRecord(List.of("a"), "a", "\r\n", false, 0, 3),
            new CsvRecord(List.of("b"), "b", "\n", false, 3, 5),
            new CsvRecord(List.of("c"), "c", "\r", false, 5, 7),
            new CsvRecord(List.of("d"), "d", "", false, 7, 8));
  }

  @Test
  void aCrBeforeACrIsALineBreakOfItsOwn() throws IOException {
    List<CsvRecord> records = readAll(bytes("a\r\r\nb\r"));

    assertThat(records)
        .containsExactly(
            new CsvRecord(List.of("a"), "a", "\r", false, 0, 2),
            new CsvRecord(List.of(""), "", "\r\n", false, 2, 4),
            new CsvRecord(List.of("b"), "b", "\r", false, 4, 6));
  }

  @Test
  void semicolonAndTabSeparateFieldsAndCommasAreThenText() throws IOException {
    CsvRecord semicolon = readAll(bytes("a;b,c;\"d;e\"\n"), ';').get(0);
    CsvRecord tab = readAll(bytes("a\tb,c\t\"d\te\"\t\n"), '\t').get(0);

    assertThat(semicolon.fields()).containsExactly("a", "b,c", "d;e");
    assertThat(tab.fields()).containsExactly("a", "b,c", "d\te", "");
    assertThat(semicolon.malformed()).isFalse();
    assertThat(tab.malformed()).isFalse();
  }

  @Test
  void emptyFieldsAndBlankLinesAreKept() throws IOException {
    List<CsvRecord> records = readAll(bytes(",,\n\n\r\n\"\"\nx,\n"));

    assertThat(records)
        .extracting(CsvRecord::fields)
        .containsExactly(
            List.of("", "", ""), List.of(""), List.of(""), List.of(""), List.of("x", ""));
    assertThat(records).extracting(CsvRecord::raw).containsExactly(",,", "", "", "\"\"", "x,");
    assertThat(records).noneMatch(CsvRecord::malformed);
  }

  @Test
  void anEmptyInputHasNoRecordAndAFinalLineBreakStartsNone() throws IOException {
    assertThat(readAll(new byte[0])).isEmpty();
    assertThat(readAll(BOM)).isEmpty();
    assertThat(readAll(bytes("a\n"))).hasSize(1);
  }

  @Test
  void aQuoteInAnUnquotedFieldIsMalformedAndTheNextRecordIsRead() throws IOException {
    List<CsvRecord> records = readAll(bytes("ab\"c,d\nnext,1\n"));

    assertThat(records.get(0).malformed()).isTrue();
    assertThat(records.get(0).raw()).isEqualTo("ab\"c,d");
    assertThat(records.get(0).fields()).containsExactly("ab\"c", "d");
    assertThat(records.get(1))
        .isEqualTo(new CsvRecord(List.of("next", "1"), "next,1", "\n", false, 7, 14));
  }

  @Test
  void textAfterAClosingQuoteIsMalformedAndTheNextRecordIsRead() throws IOException {
    List<CsvRecord> records = readAll(bytes("\"ab\"c,d\r\n\"x\" ,y\nnext\n"));

    assertThat(records).extracting(CsvRecord::malformed).containsExactly(true, true, false);
    assertThat(records).extracting(CsvRecord::raw).containsExactly("\"ab\"c,d", "\"x\" ,y", "next");
    assertThat(records.get(0).fields()).containsExactly("abc", "d");
    assertThat(records.get(1).fields()).containsExactly("x ", "y");
    assertThat(records.get(2).startOffset()).isEqualTo(16);
  }

  @Test
  void aQuoteStillOpenAtTheEndIsMalformedAndSwallowsTheRest() throws IOException {
    List<CsvRecord> records = readAll(bytes("x\n\"ab,c\nd"));

    assertThat(records)
        .containsExactly(
            new CsvRecord(List.of("x"), "x", "\n", false, 0, 2),
            new CsvRecord(List.of("ab,c\nd"), "\"ab,c\nd", "", true, 2, 9));
  }

  @Test
  void aByteOrderMarkAtOffsetZeroIsSkippedButCounted() throws IOException {
    List<CsvRecord> records = readAll(concat(BOM, bytes("a,b\nc\n")));

    assertThat(records)
        .containsExactly(
            new CsvRecord(List.of("a", "b"), "a,b", "\n", false, 3, 7),
            new CsvRecord(List.of("c"), "c", "\n", false, 7, 9));
  }

  @Test
  void aByteOrderMarkAfterOffsetZeroIsText() throws IOException {
    byte[] text = concat(BOM, bytes("a\n"));

    List<CsvRecord> records = read(new ByteArrayInputStream(text), 10, ',');

    assertThat(records)
        .containsExactly(new CsvRecord(List.of("\uFEFFa"), "\uFEFFa", "\n", false, 10, 15));
  }

  @Test
  void offsetsCountTheBytesOfMultiByteCharacters() throws IOException {
    // ä has 2 bytes, € 3, 𝄞 4
    List<CsvRecord> records = readAll(bytes("ä,€\n\"𝄞\"\n"));

    assertThat(records)
        .containsExactly(
            new CsvRecord(List.of("ä", "€"), "ä,€", "\n", false, 0, 7),
            new CsvRecord(List.of("𝄞"), "\"𝄞\"", "\n", false, 7, 14));
  }

  @Test
  void latin1InputFailsAtTheOffsetOfItsFirstNonAsciiByte() throws IOException {
    byte[] latin1 = "ok\nMüller\n".getBytes(ISO_8859_1);

    try (CsvReader reader = reader(new ByteArrayInputStream(latin1), 0, ',', LIMIT)) {
      assertThat(reader.next().fields()).containsExactly("ok");
      assertThatThrownBy(reader::next)
          .isInstanceOfSatisfying(
              CsvFormatException.class, e -> assertThat(e.offset()).isEqualTo(4))
          .hasMessage("the file is not UTF-8: invalid byte at offset 4");
      // the reader is at no record boundary any more
      assertThatThrownBy(reader::next).isInstanceOf(CsvFormatException.class);
    }
  }

  @Test
  void invalidUtf8FailsAtTheOffsetOfTheSequenceAndIsNeverReplaced() {
    byte[] quoted = bytes("x,\"y");
    byte[] rest = bytes("\",z\n");
    // a stray continuation, overlong forms, a surrogate, above U+10FFFF, no lead byte at all
    for (String bad :
        List.of(
            "80",
            "C0 80",
            "C1 BF",
            "E0 80 80",
            "ED A0 80",
            "F0 80 80 80",
            "F4 90 80 80",
            "F5 80 80 80",
            "F8",
            "FF")) {
      assertThatThrownBy(() -> readAll(concat(quoted, hex(bad), rest)))
          .as(bad)
          .isInstanceOfSatisfying(
              CsvFormatException.class, e -> assertThat(e.offset()).isEqualTo(4));
    }
    // a sequence cut by a line break, by a delimiter, by the end of the input
    for (String cut : List.of("E2 82 0A", "C3 2C", "F0 9D 84")) {
      assertThatThrownBy(() -> readAll(concat(bytes("x,y"), hex(cut))))
          .as(cut)
          .isInstanceOfSatisfying(
              CsvFormatException.class, e -> assertThat(e.offset()).isEqualTo(3));
    }
  }

  @Test
  void aRecordLongerThanTheLimitFailsWithItsOffsetWithoutReadingOn() {
    CountingInputStream endless = new CountingInputStream(new UnclosedQuote("ok\n"));

    assertThatThrownBy(() -> read(endless, 0, ','))
        .isInstanceOfSatisfying(CsvFormatException.class, e -> assertThat(e.offset()).isEqualTo(3))
        .hasMessage("the record at offset 3 is longer than the limit of " + LIMIT + " bytes");
    // the reader stops within one buffer of the limit: it never holds much more than that
    assertThat(endless.count).isLessThanOrEqualTo(LIMIT + 3 + 64 * 1024);
  }

  @Test
  void aRecordOfExactlyTheLimitIsReadAndOneByteMoreIsNot() throws IOException {
    String limit = "a".repeat(9) + ",";
    byte[] text = bytes("xx\n" + limit + "\n" + limit + "b\n");

    try (CsvReader reader = reader(new OneByteAtATime(text), 0, ',', 10)) {
      assertThat(reader.next().raw()).isEqualTo("xx");
      assertThat(reader.next().raw()).isEqualTo(limit);
      assertThatThrownBy(reader::next)
          .isInstanceOfSatisfying(
              CsvFormatException.class, e -> assertThat(e.offset()).isEqualTo(14));
    }
    try (CsvReader reader = reader(new ByteArrayInputStream(bytes(",,,,,,,,,,,")), 0, ',', 10)) {
      assertThatThrownBy(reader::next).isInstanceOf(CsvFormatException.class);
    }
  }

  @Test
  void aFailedStreamFailsEveryLaterCall() throws IOException {
    IOException broken = new IOException("connection reset");
    InputStream in =
        new InputStream() {
          private int next;

          @Override
          public int read() throws IOException {
            if (next == 5) {
              throw broken;
            }
            return "a\nbcdef".charAt(next++);
          }
        };

    try (CsvReader reader = reader(in, 0, ',', LIMIT)) {
      assertThat(reader.next().fields()).containsExactly("a");
      assertThatThrownBy(reader::next).isSameAs(broken);
      assertThatThrownBy(reader::next).isSameAs(broken);
    }
  }

  @Test
  void theSampleReadsAsExpected() throws IOException {
    List<CsvRecord> records = readAll(SAMPLE);

    assertThat(records)
        .extracting(CsvRecord::fields)
        .containsExactly(
            List.of("id", "name", "note"),
            List.of("1", "Doe, Jane", "said \"hi\""),
            List.of("2", "two\rlines", "and\nmore"),
            List.of("3", "crlf\r\ninside", ""),
            List.of(""),
            List.of(""),
            List.of("", "", ""),
            List.of("4", "Müller", "€ 𝄞"),
            List.of("5", "ab\"c", "d"),
            List.of("6", "abc", "d"),
            List.of(""),
            List.of("7", "", " padded "),
            List.of("8", "still open,\nto the end"));
    assertThat(records)
        .extracting(CsvRecord::lineBreak)
        .containsExactly(
            "\r\n", "\n", "\r", "\r\n", "\n", "\r\n", "\n", "\n", "\n", "\r", "\r", "\n", "");
    assertThat(records)
        .extracting(CsvRecord::malformed)
        .containsExactly(
            false, false, false, false, false, false, false, false, true, true, false, false, true);
    assertThat(records.get(0).startOffset()).isEqualTo(3);
    assertThat(records.getLast().endOffset()).isEqualTo(SAMPLE.length);
    assertContiguousAndExact(records, SAMPLE);
  }

  @Test
  void aReaderResumedAtAnyRecordBoundaryReadsWhatAnUninterruptedReadReadsAfterIt()
      throws IOException {
    List<CsvRecord> all = readAll(SAMPLE);

    for (int i = 0; i <= all.size(); i++) {
      long offset = i < all.size() ? all.get(i).startOffset() : SAMPLE.length;
      byte[] rest = Arrays.copyOfRange(SAMPLE, (int) offset, SAMPLE.length);
      List<CsvRecord> expected = all.subList(i, all.size());

      assertThat(read(new ByteArrayInputStream(rest), offset, ','))
          .as("resumed at %d", offset)
          .isEqualTo(expected);
      assertThat(read(new OneByteAtATime(rest), offset, ','))
          .as("resumed at %d, one byte at a time", offset)
          .isEqualTo(expected);
    }
  }

  @Test
  void recordsSplitAcrossEveryReadReadTheSame() throws IOException {
    assertThat(read(new OneByteAtATime(SAMPLE), 0, ',')).isEqualTo(readAll(SAMPLE));
  }

  @Test
  void twentyMegabytesAcrossManyBuffersReadBackExactly() throws IOException {
    StringBuilder text = new StringBuilder(22 << 20);
    int rows = 0;
    while (text.length() < 20 << 20) {
      CsvWriter.append(text, row(rows), ',', rows % 3 == 0 ? "\r\n" : "\n");
      rows++;
    }
    byte[] bytes = bytes(text.toString());
    text = null;

    int read = 0;
    long offset = 0;
    try (CsvReader reader = reader(new ByteArrayInputStream(bytes), 0, ',', LIMIT)) {
      for (CsvRecord record = reader.next(); record != null; record = reader.next()) {
        assertThat(record.startOffset()).isEqualTo(offset);
        if (!record.fields().equals(row(read)) || record.malformed()) {
          assertThat(record.fields()).as("row %d", read).isEqualTo(row(read));
          assertThat(record.malformed()).isFalse();
        }
        offset = record.endOffset();
        read++;
      }
    }
    assertThat(read).isEqualTo(rows);
    assertThat(offset).isEqualTo(bytes.length);
  }

  @Test
  void argumentsTheReaderCannotWorkWithAreRefused() {
    InputStream in = new ByteArrayInputStream(new byte[0]);

    assertThatThrownBy(() -> reader(in, -1, ',', 10)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> reader(in, 0, ',', 0)).isInstanceOf(IllegalArgumentException.class);
    for (char delimiter : new char[] {'"', '\r', '\n', 'ä'}) {
      assertThatThrownBy(() -> reader(in, 0, delimiter, 10))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  /** Row {@code i} of the generated file: plain, quoted, empty and non-ASCII fields by turns. */
  private static List<String> row(int i) {
    return List.of(
        Integer.toString(i),
        "patient-" + (i * 7919L % 1_000_003),
        switch (i % 7) {
          case 0 -> "Doe, Jane";
          case 1 -> "said \"hi\"";
          case 2 -> "two\nlines";
          case 3 -> "";
          case 4 -> "Müller € 𝄞";
          case 5 -> " padded ";
          default -> "crlf\r\ninside";
        },
        i % 11 == 0 ? "x".repeat(200) : "2024-01-" + (i % 28 + 1));
  }

  /** Each record's raw text and line break are exactly its bytes, and the records tile the file. */
  private static void assertContiguousAndExact(List<CsvRecord> records, byte[] file) {
    for (int i = 0; i < records.size(); i++) {
      CsvRecord record = records.get(i);
      if (i > 0) {
        assertThat(record.startOffset()).isEqualTo(records.get(i - 1).endOffset());
      }
      String exact =
          new String(
              file,
              (int) record.startOffset(),
              (int) (record.endOffset() - record.startOffset()),
              UTF_8);
      assertThat(record.raw() + record.lineBreak()).isEqualTo(exact);
    }
  }

  private static List<CsvRecord> readAll(byte[] text) throws IOException {
    return readAll(text, ',');
  }

  private static List<CsvRecord> readAll(byte[] text, char delimiter) throws IOException {
    return read(new ByteArrayInputStream(text), 0, delimiter);
  }

  private static List<CsvRecord> read(InputStream in, long startOffset, char delimiter)
      throws IOException {
    List<CsvRecord> records = new ArrayList<>();
    try (CsvReader reader = reader(in, startOffset, delimiter, LIMIT)) {
      for (CsvRecord record = reader.next(); record != null; record = reader.next()) {
        records.add(record);
      }
      assertThat(reader.next()).isNull();
    }
    return records;
  }

  private static CsvReader reader(InputStream in, long startOffset, char delimiter, int limit) {
    return new CsvReader(in, startOffset, delimiter, limit);
  }

  private static byte[] bytes(String text) {
    return text.getBytes(UTF_8);
  }

  private static byte[] hex(String bytes) {
    String[] parts = bytes.split(" ");
    byte[] result = new byte[parts.length];
    for (int i = 0; i < parts.length; i++) {
      result[i] = (byte) Integer.parseInt(parts[i], 16);
    }
    return result;
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }

  /** Hands out one byte per read, so that every record crosses buffer boundaries. */
  private static final class OneByteAtATime extends InputStream {

    private final byte[] bytes;
    private int next;

    OneByteAtATime(byte[] bytes) {
      this.bytes = bytes;
    }

    @Override
    public int read() {
      return next < bytes.length ? bytes[next++] & 0xFF : -1;
    }

    @Override
    public int read(byte[] into, int offset, int length) {
      if (length == 0) {
        return 0;
      }
      int b = read();
      if (b < 0) {
        return -1;
      }
      into[offset] = (byte) b;
      return 1;
    }
  }

  /** A prefix, then a quote that never closes: an endless record. */
  private static final class UnclosedQuote extends InputStream {

    private final byte[] prefix;
    private int next;

    UnclosedQuote(String prefix) {
      this.prefix = bytes(prefix + "\"");
    }

    @Override
    public int read() {
      return next < prefix.length ? prefix[next++] & 0xFF : 'x';
    }
  }

  /** Counts the bytes read from a stream. */
  private static final class CountingInputStream extends InputStream {

    private final InputStream in;
    private long count;

    CountingInputStream(InputStream in) {
      this.in = in;
    }

    @Override
    public int read() throws IOException {
      int b = in.read();
      if (b >= 0) {
        count++;
      }
      return b;
    }

    @Override
    public int read(byte[] into, int offset, int length) throws IOException {
      int n = in.read(into, offset, length);
      if (n > 0) {
        count += n;
      }
      return n;
    }
  }
}
