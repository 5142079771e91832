package org.vfps.csv;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CsvWriterTest {

  @Test
  void plainFieldsAreWrittenAsTheyAre() {
    assertThat(write(List.of("a", "b c", "", "ä€"), ',', "\n")).isEqualTo("a,b c,,ä€\n");
    assertThat(write(List.of(""), ',', "\r\n")).isEqualTo("\r\n");
  }

  @Test
  void fieldsThatWouldReadOtherwiseAreQuotedWithTheirQuotesDoubled() {
    assertThat(write(List.of("a,b"), ',', "\n")).isEqualTo("\"a,b\"\n");
    assertThat(write(List.of("say \"hi\""), ',', "\n")).isEqualTo("\"say \"\"hi\"\"\"\n");
    assertThat(write(List.of("\""), ',', "\n")).isEqualTo("\"\"\"\"\n");
    assertThat(write(List.of("a\rb", "c\nd", "e\r\nf"), ',', ""))
        .isEqualTo("\"a\rb\",\"c\nd\",\"e\r\nf\"");
    assertThat(write(List.of(" lead", "trail ", " "), ',', "\n"))
        .isEqualTo("\" lead\",\"trail \",\" \"\n");
    assertThat(write(List.of("\uFEFFbom"), ',', "\n")).isEqualTo("\"\uFEFFbom\"\n");
  }

  @Test
  void onlyTheDelimiterInUseIsQuoted() {
    assertThat(write(List.of("a,b", "c;d"), ';', "\n")).isEqualTo("a,b;\"c;d\"\n");
    assertThat(write(List.of("a,b", "c\td"), '\t', "\r")).isEqualTo("a,b\t\"c\td\"\r");
  }

  @Test
  void aRawRecordIsWrittenUnchanged() {
    StringBuilder out = new StringBuilder("x\n");

    CsvWriter.appendRaw(out, "5,ab\"c,d", "\r\n");

    assertThat(out).hasToString("x\n5,ab\"c,d\r\n");
  }

  @Test
  void writtenFieldsReadBackAsTheSameFields() throws IOException {
    List<List<String>> records =
        List.of(
            List.of("plain", "", "x"),
            List.of(""),
            List.of("", ""),
            List.of("a,b", "c;d", "e\tf"),
            List.of("\"", "\"\"", "say \"hi\"", "\"quoted\""),
            List.of("a\rb", "c\nd", "e\r\nf", "\r", "\n"),
            List.of(" ", " lead", "trail ", " both "),
            List.of("ä", "€", "𝄞", "\uFEFFbom"));
    for (char delimiter : new char[] {',', ';', '\t'}) {
      for (String lineBreak : List.of("\r\n", "\n", "\r")) {
        StringBuilder out = new StringBuilder();
        for (List<String> fields : records) {
          CsvWriter.append(out, fields, delimiter, lineBreak);
        }

        List<CsvRecord> read = read(out.toString(), delimiter);

        assertThat(read).extracting(CsvRecord::fields).isEqualTo(records);
        assertThat(read).noneMatch(CsvRecord::malformed);
        assertThat(read).extracting(CsvRecord::lineBreak).containsOnly(lineBreak);
      }
    }
  }

  @Test
  void aReadFileWrittenBackReadsAsTheSameRecords() throws IOException {
    String text =
        "\uFEFFid,\"Doe, Jane\",\"said \"\"hi\"\"\"\r\n"
            + "\n"
            + "2,\"two\rlines\",\" padded \"\r"
            + "5,ab\"c,d\n"
            + ",,ä\n"
            + "last,\"one\"";
    List<CsvRecord> records = read(text, ',');
    StringBuilder out = new StringBuilder();
    for (CsvRecord record : records) {
      if (record.malformed()) {
        CsvWriter.appendRaw(out, record.raw(), record.lineBreak());
      } else {
        CsvWriter.append(out, record.fields(), ',', record.lineBreak());
      }
    }

    List<CsvRecord> again = read(out.toString(), ',');

    assertThat(again).extracting(CsvRecord::fields).isEqualTo(fields(records));
    assertThat(again)
        .extracting(CsvRecord::malformed)
        .containsExactly(false, false, false, true, false, false);
    assertThat(again)
        .extracting(CsvRecord::lineBreak)
        .containsExactly("\r\n", "\n", "\r", "\n", "\n", "");
  }

  @Test
  void neutralizingQuotesEachFieldASpreadsheetWouldRunAfterASingleQuoteAndCountsThem()
      throws IOException {
    List<String> fields =
        List.of(
            "=1+1", "+4930", "-5", "@SUM(A1)", "\t=x", "\r=x", "=say \"hi\",x", "a=b", "", " =x");
    StringBuilder out = new StringBuilder();

    int neutralized = CsvWriter.append(out, fields, ',', "\n", true);

    assertThat(neutralized).isEqualTo(7);
    assertThat(out)
        .hasToString(
            "\"'=1+1\",\"'+4930\",\"'-5\",\"'@SUM(A1)\",\"'\t=x\",\"'\r=x\","
                + "\"'=say \"\"hi\"\",x\",a=b,,\" =x\"\n");
    assertThat(read(out.toString(), ',').getFirst().fields())
        .containsExactly(
            "'=1+1",
            "'+4930",
            "'-5",
            "'@SUM(A1)",
            "'\t=x",
            "'\r=x",
            "'=say \"hi\",x",
            "a=b",
            "",
            " =x");

    StringBuilder raw = new StringBuilder();
    assertThat(CsvWriter.append(raw, fields, ',', "\n", false)).isZero();
    assertThat(read(raw.toString(), ',').getFirst().fields()).isEqualTo(fields);
  }

  @Test
  void aRecordOfNoFieldsAnUnknownLineBreakOrDelimiterIsRefused() {
    StringBuilder out = new StringBuilder();

    assertThatThrownBy(() -> CsvWriter.append(out, List.of(), ',', "\n"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> CsvWriter.append(out, List.of("a"), ',', "\n\r"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> CsvWriter.append(out, List.of("a"), '"', "\n"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> CsvWriter.appendRaw(out, "a", " "))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(out).isEmpty();
  }

  private static String write(List<String> fields, char delimiter, String lineBreak) {
    StringBuilder out = new StringBuilder();
    CsvWriter.append(out, fields, delimiter, lineBreak);
    return out.toString();
  }

  private static List<List<String>> fields(List<CsvRecord> records) {
    return records.stream().map(CsvRecord::fields).toList();
  }

  private static List<CsvRecord> read(String text, char delimiter) throws IOException {
    List<CsvRecord> records = new ArrayList<>();
    try (CsvReader reader =
        new CsvReader(new ByteArrayInputStream(text.getBytes(UTF_8)), 0, delimiter, 1 << 20)) {
      for (CsvRecord record = reader.next(); record != null; record = reader.next()) {
        records.add(record);
      }
    }
    return records;
  }
}
