package org.vfps.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.ClassResources;
import org.vfps.TestPostgres;
import org.vfps.config.ConnectionSettings;
import org.vfps.job.ColumnMapping;
import org.vfps.job.CsvJob;
import org.vfps.job.CsvJobRepository;
import org.vfps.job.JobDirection;
import org.vfps.job.JobStatus;
import org.vfps.job.PseudonymizeMode;

/**
 * The protocol by which workers share jobs, on a database of its own (no other test's queued jobs):
 * one claim per job, a silent worker's job taken over, a worker that lost its job told so, a job
 * without progress marked stalled and running again once it progresses.
 */
class PgCsvJobRepositoryIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static ConnectionSettings settings;
  private static CsvJobRepository jobs;

  @BeforeAll
  static void connect() {
    settings = TestPostgres.freshDatabase();
    Migrations.migrate(settings);
    Vertx vertx = resources.own(Vertx.vertx(), Vertx::close);
    jobs = resources.own(Database.connect(vertx, settings)).csvJobs();
  }

  private static CsvJob queued() {
    return inserted(JobStatus.QUEUED);
  }

  private static CsvJob inserted(JobStatus status) {
    Instant now = Instant.now();
    CsvJob job =
        new CsvJob(
            UUID.randomUUID(),
            JobDirection.EXPORT,
            status,
            "someone",
            null,
            null,
            "export.csv",
            ',',
            true,
            List.of(new ColumnMapping("o", "p", "ns", null)),
            PseudonymizeMode.CREATE_IF_MISSING,
            true,
            CsvJob.Counters.NONE,
            null,
            now,
            now);
    jobs.insert(job, "{\"subject\": \"someone\"}").await();
    return job;
  }

  private static void execute(String sql, UUID id) {
    TestPostgres.execute(settings, sql.formatted(id));
  }

  @Test
  void twoWorkersClaimingAtOnceGetTheJobOnceAndASilentWorkersJobIsTakenOver() {
    CsvJob job = queued();
    Duration delay = Duration.ofSeconds(30);

    Future<Optional<CsvJobRepository.Run>> a = jobs.claim("worker-a", delay);
    Future<Optional<CsvJobRepository.Run>> b = jobs.claim("worker-b", delay);
    Future.all(a, b).await();
    assertThat(List.of(a.result(), b.result())).filteredOn(Optional::isPresent).hasSize(1);
    String holder = a.result().isPresent() ? "worker-a" : "worker-b";
    String other = holder.equals("worker-a") ? "worker-b" : "worker-a";
    CsvJobRepository.Run run = (a.result().isPresent() ? a.result() : b.result()).orElseThrow();
    assertThat(run.job().status()).isEqualTo(JobStatus.RUNNING);
    assertThat(run.attempt()).isEqualTo(1);
    assertThat(run.checkpoint()).isNull();

    // its heartbeat is fresh: nobody else takes it
    assertThat(jobs.claim(other, delay).await()).isEmpty();
    assertThat(jobs.checkpoint(job.id(), holder, "{\"at\": 1}", 0, new byte[] {1, 2}, null).await())
        .isTrue();

    // silent for longer than the delay: another worker takes it over, with its checkpoint
    execute(
        "UPDATE vfps_csv_job_runs SET heartbeat_at = now() - interval '1 minute' WHERE job_id = '%s'",
        job.id());
    CsvJobRepository.Run taken = jobs.claim(other, delay).await().orElseThrow();
    assertThat(taken.attempt()).isEqualTo(2);
    assertThat(taken.checkpoint()).contains("\"at\"");
    assertThat(taken.pendingOutput()).hasSize(1);
    assertThat(taken.pendingOutput().getFirst()).containsExactly(1, 2);

    // the first worker learns that it lost the job, and can neither move it nor end it
    assertThat(jobs.checkpoint(job.id(), holder, "{\"at\": 2}", 1, new byte[] {3}, null).await())
        .isFalse();
    assertThat(
            jobs.finish(job.id(), holder, JobStatus.COMPLETED, CsvJob.Counters.NONE, "k", null)
                .await())
        .isFalse();
    assertThat(
            jobs.finish(job.id(), other, JobStatus.COMPLETED, CsvJob.Counters.NONE, "k", null)
                .await())
        .isTrue();
    assertThat(jobs.find(job.id()).await().orElseThrow().status()).isEqualTo(JobStatus.COMPLETED);
    assertThat(jobs.claim(holder, Duration.ofMillis(1)).await()).isEmpty();
  }

  @Test
  void aJobWithoutProgressIsStalledUntilItProgressesAndACancelledOneIsLost() {
    CsvJob job = queued();
    jobs.claim("worker-c", Duration.ofSeconds(30)).await().orElseThrow();
    execute(
        "UPDATE pseudonymization_jobs SET last_updated_at = now() - interval '1 hour' WHERE id = '%s'",
        job.id());

    assertThat(jobs.markStalled(Duration.ofMinutes(10)).await()).isGreaterThanOrEqualTo(1);
    assertThat(jobs.find(job.id()).await().orElseThrow().status()).isEqualTo(JobStatus.STALLED);

    CsvJob.Counters progressed = new CsvJob.Counters(0, 0, 10, 0, 0, 0, 3, 2);
    assertThat(jobs.checkpoint(job.id(), "worker-c", "{}", 0, new byte[0], progressed).await())
        .isTrue();
    CsvJob running = jobs.find(job.id()).await().orElseThrow();
    assertThat(running.status()).isEqualTo(JobStatus.RUNNING);
    assertThat(running.counters().rowsProcessed()).isEqualTo(10);
    assertThat(running.counters().neutralizedCells()).isEqualTo(3);
    assertThat(running.counters().mistypedPseudonyms()).isEqualTo(2);
    assertThat(running.neutralizeFormulas()).isTrue();

    assertThat(jobs.cancel(job.id()).await().orElseThrow().status()).isEqualTo(JobStatus.CANCELLED);
    assertThat(jobs.checkpoint(job.id(), "worker-c", "{}", 1, new byte[0], null).await()).isFalse();
    // a given-back job is claimable at once; an ended one never
    assertThat(jobs.claim("worker-d", Duration.ofSeconds(30)).await()).isEmpty();
  }

  @Test
  void onlyJobsAwaitingTheirUploadLongerThanTheExpiryFailAsAbandoned() {
    CsvJob abandoned = inserted(JobStatus.AWAITING_UPLOAD);
    CsvJob fresh = inserted(JobStatus.AWAITING_UPLOAD);
    // an old job of another status (not a queued one: the other tests claim the oldest)
    CsvJob oldCancelled = inserted(JobStatus.CANCELLED);
    for (CsvJob old : List.of(abandoned, oldCancelled)) {
      execute(
          "UPDATE pseudonymization_jobs SET created_at = now() - interval '2 days' WHERE id = '%s'",
          old.id());
    }

    assertThat(jobs.expireAbandoned(Duration.ofDays(1), "expired").await()).isEqualTo(1);

    CsvJob expired = jobs.find(abandoned.id()).await().orElseThrow();
    assertThat(expired.status()).isEqualTo(JobStatus.FAILED);
    assertThat(expired.errorMessage()).isEqualTo("expired");
    assertThat(jobs.find(fresh.id()).await().orElseThrow().status())
        .isEqualTo(JobStatus.AWAITING_UPLOAD);
    assertThat(jobs.find(oldCancelled.id()).await().orElseThrow().status())
        .isEqualTo(JobStatus.CANCELLED);
    assertThat(jobs.expireAbandoned(Duration.ofDays(1), "expired").await()).isZero();
  }
}
