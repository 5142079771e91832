package org.vfps.job;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a client asks for when it creates a job, as it asked; {@link CsvJobService#create} checks
 * it.
 *
 * @param direction empty when the client named none
 * @param delimiter empty for the default {@code ,}
 * @param hasHeaderRow empty for the default true
 * @param fileName empty when the client named none
 * @param pseudonymizeMode empty when the client named none
 * @param neutralizeFormulas whether the output's cells that a spreadsheet would run are
 *     neutralized; empty for the direction's default ({@link JobDirection#writesOriginalValues})
 */
public record NewJob(
    Optional<JobDirection> direction,
    String delimiter,
    Optional<Boolean> hasHeaderRow,
    String fileName,
    List<ColumnMapping> columnMappings,
    Optional<PseudonymizeMode> pseudonymizeMode,
    Optional<Boolean> neutralizeFormulas) {

  public NewJob {
    Objects.requireNonNull(direction, "direction");
    Objects.requireNonNull(delimiter, "delimiter");
    Objects.requireNonNull(hasHeaderRow, "hasHeaderRow");
    Objects.requireNonNull(fileName, "fileName");
    columnMappings = List.copyOf(columnMappings);
    Objects.requireNonNull(pseudonymizeMode, "pseudonymizeMode");
    Objects.requireNonNull(neutralizeFormulas, "neutralizeFormulas");
  }
}
