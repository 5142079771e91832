package org.vfps.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.vfps.access.Access;
import org.vfps.access.Audit;
import org.vfps.error.ErrorCode;
import org.vfps.objectstore.InMemoryObjectStore;

class JobEndingTest {

  private static final String WORKER = "worker-1";

  private final Vertx vertx = Vertx.vertx();
  private final InMemoryCsvJobs jobs = new InMemoryCsvJobs();
  private final InMemoryObjectStore store = new InMemoryObjectStore();
  private final JobEnding ending =
      new JobEnding(
          jobs,
          store,
          WORKER,
          new JobAudit(Access.open(new Audit(() -> null))),
          new EventLoopCalls(vertx.getOrCreateContext()));
  private final CsvJob job =
      TestJobs.job(
          JobDirection.PSEUDONYMIZE,
          PseudonymizeMode.CREATE_IF_MISSING,
          true,
          false,
          new ColumnMapping("id", null, "ns", null));

  @AfterEach
  void close() {
    vertx.close().await();
  }

  /** The job running on this worker, its input uploaded, its output holding {@code written}. */
  private RunState running(String written) {
    jobs.running(job, WORKER);
    store.put(job.inputKey(), "id\nvalue\n".getBytes(StandardCharsets.UTF_8));
    RunState state = TestJobs.state(job, store);
    state.output.append(written.getBytes(StandardCharsets.UTF_8));
    state.rows(1);
    return state;
  }

  private CsvJob stored() {
    return jobs.find(job.id()).await().orElseThrow();
  }

  @Test
  void completingUploadsTheOutputEndsTheJobAndDropsItsInput() {
    RunState state = running("id\npsn\n");

    assertThat(ending.complete(state)).isEqualTo(CsvJobRunner.Outcome.ENDED);

    String output = CsvJob.outputKey(job.id());
    assertThat(stored().status()).isEqualTo(JobStatus.COMPLETED);
    assertThat(stored().outputKey()).isEqualTo(output);
    assertThat(stored().counters().rowsProcessed()).isEqualTo(1);
    assertThat(new String(store.content(output), StandardCharsets.UTF_8)).isEqualTo("id\npsn\n");
    assertThat(store.size(job.inputKey())).isEmpty();
  }

  @Test
  void aJobTakenOverBeforeItCompletedKeepsNoOutputOfThisWorker() {
    RunState state = running("id\npsn\n");
    jobs.running(job, "worker-2");

    assertThat(ending.complete(state)).isEqualTo(CsvJobRunner.Outcome.LOST);

    assertThat(store.size(CsvJob.outputKey(job.id()))).isEmpty();
    assertThat(store.size(job.inputKey())).isPresent();
    assertThat(stored().status()).isEqualTo(JobStatus.RUNNING);
  }

  @Test
  void failingStoresTheMessageAbortsTheUploadAndDropsTheInput() {
    RunState state = running("id\n");

    assertThat(ending.fail(job, state, null, ErrorCode.FAILED_PRECONDITION, "The file is empty."))
        .isEqualTo(CsvJobRunner.Outcome.ENDED);

    assertThat(stored().status()).isEqualTo(JobStatus.FAILED);
    assertThat(stored().errorMessage()).isEqualTo("The file is empty.");
    assertThat(store.uploadOpen(state.output.uploadId())).isFalse();
    assertThat(store.size(job.inputKey())).isEmpty();
  }

  @Test
  void aRunThatFailedBeforeItHadAStateFailsWithTheJobsCounters() {
    jobs.running(job, WORKER);

    ending.fail(job, null, null, ErrorCode.INTERNAL, CsvJobRunner.PROCESSING_FAILED);

    assertThat(stored().status()).isEqualTo(JobStatus.FAILED);
    assertThat(stored().errorMessage()).isEqualTo(CsvJobRunner.PROCESSING_FAILED);
    assertThat(stored().counters()).isEqualTo(job.counters());
  }

  @Test
  void releasingGivesTheJobBackForAnyWorker() {
    RunState state = running("id\n");

    assertThat(ending.release(state)).isFalse();

    assertThat(state.outcome).isEqualTo(CsvJobRunner.Outcome.RELEASED);
    assertThat(stored().status()).isEqualTo(JobStatus.QUEUED);
    assertThat(jobs.holderOf(job.id())).isNull();
    assertThat(store.uploadOpen(state.output.uploadId())).isTrue();
  }

  @Test
  void aCancelledJobsUploadIsDroppedATakenOverOnesIsLeftToItsNewWorker() {
    RunState cancelled = running("id\n");
    jobs.cancel(job.id()).await();
    ending.lost(cancelled);
    assertThat(store.uploadOpen(cancelled.output.uploadId())).isFalse();

    RunState takenOver = running("id\n");
    jobs.running(job, "worker-2");
    ending.lost(takenOver);
    assertThat(store.uploadOpen(takenOver.output.uploadId())).isTrue();
  }

  @Test
  void aPauseLeavesTheJobAsItIs() {
    RunState state = running("id\n");

    assertThat(ending.paused(job, "the object store is away"))
        .isEqualTo(CsvJobRunner.Outcome.PAUSED);

    assertThat(stored().status()).isEqualTo(JobStatus.RUNNING);
    assertThat(jobs.holderOf(job.id())).isEqualTo(WORKER);
    assertThat(store.uploadOpen(state.output.uploadId())).isTrue();
    assertThat(store.size(job.inputKey())).isPresent();
  }
}
