package org.vfps.job;

import java.util.Objects;

/**
 * A column a job reads and the column it writes, as the .NET vfps stores them in {@code
 * column_mappings}.
 *
 * @param sourceColumn the column read: its header name, or its 0-based index without a header row
 * @param targetColumn the column written, null to write the source column; for import and export
 *     the pseudonym column, while {@code sourceColumn} is the original values'
 * @param namespace the values' namespace; empty for an import with a namespace column
 * @param namespaceColumn the column naming each row's namespace (import only); null when none
 */
public record ColumnMapping(
    String sourceColumn, String targetColumn, String namespace, String namespaceColumn) {

  public ColumnMapping {
    Objects.requireNonNull(sourceColumn, "sourceColumn");
    Objects.requireNonNull(namespace, "namespace");
  }

  /** The column written: the target column, else the source column. */
  public String writtenColumn() {
    return targetColumn == null || targetColumn.isEmpty() ? sourceColumn : targetColumn;
  }

  /** Whether each row names its namespace. */
  public boolean hasNamespaceColumn() {
    return namespaceColumn != null && !namespaceColumn.isEmpty();
  }
}
