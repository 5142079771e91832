package org.vfps.csv;

import java.util.List;

/**
 * Writes CSV records that {@link CsvReader} reads back as the same fields: a field is quoted only
 * when it must be, when it holds the delimiter, a quote, CR or LF, starts or ends with a space, or
 * starts with a byte order mark. On request it neutralizes the fields a spreadsheet would run as a
 * formula, as OWASP's guidance on CSV injection describes.
 */
public final class CsvWriter {

  /** What a neutralized field starts with: spreadsheets read the rest as text. */
  public static final char FORMULA_GUARD = '\'';

  private CsvWriter() {}

  /**
   * Appends one record of {@code fields} and its line break to {@code out}.
   *
   * @param lineBreak {@code "\r\n"}, {@code "\n"}, {@code "\r"}, or {@code ""} for a last line
   *     without one
   * @throws IllegalArgumentException if there is no field, or the delimiter or line break is none
   *     the reader knows
   */
  public static void append(
      StringBuilder out, List<String> fields, char delimiter, String lineBreak) {
    append(out, fields, delimiter, lineBreak, false);
  }

  /**
   * Appends one record of {@code fields} and its line break to {@code out}; with {@code
   * neutralize}, each field that {@link #runsAsFormula runs as a formula} is written quoted, after
   * a {@link #FORMULA_GUARD}, so that a spreadsheet shows its text instead of running it (and the
   * reader reads it back with the guard).
   *
   * @return how many fields were neutralized
   * @throws IllegalArgumentException as {@link #append(StringBuilder, List, char, String)}
   */
  public static int append(
      StringBuilder out,
      List<String> fields,
      char delimiter,
      String lineBreak,
      boolean neutralize) {
    CsvReader.checkDelimiter(delimiter);
    checkLineBreak(lineBreak);
    if (fields.isEmpty()) {
      // a blank line reads back as one empty field, not as none
      throw new IllegalArgumentException("a record has at least one field");
    }
    int neutralized = 0;
    for (int i = 0; i < fields.size(); i++) {
      if (i > 0) {
        out.append(delimiter);
      }
      String field = fields.get(i);
      if (neutralize && runsAsFormula(field)) {
        appendQuoted(out, FORMULA_GUARD, field);
        neutralized++;
      } else {
        appendField(out, field, delimiter);
      }
    }
    out.append(lineBreak);
    return neutralized;
  }

  /**
   * Whether a spreadsheet would run the field as a formula (or read it as one, a number such as
   * {@code -5} included): it starts with {@code =}, {@code +}, {@code -}, {@code @}, a tab or a CR,
   * the characters OWASP's guidance on CSV injection names.
   */
  public static boolean runsAsFormula(String field) {
    if (field.isEmpty()) {
      return false;
    }
    return switch (field.charAt(0)) {
      case '=', '+', '-', '@', '\t', '\r' -> true;
      default -> false;
    };
  }

  /**
   * Appends a record's text as read, such as a malformed record's {@link CsvRecord#raw() raw}, and
   * its line break to {@code out}, unchanged.
   */
  public static void appendRaw(StringBuilder out, String raw, String lineBreak) {
    checkLineBreak(lineBreak);
    out.append(raw).append(lineBreak);
  }

  private static void appendField(StringBuilder out, String field, char delimiter) {
    if (!needsQuotes(field, delimiter)) {
      out.append(field);
      return;
    }
    out.append('"');
    appendDoublingQuotes(out, field);
  }

  /** The field quoted, after {@code first}. */
  private static void appendQuoted(StringBuilder out, char first, String field) {
    out.append('"').append(first);
    appendDoublingQuotes(out, field);
  }

  /** The field with its quotes doubled, and the closing quote. */
  private static void appendDoublingQuotes(StringBuilder out, String field) {
    int from = 0;
    for (int quote = field.indexOf('"'); quote >= 0; quote = field.indexOf('"', quote + 1)) {
      out.append(field, from, quote + 1).append('"');
      from = quote + 1;
    }
    out.append(field, from, field.length()).append('"');
  }

  private static boolean needsQuotes(String field, char delimiter) {
    int length = field.length();
    if (length == 0) {
      return false;
    }
    // a byte order mark opening the file would be skipped unless it is quoted
    if (field.charAt(0) == ' ' || field.charAt(0) == '\uFEFF' || field.charAt(length - 1) == ' ') {
      return true;
    }
    for (int i = 0; i < length; i++) {
      char c = field.charAt(i);
      if (c == delimiter || c == '"' || c == '\r' || c == '\n') {
        return true;
      }
    }
    return false;
  }

  private static void checkLineBreak(String lineBreak) {
    switch (lineBreak) {
      case "\r\n", "\n", "\r", "" -> {}
      default ->
          throw new IllegalArgumentException("no line break: " + lineBreak.length() + " chars");
    }
  }
}
