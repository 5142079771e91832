package org.vfps.job;

import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.access.Audit;
import org.vfps.access.Caller;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.objectstore.ObjectStore;
import org.vfps.objectstore.ObjectStoreException;

/**
 * How a run of a job ends: completed with its output, failed with a message, paused, given back, or
 * lost to a cancellation or another worker; each with what the job's files, its row, its audit
 * trail and the log need then. Runs on the job's worker thread.
 */
final class JobEnding {

  // the runner's logger: operators and tests follow a job's run under that name
  private static final Logger LOG = LoggerFactory.getLogger(CsvJobRunner.class);

  private final CsvJobRepository repository;
  private final ObjectStore store;
  private final String worker;
  private final JobAudit audit;
  private final EventLoopCalls calls;

  JobEnding(
      CsvJobRepository repository,
      ObjectStore store,
      String worker,
      JobAudit audit,
      EventLoopCalls calls) {
    this.repository = repository;
    this.store = store;
    this.worker = worker;
    this.audit = audit;
    this.calls = calls;
  }

  /** Completes the upload and the job; LOST when the worker no longer holds it. */
  CsvJobRunner.Outcome complete(RunState state) {
    CsvJob job = state.job;
    String key = CsvJob.outputKey(job.id());
    state.output.complete();
    boolean held =
        calls.await(
            () ->
                repository.finish(
                    job.id(), worker, JobStatus.COMPLETED, state.counters, key, null));
    if (!held) {
      store.delete(key);
      return CsvJobRunner.Outcome.LOST;
    }
    dropInput(job);
    audit.ended(state.creator, job, JobStatus.COMPLETED, Audit.OK, state.counters.rowsProcessed());
    LOG.info(
        "CSV job {} completed: {} rows, {} malformed, {} missing, {} unresolved, {} neutralized,"
            + " {} mistyped",
        job.id(),
        state.counters.rowsProcessed(),
        state.counters.badDataRows(),
        state.counters.missingValues(),
        state.counters.unresolvedValues(),
        state.counters.neutralizedCells(),
        state.counters.mistypedPseudonyms());
    return CsvJobRunner.Outcome.ENDED;
  }

  /**
   * Fails the job with {@code message}; {@code code} is the failure's kind for the audit trail.
   *
   * @param state null when the run failed before it had one
   * @param creator null when the run failed before it read its creator
   */
  CsvJobRunner.Outcome fail(
      CsvJob job, RunState state, Caller creator, ErrorCode code, String message) {
    LOG.warn("CSV job {} failed: {}", job.id(), message);
    if (state != null) {
      abort(state);
    }
    CsvJob.Counters counters = state == null ? job.counters() : state.counters;
    try {
      if (calls.await(
          () -> repository.finish(job.id(), worker, JobStatus.FAILED, counters, null, message))) {
        dropInput(job);
        if (creator != null) {
          audit.ended(creator, job, JobStatus.FAILED, code.name(), counters.rowsProcessed());
        }
      }
    } catch (ServiceException | EventLoopCalls.Interrupted e) {
      LOG.warn("CSV job {} could not be marked failed: {}", job.id(), e.getMessage());
    }
    return CsvJobRunner.Outcome.ENDED;
  }

  /** Leaves the job to a worker that resumes it from its checkpoint. */
  CsvJobRunner.Outcome paused(CsvJob job, String reason) {
    LOG.warn(
        "CSV job {} paused: {}; a worker resumes it from its checkpoint after"
            + " CsvProcessing__OrphanedJobRecoveryDelay",
        job.id(),
        reason);
    return CsvJobRunner.Outcome.PAUSED;
  }

  /** Gives the job back, as this replica stops; returns false, as the run did not finish. */
  boolean release(RunState state) {
    calls.await(() -> repository.release(state.job.id(), worker));
    LOG.info(
        "CSV job {} given back at row {}: this replica stops",
        state.job.id(),
        state.counters.rowsProcessed());
    state.outcome = CsvJobRunner.Outcome.RELEASED;
    return false;
  }

  /** A cancelled job's upload is dropped; a taken-over one's belongs to the new worker. */
  void lost(RunState state) {
    try {
      Optional<CsvJob> now = calls.await(() -> repository.find(state.job.id()));
      if (now.isPresent() && now.get().status() == JobStatus.CANCELLED) {
        abort(state);
        LOG.info("CSV job {} cancelled", state.job.id());
      } else {
        LOG.info("CSV job {} was taken over by another worker", state.job.id());
      }
    } catch (ServiceException | EventLoopCalls.Interrupted e) {
      LOG.info("CSV job {} is no longer this worker's", state.job.id());
    }
  }

  /**
   * Deletes the uploaded file of a job that ended: it holds the values the job read (original
   * values, for a pseudonymize job), which no one needs once the result is written.
   */
  private void dropInput(CsvJob job) {
    if (job.inputKey() == null) {
      return;
    }
    try {
      store.delete(job.inputKey());
    } catch (ObjectStoreException e) {
      LOG.warn(
          "CSV job {}: its uploaded file could not be deleted ({}); the bucket's lifecycle rule"
              + " expires it",
          job.id(),
          e.getMessage());
    }
  }

  private void abort(RunState state) {
    try {
      state.output.abort();
    } catch (ObjectStoreException e) {
      LOG.warn(
          "CSV job {}: its output upload could not be aborted: {}", state.job.id(), e.getMessage());
    }
  }
}
