package org.vfps.job;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/**
 * A job's columns resolved against its file's first row: which field each mapping reads and writes.
 * Resolved from the header row, or from 0-based indexes when the file has none.
 *
 * @param columns one per mapping, in mapping order
 * @param header the output's header row; empty without a header row
 * @param width the number of fields the output's rows have at least
 */
record CsvLayout(List<Column> columns, List<String> header, int width) {

  /**
   * A mapping's fields.
   *
   * @param source the field read (for import and export: the original values')
   * @param target the field written (for import and export: the pseudonyms')
   * @param namespaceField the field naming each row's namespace; -1 when the mapping names it
   */
  record Column(ColumnMapping mapping, int source, int target, int namespaceField) {}

  /**
   * Resolves the job's mappings against the first row of its file; fails with {@code
   * INVALID_ARGUMENT} naming a column the file does not have. Pseudonymize and de-pseudonymize jobs
   * may name a target column the header lacks: it is added after the last column.
   */
  static CsvLayout resolve(CsvJob job, List<String> firstRow) {
    Map<String, Integer> byName = new HashMap<>();
    if (job.hasHeaderRow()) {
      for (int i = firstRow.size() - 1; i >= 0; i--) {
        byName.put(firstRow.get(i), i);
      }
    }
    List<String> header = job.hasHeaderRow() ? new ArrayList<>(firstRow) : new ArrayList<>();
    int width = firstRow.size();
    boolean transfer = job.direction() == JobDirection.IMPORT;
    List<Column> columns = new ArrayList<>();
    for (ColumnMapping mapping : job.columnMappings()) {
      int source = field(job, byName, firstRow.size(), mapping.sourceColumn());
      int target;
      if (transfer) {
        target = field(job, byName, firstRow.size(), mapping.targetColumn());
      } else {
        String written = mapping.writtenColumn();
        Integer existing = job.hasHeaderRow() ? byName.get(written) : null;
        if (existing != null || !job.hasHeaderRow()) {
          target = existing != null ? existing : field(job, byName, firstRow.size(), written);
        } else {
          target = width++;
          byName.put(written, target);
          header.add(written);
        }
      }
      int namespaceField =
          mapping.hasNamespaceColumn()
              ? field(job, byName, firstRow.size(), mapping.namespaceColumn())
              : -1;
      columns.add(new Column(mapping, source, target, namespaceField));
    }
    if (transfer && job.hasHeaderRow()) {
      header.add("status");
    }
    return new CsvLayout(columns, header, width);
  }

  private static int field(CsvJob job, Map<String, Integer> byName, int fields, String column) {
    if (job.hasHeaderRow()) {
      Integer index = byName.get(column);
      if (index == null) {
        throw invalid("The file's header row has no column '" + column + "'.");
      }
      return index;
    }
    int index;
    try {
      index = Integer.parseInt(column.strip());
    } catch (NumberFormatException e) {
      throw invalid(
          "Column '" + column + "' is no 0-based index, which a file without a header row needs.");
    }
    if (index < 0 || index >= fields) {
      throw invalid(
          "Column " + index + " is not in the file, whose first row has " + fields + " columns.");
    }
    return index;
  }

  private static ServiceException invalid(String message) {
    return new ServiceException(ErrorCode.INVALID_ARGUMENT, message);
  }
}
