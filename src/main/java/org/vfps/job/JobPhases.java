package org.vfps.job;

import org.vfps.error.ConstantNames;

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
    READ_INPUT,
    /** Waiting for the database: the batch calls of a chunk, an import, an export's page. */
    RESOLVE_DATABASE,
    /** Writing the output and uploading its parts. */
    WRITE_OUTPUT,
    /** Moving the checkpoint and the counters. */
    REPORT_PROGRESS;

    private static final ConstantNames<Phase> LABELS = ConstantNames.lowerCase(values());

    /** The label value: the constant's name in lower case, e.g. {@code read_input}. */
    public String label() {
      return LABELS.of(this);
    }
  }
}
