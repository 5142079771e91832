package org.vfps.job;

import io.vertx.core.Future;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.vfps.access.CallerId;

/**
 * The jobs in the database, and the protocol by which workers on any replica share them: a worker
 * claims a queued job (or one whose worker stopped sending heartbeats), moves its checkpoint as it
 * goes, and finishes it. Every change a worker makes is conditional on still holding the job, so a
 * worker that lost it (taken over, cancelled) learns so from a {@code false} and stops.
 */
public interface CsvJobRepository {

  /** Stores a new job with the JSON of the caller it runs for. */
  Future<Void> insert(CsvJob job, String creator);

  Future<Optional<CsvJob>> find(UUID id);

  /**
   * The job, if {@code creator} created it; empty for another's, as for one that does not exist.
   */
  Future<Optional<CsvJob>> find(UUID id, CallerId creator);

  /** The newest {@code limit} jobs, of one creator or (empty) of all, newest first. */
  Future<List<CsvJob>> list(Optional<CallerId> creator, int limit);

  /** Queues a job awaiting its upload, with its file's size; empty if it awaited none. */
  Future<Optional<CsvJob>> queue(UUID id, long totalBytes);

  /** Fails a job awaiting its upload (the upload is unusable); empty if it awaited none. */
  Future<Optional<CsvJob>> failAwaiting(UUID id, String errorMessage);

  /** Cancels a job that has not ended; the job as it is then stored, empty if it does not exist. */
  Future<Optional<CsvJob>> cancel(UUID id);

  /**
   * Claims the oldest job that is queued, or running or stalled without a heartbeat for {@code
   * orphanedAfter}, for {@code worker}, and marks it running; empty when there is none. Two workers
   * never claim one job at once.
   */
  Future<Optional<Run>> claim(String worker, Duration orphanedAfter);

  /** Tells that {@code worker} still runs these jobs. */
  Future<Void> heartbeat(String worker, Collection<UUID> jobs);

  /**
   * Moves the job's checkpoint, in one transaction: stores {@code checkpoint}; adds {@code
   * pendingChunk} (the output of chunk {@code chunk}) to the pending output, or, when it is null,
   * drops the pending output (it went into an uploaded part); and, when {@code counters} is not
   * null, publishes them in the job's row. False, with nothing changed, when the worker no longer
   * holds the job or it was cancelled.
   */
  Future<Boolean> checkpoint(
      UUID id,
      String worker,
      String checkpoint,
      long chunk,
      byte[] pendingChunk,
      CsvJob.Counters counters);

  /**
   * Ends a job the worker holds: {@code COMPLETED} with its output, or {@code FAILED} with the
   * message; drops its pending output. False when the worker no longer holds it.
   */
  Future<Boolean> finish(
      UUID id,
      String worker,
      JobStatus status,
      CsvJob.Counters counters,
      String outputKey,
      String errorMessage);

  /**
   * Gives a job back (a stopping replica): any worker may claim it at once, from its checkpoint.
   */
  Future<Void> release(UUID id, String worker);

  /**
   * Fails the jobs still awaiting their upload {@code expiry} after they were created, with the
   * message; returns how many.
   */
  Future<Integer> expireAbandoned(Duration expiry, String errorMessage);

  /** Marks running jobs without progress for {@code threshold} stalled; returns how many. */
  Future<Integer> markStalled(Duration threshold);

  /**
   * A claimed job.
   *
   * @param creator the JSON of the caller it runs for
   * @param attempt how often it was claimed, this time included
   * @param checkpoint the JSON of its last checkpoint; null on its first run
   * @param pendingOutput the output of the chunks since the last uploaded part, in order
   */
  record Run(
      CsvJob job, String creator, int attempt, String checkpoint, List<byte[]> pendingOutput) {

    public Run {
      pendingOutput = List.copyOf(pendingOutput);
    }
  }
}
