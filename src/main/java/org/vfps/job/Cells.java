package org.vfps.job;

import java.util.ArrayList;
import java.util.List;

/**
 * Reading a row's cells: by index, a row too short holding none there, and which cells count as
 * missing ({@code CsvProcessing__MissingValuePlaceholders}).
 */
final class Cells {

  private final List<String> placeholders;

  /** Cells equal to one of {@code placeholders}, trimmed and ignoring case, count as missing. */
  Cells(List<String> placeholders) {
    this.placeholders = List.copyOf(placeholders);
  }

  /** Whether the cell is absent, blank, or a placeholder. */
  boolean missing(String cell) {
    if (cell == null || cell.isBlank()) {
      return true;
    }
    String stripped = cell.strip();
    for (String placeholder : placeholders) {
      if (placeholder.equalsIgnoreCase(stripped)) {
        return true;
      }
    }
    return false;
  }

  /** The field at {@code index}; null when the row is shorter. */
  static String cell(List<String> fields, int index) {
    return index < fields.size() ? fields.get(index) : null;
  }

  /** A modifiable copy of the fields, with empty ones added up to {@code width}. */
  static List<String> widened(List<String> fields, int width) {
    List<String> copy = new ArrayList<>(Math.max(width, fields.size()));
    copy.addAll(fields);
    while (copy.size() < width) {
      copy.add("");
    }
    return copy;
  }
}
