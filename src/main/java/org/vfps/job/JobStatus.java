package org.vfps.job;

/** Where a job is in its life; {@link #code()} is the .NET vfps's {@code status} number. */
public enum JobStatus implements StoredCode {
  AWAITING_UPLOAD(0),
  QUEUED(1),
  RUNNING(2),
  COMPLETED(3),
  FAILED(4),
  CANCELLED(5),
  /** Running without progress for {@code CsvProcessing__StalledJobThreshold}; not an end. */
  STALLED(6);

  private final int code;

  JobStatus(int code) {
    this.code = code;
  }

  @Override
  public int code() {
    return code;
  }

  /** The status of a stored number; {@code IllegalArgumentException} for an unknown one. */
  public static JobStatus of(int code) {
    return StoredCode.ofCode(JobStatus.class, code, "job status");
  }

  /** Whether the job has ended: completed, failed or cancelled. */
  public boolean ended() {
    return this == COMPLETED || this == FAILED || this == CANCELLED;
  }
}
