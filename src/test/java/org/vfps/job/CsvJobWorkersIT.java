package org.vfps.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.ClassResources;
import org.vfps.HttpTestClient;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.objectstore.TestObjectStore;
import org.vfps.server.VfpsServer;

/**
 * Workers on several replicas: a job whose worker is killed mid-job is taken over and resumed, and
 * its result is the file an uninterrupted run writes; a stopping replica gives its job back at
 * once; jobs queued with two replicas running each run once.
 */
class CsvJobWorkersIT {

  private static final Duration TIMEOUT = Duration.ofSeconds(120);

  /** Rows enough for three parts of 5 MiB of output. */
  private static final int ROWS = 90_000;

  // per test: a replica a test leaves running would claim the next test's jobs
  @RegisterExtension final ClassResources resources = ClassResources.perTest();

  private static Map<String, String> environment(String recovery) {
    Map<String, String> environment = new HashMap<>(TestObjectStore.environment());
    environment.put("ConnectionStrings__PostgreSQL", TestPostgres.uri());
    environment.put("CsvProcessing__CheckpointBytes", Integer.toString(5 * 1024 * 1024));
    environment.put("CsvProcessing__OrphanedJobRecoveryDelay", recovery);
    return environment;
  }

  /** A file of {@link #ROWS} distinct values, each row padded to about 190 bytes of output. */
  private static byte[] largeFile() {
    StringBuilder file = new StringBuilder("id,payload\n");
    String padding = "x".repeat(160);
    for (int i = 0; i < ROWS; i++) {
      file.append("value-").append(i).append(',').append(padding).append('\n');
    }
    return file.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static String namespace(HttpTestClient http) {
    String name = "workers-" + UUID.randomUUID();
    HttpTestClient.Response created =
        http.postJson(
            "/v1/namespaces",
            new JsonObject()
                .put("name", name)
                .put(
                    "pseudonymGenerationMethod",
                    "PSEUDONYM_GENERATION_METHOD_SECURE_RANDOM_BASE64URL_ENCODED")
                .put("pseudonymLength", 16)
                .encode());
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    return name;
  }

  private static JsonObject pseudonymize(String namespace) {
    return CsvJobClient.request(
        "PSEUDONYMIZE",
        Map.of("fileName", "large.csv"),
        CsvJobClient.mapping("id", null, namespace));
  }

  /** The rows the job has processed, as the database says (any replica's view). */
  private static long rowsProcessed(String id) {
    return TestPostgres.queryLong(
        TestPostgres.database(),
        "SELECT rows_processed FROM pseudonymization_jobs WHERE id = ?::uuid",
        id);
  }

  private static long attempts(String id) {
    return TestPostgres.queryLong(
        TestPostgres.database(),
        "SELECT attempt FROM vfps_csv_job_runs WHERE job_id = ?::uuid",
        id);
  }

  private static void awaitRows(String id, long rows, Process process, Path log) throws Exception {
    Instant deadline = Instant.now().plus(TIMEOUT);
    while (rowsProcessed(id) < rows) {
      assertThat(process == null || process.isAlive())
          .as(log == null ? "" : Files.readString(log))
          .isTrue();
      assertThat(Instant.now()).as("the job reached no row " + rows).isBefore(deadline);
      TimeUnit.MILLISECONDS.sleep(50);
    }
  }

  @Test
  void aJobWhoseWorkerIsKilledIsResumedByAnotherAndWritesWhatAnUninterruptedRunWrites()
      throws Exception {
    int httpPort = TestService.freePort();
    Path log =
        resources.own(Files.createTempFile("vfps-killed-worker", ".log"), Files::deleteIfExists);
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of("-jar", System.getProperty("vfps.jar", "target/vfps.jar"), "serve"));
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().clear();
    builder.environment().putAll(environment("0.00:00:02"));
    builder.environment().put("CsvProcessing__ProgressUpdateInterval", "0.00:00:00.2");
    builder.environment().put("Http__Port", Integer.toString(httpPort));
    builder.environment().put("Grpc__Port", Integer.toString(TestService.freePort()));
    builder.environment().put("MetricsPort", "0");
    Process first = resources.own(builder.start(), Process::destroyForcibly);
    Instant started = Instant.now().plusSeconds(60);
    while (!Files.readString(log).contains(" started in ")) {
      assertThat(first.isAlive()).as(Files.readString(log)).isTrue();
      assertThat(Instant.now()).as(Files.readString(log)).isBefore(started);
      TimeUnit.MILLISECONDS.sleep(100);
    }
    byte[] file = largeFile();
    String id;
    String namespace;
    try (HttpTestClient http = new HttpTestClient(httpPort)) {
      namespace = namespace(http);
      id = new CsvJobClient(http).submit(pseudonymize(namespace), file).getString("id");
    }
    // past the first part of the output, before the end
    awaitRows(id, ROWS / 2, first, log);
    first.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    long atKill = rowsProcessed(id);
    assertThat(atKill).as(Files.readString(log)).isLessThan(ROWS);

    VfpsServer second = resources.own(TestService.start(environment("0.00:00:02")));
    HttpTestClient http = resources.own(new HttpTestClient(second.httpPort()));
    CsvJobClient jobs = new CsvJobClient(http);
    JsonObject resumed = jobs.awaitEnd(id, TIMEOUT);
    JsonObject uninterrupted =
        jobs.awaitEnd(jobs.submit(pseudonymize(namespace), file).getString("id"), TIMEOUT);

    assertThat(resumed.getLong("rowsProcessed")).isEqualTo(ROWS);
    assertThat(attempts(id)).isEqualTo(2);
    assertThat(CsvJobClient.download(resumed)).isEqualTo(CsvJobClient.download(uninterrupted));
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(ROWS);
  }

  @Test
  void aStoppingReplicaGivesItsJobBackAndAnotherFinishesItAtOnce() throws Exception {
    // the taker's recovery delay is long: only a job given back is its to take
    Map<String, String> giver = environment("0.00:10:00");
    giver.put("CsvProcessing__ProgressUpdateInterval", "0.00:00:00.2");
    VfpsServer first = TestService.start(giver);
    byte[] file = largeFile();
    String id;
    String namespace;
    try (HttpTestClient http = new HttpTestClient(first.httpPort())) {
      namespace = namespace(http);
      id = new CsvJobClient(http).submit(pseudonymize(namespace), file).getString("id");
      awaitRows(id, ROWS / 3, null, null);
    } finally {
      first.close();
    }
    assertThat(rowsProcessed(id)).isLessThan(ROWS);

    VfpsServer second = resources.own(TestService.start(environment("0.00:10:00")));
    CsvJobClient jobs = new CsvJobClient(resources.own(new HttpTestClient(second.httpPort())));
    JsonObject resumed = jobs.awaitEnd(id, TIMEOUT);
    JsonObject uninterrupted =
        jobs.awaitEnd(jobs.submit(pseudonymize(namespace), file).getString("id"), TIMEOUT);

    assertThat(attempts(id)).isEqualTo(2);
    assertThat(CsvJobClient.download(resumed)).isEqualTo(CsvJobClient.download(uninterrupted));
  }

  @Test
  void jobsQueuedWithTwoReplicasRunningEachRunOnce() {
    VfpsServer one = resources.own(TestService.start(environment("0.00:02:00")));
    VfpsServer two = resources.own(TestService.start(environment("0.00:02:00")));
    HttpTestClient oneHttp = resources.own(new HttpTestClient(one.httpPort()));
    HttpTestClient twoHttp = resources.own(new HttpTestClient(two.httpPort()));
    String namespace = namespace(oneHttp);
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      CsvJobClient jobs = new CsvJobClient(i % 2 == 0 ? oneHttp : twoHttp);
      String file = "id\n" + "shared-" + (i % 3) + "\nown-" + i + "\n";
      ids.add(
          jobs.submit(pseudonymize(namespace), file.getBytes(StandardCharsets.UTF_8))
              .getString("id"));
    }
    CsvJobClient jobs = new CsvJobClient(oneHttp);
    for (String id : ids) {
      assertThat(jobs.awaitEnd(id, TIMEOUT).getString("status"))
          .isEqualTo("CSV_JOB_STATUS_COMPLETED");
      assertThat(attempts(id)).isEqualTo(1);
    }
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(3 + 8);
  }
}
