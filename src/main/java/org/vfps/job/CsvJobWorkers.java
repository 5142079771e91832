package org.vfps.job;

import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.access.Access;
import org.vfps.config.CsvProcessingConfig;
import org.vfps.objectstore.ObjectStore;
import org.vfps.pseudonym.PseudonymService;
import org.vfps.pseudonym.PseudonymTransfer;

/**
 * This replica's CSV job workers: up to {@code CsvProcessing__WorkerCount} jobs at once, each on a
 * thread of its own. They claim queued jobs from the database (polling, and at once when this
 * replica queued one), send heartbeats for the jobs they run, take over jobs whose worker went
 * silent for {@code CsvProcessing__OrphanedJobRecoveryDelay}, mark jobs without progress stalled,
 * and fail jobs that got no upload within {@code CsvProcessing__AbandonedJobExpiry}. Stopping, each
 * running job finishes its chunk and is given back.
 */
public final class CsvJobWorkers implements AutoCloseable {

  /** How often an idle replica looks for queued jobs. */
  static final Duration POLL_INTERVAL = Duration.ofSeconds(1);

  /** The error of a job that got no upload within {@code CsvProcessing__AbandonedJobExpiry}. */
  static final String ABANDONED =
      "No file was uploaded within CsvProcessing__AbandonedJobExpiry of the job's creation: the"
          + " job expired.";

  private static final Logger LOG = LoggerFactory.getLogger(CsvJobWorkers.class);

  private final Vertx vertx;
  private final CsvJobRepository repository;
  private final CsvProcessingConfig config;
  private final String worker;
  private final CsvJobRunner runner;
  private final ExecutorService threads;
  private final Semaphore free;
  private final Set<UUID> running = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final AtomicBoolean claiming = new AtomicBoolean();
  private final long[] timers;

  private CsvJobWorkers(
      Vertx vertx,
      CsvJobRepository repository,
      CsvProcessingConfig config,
      String worker,
      CsvJobRunner runner) {
    this.vertx = vertx;
    this.repository = repository;
    this.config = config;
    this.worker = worker;
    this.runner = runner;
    AtomicInteger number = new AtomicInteger();
    this.threads =
        Executors.newFixedThreadPool(
            config.workerCount(),
            task -> {
              Thread thread = new Thread(task, "vfps-csv-job-" + number.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
    this.free = new Semaphore(config.workerCount());
    long heartbeat = Math.max(250, config.orphanedJobRecoveryDelay().toMillis() / 4);
    long watchdog = Math.max(1000, Math.min(30_000, config.stalledJobThreshold().toMillis() / 4));
    this.timers =
        new long[] {
          vertx.setPeriodic(POLL_INTERVAL.toMillis(), id -> claim()),
          vertx.setPeriodic(heartbeat, id -> heartbeat()),
          vertx.setPeriodic(watchdog, id -> markStalled()),
          vertx.setPeriodic(watchdog, id -> expireAbandoned())
        };
  }

  /**
   * Starts the workers of this replica.
   *
   * @param worker this replica's name among the workers, unique in the cluster
   * @param phases where the time of the jobs' phases is added up
   * @param access where the ends of the jobs that reveal original values are audited
   */
  public static CsvJobWorkers start(
      Vertx vertx,
      CsvJobRepository repository,
      ObjectStore store,
      PseudonymService pseudonyms,
      PseudonymTransfer transfer,
      CsvProcessingConfig config,
      String worker,
      JobPhases phases,
      Access access) {
    CsvJobRunner runner =
        new CsvJobRunner(
            repository,
            store,
            pseudonyms,
            transfer,
            config,
            vertx,
            worker,
            phases,
            new JobAudit(access));
    CsvJobWorkers workers = new CsvJobWorkers(vertx, repository, config, worker, runner);
    LOG.info("CSV job workers: {} on this replica, as '{}'", config.workerCount(), worker);
    vertx.runOnContext(ignored -> workers.claim());
    return workers;
  }

  /** Looks for a queued job at once (this replica queued one). */
  public void wake() {
    vertx.runOnContext(ignored -> claim());
  }

  /** Claims jobs while a worker is free; one claim in flight at a time. */
  private void claim() {
    if (stopping.get() || !claiming.compareAndSet(false, true)) {
      return;
    }
    if (!free.tryAcquire()) {
      claiming.set(false);
      return;
    }
    repository
        .claim(worker, config.orphanedJobRecoveryDelay())
        .onComplete(
            claimed -> {
              claiming.set(false);
              if (claimed.failed() || claimed.result().isEmpty() || stopping.get()) {
                free.release();
                if (claimed.failed()) {
                  LOG.debug("No CSV job could be claimed: {}", claimed.cause().getMessage());
                }
                return;
              }
              CsvJobRepository.Run run = claimed.result().get();
              running.add(run.job().id());
              threads.execute(() -> run(run));
              claim();
            });
  }

  private void run(CsvJobRepository.Run run) {
    try {
      runner.run(run, stopping::get);
    } finally {
      running.remove(run.job().id());
      free.release();
      if (!stopping.get()) {
        wake();
      }
    }
  }

  private void heartbeat() {
    if (!running.isEmpty()) {
      repository
          .heartbeat(worker, Set.copyOf(running))
          .onFailure(failure -> LOG.debug("CSV job heartbeat failed: {}", failure.getMessage()));
    }
  }

  private void expireAbandoned() {
    repository
        .expireAbandoned(config.abandonedJobExpiry(), ABANDONED)
        .onSuccess(
            expired -> {
              if (expired > 0) {
                LOG.info(
                    "{} CSV jobs got no upload within CsvProcessing__AbandonedJobExpiry and failed",
                    expired);
              }
            })
        .onFailure(
            failure -> LOG.debug("Expiring abandoned CSV jobs failed: {}", failure.getMessage()));
  }

  private void markStalled() {
    repository
        .markStalled(config.stalledJobThreshold())
        .onSuccess(
            stalled -> {
              if (stalled > 0) {
                LOG.warn(
                    "{} CSV jobs made no progress for CsvProcessing__StalledJobThreshold and are"
                        + " marked stalled",
                    stalled);
              }
            });
  }

  /**
   * Stops claiming, lets each running job finish its chunk and give itself back, waiting at most
   * {@code CsvProcessing__JobServerShutdownTimeout}.
   */
  @Override
  public void close() {
    stopping.set(true);
    for (long timer : timers) {
      vertx.cancelTimer(timer);
    }
    threads.shutdown();
    try {
      if (!threads.awaitTermination(
          config.jobServerShutdownTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
        LOG.warn(
            "CSV jobs {} did not give themselves back within"
                + " CsvProcessing__JobServerShutdownTimeout; other workers take them over after"
                + " CsvProcessing__OrphanedJobRecoveryDelay",
            running);
        threads.shutdownNow();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      threads.shutdownNow();
    }
  }
}
