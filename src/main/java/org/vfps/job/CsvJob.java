package org.vfps.job;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

/**
 * A job as a row of {@code pseudonymization_jobs} holds it.
 *
 * @param createdBy the subject of the caller who created it; who that is (the issuer too) is kept
 *     with the job's run (see {@link CsvJobRepository#find(UUID, org.vfps.access.CallerId)})
 * @param inputKey the object key of the uploaded file; null for an export
 * @param outputKey the object key of the result; null until the job is completed
 * @param fileName the uploaded file's name, for display only; null when unknown
 * @param neutralizeFormulas whether the output's cells that a spreadsheet would run as a formula
 *     are neutralized ({@link org.vfps.csv.CsvWriter#runsAsFormula}); false for a job the .NET vfps
 *     created
 * @param errorMessage why the job failed, never a value of its file; null unless it failed
 */
public record CsvJob(
    UUID id,
    JobDirection direction,
    JobStatus status,
    String createdBy,
    String inputKey,
    String outputKey,
    String fileName,
    char delimiter,
    boolean hasHeaderRow,
    List<ColumnMapping> columnMappings,
    PseudonymizeMode pseudonymizeMode,
    boolean neutralizeFormulas,
    Counters counters,
    String errorMessage,
    Instant createdAt,
    Instant lastUpdatedAt) {

  /** The object key prefix of every job's files, which the bucket's lifecycle rule expires. */
  public static final String KEY_PREFIX = "csv-jobs/";

  public CsvJob {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(direction, "direction");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(createdBy, "createdBy");
    columnMappings = List.copyOf(columnMappings);
    Objects.requireNonNull(pseudonymizeMode, "pseudonymizeMode");
    Objects.requireNonNull(counters, "counters");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(lastUpdatedAt, "lastUpdatedAt");
  }

  /**
   * The namespaces on which the job's permissions are checked, each once, in mapping order: each
   * mapped namespace, and null (every namespace) for a mapping that reads each row's namespace.
   */
  public List<String> permissionScope() {
    Set<String> scope = new LinkedHashSet<>();
    for (ColumnMapping mapping : columnMappings) {
      scope.add(mapping.hasNamespaceColumn() ? null : mapping.namespace());
    }
    return Collections.unmodifiableList(new ArrayList<>(scope));
  }

  /** The .NET vfps's key of a job's uploaded file. */
  public static String inputKey(UUID id) {
    return KEY_PREFIX + id + "/input.csv";
  }

  /** The .NET vfps's key of a job's result. */
  public static String outputKey(UUID id) {
    return KEY_PREFIX + id + "/output.csv";
  }

  /**
   * What a job has done so far.
   *
   * @param totalBytes the input file's size (0 for an export)
   * @param bytesProcessed input bytes processed
   * @param rowsProcessed rows processed (written, for an export)
   * @param badDataRows rows kept as they were because they are no well-formed CSV
   * @param missingValues mapped cells that were blank or a placeholder
   * @param unresolvedValues values a {@link PseudonymizeMode#BLANK_IF_MISSING} job left empty
   * @param neutralizedCells cells of the output neutralized because a spreadsheet would run them
   * @param mistypedPseudonyms cells of a de-pseudonymize job kept as they were because their
   *     namespace's check digit refuses them: mistyped pseudonyms
   */
  public record Counters(
      long totalBytes,
      long bytesProcessed,
      long rowsProcessed,
      long badDataRows,
      long missingValues,
      long unresolvedValues,
      long neutralizedCells,
      long mistypedPseudonyms) {

    public static final Counters NONE = new Counters(0, 0, 0, 0, 0, 0, 0, 0);

    /** These counters with {@code bytesProcessed} instead. */
    public Counters withBytesProcessed(long bytesProcessed) {
      return new Counters(
          totalBytes,
          bytesProcessed,
          rowsProcessed,
          badDataRows,
          missingValues,
          unresolvedValues,
          neutralizedCells,
          mistypedPseudonyms);
    }
  }
}
