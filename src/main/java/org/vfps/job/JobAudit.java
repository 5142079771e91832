package org.vfps.job;

import java.util.LinkedHashMap;
import java.util.Map;
import org.vfps.access.Access;
import org.vfps.access.Audit;
import org.vfps.access.Caller;
import org.vfps.access.Operation;
import org.vfps.objectstore.PresignedRequest;

/**
 * The audit trail's lines of the CSV jobs whose results reveal original values ({@link
 * JobDirection#revealsOriginalValues}): their creation, each download URL of their result handed
 * out, and their end, one line per namespace of the job. A line names the job, never a value of its
 * files. Jobs of the other directions write none. Thread-safe.
 */
final class JobAudit {

  /** How a job that was cancelled ended, as the audit trail writes it. */
  static final String CANCELLED = "CANCELLED";

  private final Access access;

  JobAudit(Access access) {
    this.access = access;
  }

  /** The job was created by {@code caller}. */
  void created(Caller caller, CsvJob job) {
    write(caller, job.direction().creation(), job, Audit.OK, about(job));
  }

  /** A download URL of the job's result was handed to {@code caller}. */
  void downloadIssued(Caller caller, CsvJob job, PresignedRequest download) {
    Map<String, String> what = about(job);
    what.put("expiresAt", download.expiresAt().toString());
    write(caller, job.direction().resultRead(), job, Audit.OK, what);
  }

  /**
   * The job ended: completed ({@value Audit#OK}), cancelled ({@value #CANCELLED}) or failed (the
   * error code). {@code caller} is whoever ended it: its creator, for whom a worker ran it, or the
   * caller who cancelled it.
   */
  void ended(Caller caller, CsvJob job, JobStatus status, String outcome, long rows) {
    Map<String, String> what = about(job);
    what.put("status", status.name());
    what.put("rows", Long.toString(rows));
    write(caller, Operation.CSV_JOB_RUN, job, outcome, what);
  }

  private static Map<String, String> about(CsvJob job) {
    Map<String, String> what = new LinkedHashMap<>();
    what.put("job", job.id().toString());
    what.put("direction", job.direction().label());
    return what;
  }

  private void write(
      Caller caller, Operation operation, CsvJob job, String outcome, Map<String, String> what) {
    if (job.direction().revealsOriginalValues()) {
      access.auditJob(caller, operation, job.permissionScope(), outcome, what);
    }
  }
}
