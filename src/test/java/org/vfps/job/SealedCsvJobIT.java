package org.vfps.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.ClassResources;
import org.vfps.HttpTestClient;
import org.vfps.SealedService;
import org.vfps.objectstore.TestObjectStore;

/**
 * CSV jobs over a sealed namespace through the S3 test server, with {@code Sealing__KeyFile} set: a
 * pseudonymize job finds the values created before and a de-pseudonymize job reveals its output
 * again, an import stores pairs and an export lists them with their originals, while the table and
 * the log hold none of the original values.
 */
class SealedCsvJobIT {

  @RegisterExtension
  static final SealedService sealed = new SealedService(TestObjectStore.environment());

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  private static HttpTestClient http;
  private static CsvJobClient jobs;

  @BeforeAll
  static void connect() {
    http = resources.own(new HttpTestClient(sealed.server().httpPort()));
    jobs = new CsvJobClient(http);
  }

  private static JsonObject completed(JsonObject request, String file) {
    JsonObject started = jobs.submit(request, file.getBytes(StandardCharsets.UTF_8));
    return awaitCompleted(started);
  }

  private static JsonObject awaitCompleted(JsonObject job) {
    JsonObject done = jobs.awaitEnd(job.getString("id"), TIMEOUT);
    assertThat(done.getString("status")).as(done.encode()).isEqualTo("CSV_JOB_STATUS_COMPLETED");
    return done;
  }

  /** A pseudonym of the namespace's method that no generator made: random base32 characters. */
  private static String base32(int length) {
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    StringBuilder pseudonym = new StringBuilder();
    java.util.concurrent.ThreadLocalRandom random =
        java.util.concurrent.ThreadLocalRandom.current();
    for (int i = 0; i < length; i++) {
      pseudonym.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return pseudonym.toString();
  }

  private static List<List<String>> rows(String csv) {
    return csv.lines().map(line -> Arrays.asList(line.split(",", -1))).toList();
  }

  @Test
  void jobsPseudonymizeRevealImportAndExportASealedNamespace() {
    String namespace = "sealed-csv-" + UUID.randomUUID();
    HttpTestClient.Response namespaceCreated =
        http.postJson(
            "/v1/namespaces",
            new JsonObject()
                .put("name", namespace)
                .put(
                    "pseudonymGenerationMethod",
                    "PSEUDONYM_GENERATION_METHOD_FULL_RANDOM_BASE32_ENCODED")
                .put("pseudonymLength", 8)
                .encode());
    assertThat(namespaceCreated.status()).as(namespaceCreated.body()).isEqualTo(200);
    String anna = sealed.original("anna");
    String ben = sealed.original("ben");
    String carl = sealed.original("carl");
    String annas = jobs.createPseudonym(namespace, anna);

    JsonObject pseudonymized =
        completed(
            CsvJobClient.request(
                "PSEUDONYMIZE",
                Map.of("hasHeaderRow", true),
                CsvJobClient.mapping("patient", null, namespace)),
            "patient,note\n" + anna + ",one\n" + ben + ",two\n" + anna + ",three\n");
    String output = CsvJobClient.download(pseudonymized);
    List<List<String>> pseudonymizedRows = rows(output);
    assertThat(pseudonymizedRows).hasSize(4);
    assertThat(pseudonymizedRows.get(1)).containsExactly(annas, "one");
    assertThat(pseudonymizedRows.get(3)).containsExactly(annas, "three");
    String bens = pseudonymizedRows.get(2).getFirst();
    assertThat(bens).isNotIn(annas, ben);

    JsonObject revealed =
        completed(
            CsvJobClient.request(
                "DEPSEUDONYMIZE",
                Map.of("hasHeaderRow", true),
                CsvJobClient.mapping("patient", null, namespace)),
            output);
    assertThat(rows(CsvJobClient.download(revealed)))
        .containsExactly(
            List.of("patient", "note"),
            List.of(anna, "one"),
            List.of(ben, "two"),
            List.of(anna, "three"));
    assertThat(revealed.getLong("unresolvedValueCount")).isZero();

    String carls = base32(8);
    JsonObject imported =
        completed(
            CsvJobClient.request("IMPORT", Map.of(), CsvJobClient.mapping("o", "p", namespace)),
            "o,p\n" + carl + "," + carls + "\n" + anna + "," + base32(8) + "\n");
    assertThat(rows(CsvJobClient.download(imported)))
        .extracting(List::getLast)
        .containsExactly("status", "Imported", "OriginalValueConflict");

    JsonObject exported =
        awaitCompleted(
            jobs.create(
                CsvJobClient.request(
                    "EXPORT",
                    Map.of(),
                    CsvJobClient.mapping("original_value", "pseudonym_value", namespace))));
    List<List<String>> pairs = rows(CsvJobClient.download(exported));
    assertThat(pairs.getFirst()).containsExactly("original_value", "pseudonym_value");
    assertThat(pairs.subList(1, pairs.size()))
        .containsExactlyInAnyOrder(List.of(anna, annas), List.of(ben, bens), List.of(carl, carls));

    sealed.assertOriginalsHidden();
  }
}
