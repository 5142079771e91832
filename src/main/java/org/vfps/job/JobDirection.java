package org.vfps.job;

import org.vfps.access.Operation;

/** What a job does; {@link #code()} is the .NET vfps's {@code direction} number. */
public enum JobDirection implements StoredCode {
  PSEUDONYMIZE(0),
  DEPSEUDONYMIZE(1),
  IMPORT(2),
  EXPORT(3);

  private final int code;

  JobDirection(int code) {
    this.code = code;
  }

  @Override
  public int code() {
    return code;
  }

  /** The direction of a stored number; {@code IllegalArgumentException} for an unknown one. */
  public static JobDirection of(int code) {
    return StoredCode.ofCode(JobDirection.class, code, "job direction");
  }

  /** The direction's label in metrics: {@code pseudonymize}, {@code export}, ... */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  /** Creating such a job: its permission is checked on every namespace of the job. */
  public Operation creation() {
    return switch (this) {
      case PSEUDONYMIZE -> Operation.CSV_JOB_PSEUDONYMIZE;
      case DEPSEUDONYMIZE -> Operation.CSV_JOB_DEPSEUDONYMIZE;
      case IMPORT -> Operation.CSV_JOB_IMPORT;
      case EXPORT -> Operation.CSV_JOB_EXPORT;
    };
  }

  /**
   * Reading such a job's result: the permission its creation needs, checked again on every
   * namespace of the job each time a download URL is handed out.
   */
  public Operation resultRead() {
    return revealsOriginalValues()
        ? Operation.CSV_JOB_RESULT_NEEDING_REVERSE_LOOKUP
        : Operation.CSV_JOB_RESULT_NEEDING_WRITE;
  }

  /** Whether the job reads an uploaded file. */
  public boolean hasInput() {
    return this != EXPORT;
  }

  /**
   * Whether the job's result holds stored original values next to their pseudonyms, so that its
   * creation, its download URLs and its end are audited: a de-pseudonymize job and an export.
   */
  public boolean revealsOriginalValues() {
    return this == DEPSEUDONYMIZE || this == EXPORT;
  }

  /**
   * Whether the job's result holds original values: those it reveals, or an import report's copy of
   * the imported pairs. Such a job neutralizes the cells a spreadsheet would run unless asked not
   * to.
   */
  public boolean writesOriginalValues() {
    return this != PSEUDONYMIZE;
  }
}
