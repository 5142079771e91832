package org.vfps.job;

/**
 * Where the time of running jobs goes, by phase and direction: the .NET vfps's {@code
 * vfps_csv_job_phase_duration_seconds_total{phase,direction}}.
 */
public interface JobPhases {

  /** Counts nothing, when metrics are off. */
  JobPhases NONE = (direction, phase, nanos) -> {};

  /** A phase of a job of {@code direction} took {@code nanos} of its worker's time. */
  void took(JobDirection direction, Phase phase, long nanos);

  /** The phases, by the .NET vfps's label values. */
  enum Phase {
    /** Reading and parsing the input. */
    READ_INPUT("read_input"),
    /** Waiting for the database: the batch calls of a chunk, an import, an export's page. */
    RESOLVE_DATABASE("resolve_database"),
    /** Writing the output and uploading its parts. */
    WRITE_OUTPUT("write_output"),
    /** Moving the checkpoint and the counters. */
    REPORT_PROGRESS("report_progress");

    private final String label;

    Phase(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }
}
