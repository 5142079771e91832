package org.vfps.job;

import io.vertx.core.Future;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.vfps.access.CallerId;

/**
 * The jobs in memory, for unit tests: the claim and checkpoint protocol of {@link
 * CsvJobRepository}, every change conditional on the worker still holding the job, without a
 * database. Thread-safe; its futures are already complete.
 */
final class InMemoryCsvJobs implements CsvJobRepository {

  /** A job as stored: its row, who holds it, and its run's checkpoint and pending output. */
  private static final class Stored {
    CsvJob job;
    final String creator;
    String worker;
    int attempts;
    String checkpoint;
    final Map<Long, byte[]> pending = new LinkedHashMap<>();

    Stored(CsvJob job, String creator) {
      this.job = job;
      this.creator = creator;
    }
  }

  private final Map<UUID, Stored> jobs = new LinkedHashMap<>();

  /** Stores {@code job} as running, held by {@code worker}, as a claim leaves it. */
  synchronized void running(CsvJob job, String worker) {
    Stored stored = new Stored(with(job, JobStatus.RUNNING, job.counters(), null, null), "{}");
    stored.worker = worker;
    stored.attempts = 1;
    jobs.put(job.id(), stored);
  }

  /** The worker holding the job; null when none does. */
  synchronized String holderOf(UUID id) {
    return jobs.get(id).worker;
  }

  @Override
  public synchronized Future<Void> insert(CsvJob job, String creator) {
    jobs.put(job.id(), new Stored(job, creator));
    return Future.succeededFuture();
  }

  @Override
  public synchronized Future<Optional<CsvJob>> find(UUID id) {
    return Future.succeededFuture(Optional.ofNullable(jobs.get(id)).map(stored -> stored.job));
  }

  @Override
  public synchronized Future<Optional<CsvJob>> find(UUID id, CallerId creator) {
    return Future.succeededFuture(
        Optional.ofNullable(jobs.get(id))
            .map(stored -> stored.job)
            .filter(job -> job.createdBy().equals(creator.subject())));
  }

  @Override
  public synchronized Future<List<CsvJob>> list(Optional<CallerId> creator, int limit) {
    return Future.succeededFuture(
        jobs.values().stream()
            .map(stored -> stored.job)
            .filter(job -> creator.map(c -> job.createdBy().equals(c.subject())).orElse(true))
            .sorted(Comparator.comparing(CsvJob::createdAt).reversed())
            .limit(limit)
            .toList());
  }

  @Override
  public synchronized Future<Optional<CsvJob>> queue(UUID id, long totalBytes) {
    Stored stored = jobs.get(id);
    if (stored == null || stored.job.status() != JobStatus.AWAITING_UPLOAD) {
      return Future.succeededFuture(Optional.empty());
    }
    CsvJob.Counters counters = new CsvJob.Counters(totalBytes, 0, 0, 0, 0, 0, 0, 0);
    stored.job = with(stored.job, JobStatus.QUEUED, counters, null, null);
    return Future.succeededFuture(Optional.of(stored.job));
  }

  @Override
  public synchronized Future<Optional<CsvJob>> failAwaiting(UUID id, String errorMessage) {
    Stored stored = jobs.get(id);
    if (stored == null || stored.job.status() != JobStatus.AWAITING_UPLOAD) {
      return Future.succeededFuture(Optional.empty());
    }
    stored.job = with(stored.job, JobStatus.FAILED, stored.job.counters(), null, errorMessage);
    return Future.succeededFuture(Optional.of(stored.job));
  }

  @Override
  public synchronized Future<Optional<CsvJob>> cancel(UUID id) {
    Stored stored = jobs.get(id);
    if (stored == null) {
      return Future.succeededFuture(Optional.empty());
    }
    if (!ended(stored.job.status())) {
      stored.job = with(stored.job, JobStatus.CANCELLED, stored.job.counters(), null, null);
      stored.worker = null;
      stored.pending.clear();
    }
    return Future.succeededFuture(Optional.of(stored.job));
  }

  @Override
  public synchronized Future<Optional<Run>> claim(String worker, Duration orphanedAfter) {
    for (Stored stored : jobs.values()) {
      if (stored.job.status() == JobStatus.QUEUED) {
        stored.job = with(stored.job, JobStatus.RUNNING, stored.job.counters(), null, null);
        stored.worker = worker;
        stored.attempts++;
        return Future.succeededFuture(
            Optional.of(
                new Run(
                    stored.job,
                    stored.creator,
                    stored.attempts,
                    stored.checkpoint,
                    new ArrayList<>(stored.pending.values()))));
      }
    }
    return Future.succeededFuture(Optional.empty());
  }

  @Override
  public Future<Void> heartbeat(String worker, Collection<UUID> jobs) {
    return Future.succeededFuture();
  }

  @Override
  public synchronized Future<Boolean> checkpoint(
      UUID id,
      String worker,
      String checkpoint,
      long chunk,
      byte[] pendingChunk,
      CsvJob.Counters counters) {
    Stored stored = held(id, worker);
    if (stored == null) {
      return Future.succeededFuture(false);
    }
    stored.checkpoint = checkpoint;
    if (pendingChunk == null) {
      stored.pending.clear();
    } else {
      stored.pending.put(chunk, pendingChunk.clone());
    }
    if (counters != null) {
      stored.job = with(stored.job, JobStatus.RUNNING, counters, null, null);
    }
    return Future.succeededFuture(true);
  }

  @Override
  public synchronized Future<Boolean> finish(
      UUID id,
      String worker,
      JobStatus status,
      CsvJob.Counters counters,
      String outputKey,
      String errorMessage) {
    Stored stored = held(id, worker);
    if (stored == null) {
      return Future.succeededFuture(false);
    }
    stored.job = with(stored.job, status, counters, outputKey, errorMessage);
    stored.worker = null;
    stored.pending.clear();
    return Future.succeededFuture(true);
  }

  @Override
  public synchronized Future<Void> release(UUID id, String worker) {
    Stored stored = held(id, worker);
    if (stored != null) {
      stored.job = with(stored.job, JobStatus.QUEUED, stored.job.counters(), null, null);
      stored.worker = null;
    }
    return Future.succeededFuture();
  }

  @Override
  public Future<Integer> expireAbandoned(Duration expiry, String errorMessage) {
    return Future.succeededFuture(0);
  }

  @Override
  public Future<Integer> markStalled(Duration threshold) {
    return Future.succeededFuture(0);
  }

  private Stored held(UUID id, String worker) {
    Stored stored = jobs.get(id);
    return stored != null
            && worker.equals(stored.worker)
            && stored.job.status() == JobStatus.RUNNING
        ? stored
        : null;
  }

  private static boolean ended(JobStatus status) {
    return status == JobStatus.COMPLETED
        || status == JobStatus.FAILED
        || status == JobStatus.CANCELLED;
  }

  private static CsvJob with(
      CsvJob job,
      JobStatus status,
      CsvJob.Counters counters,
      String outputKey,
      String errorMessage) {
    return new CsvJob(
        job.id(),
        job.direction(),
        status,
        job.createdBy(),
        job.inputKey(),
        outputKey,
        job.fileName(),
        job.delimiter(),
        job.hasHeaderRow(),
        job.columnMappings(),
        job.pseudonymizeMode(),
        job.neutralizeFormulas(),
        counters,
        errorMessage,
        job.createdAt(),
        Instant.now());
  }
}
