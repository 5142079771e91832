package org.vfps.job;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.ClassResources;
import org.vfps.HttpTestClient;
import org.vfps.LogCapture;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.objectstore.TestObjectStore;
import org.vfps.server.VfpsServer;

/**
 * A de-pseudonymize job over an alphabet namespace with a check digit and groups, through the S3
 * test server: a pseudonym is revealed with or without its group delimiters, and a mistyped one
 * stays as it is, as an unknown one does, without failing the job or the other rows of its chunk.
 */
class CheckDigitCsvJobIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  @RegisterExtension final LogCapture logs = LogCapture.of(Logger.ROOT_LOGGER_NAME);

  private static HttpTestClient http;
  private static CsvJobClient jobs;

  @BeforeAll
  static void start() {
    Map<String, String> environment = new HashMap<>(TestObjectStore.environment());
    environment.put("ConnectionStrings__PostgreSQL", TestPostgres.uri());
    VfpsServer server = resources.own(TestService.start(environment));
    http = resources.own(new HttpTestClient(server.httpPort()));
    jobs = new CsvJobClient(http);
  }

  @Test
  void aMistypedPseudonymStaysAsItIsAndTheOthersAreRevealed() {
    String namespace = "check-digit-csv-" + UUID.randomUUID();
    HttpTestClient.Response created =
        http.postJson(
            "/v1/namespaces",
            new JsonObject()
                .put("name", namespace)
                .put(
                    "pseudonymGenerationMethod",
                    "PSEUDONYM_GENERATION_METHOD_X_SECURE_RANDOM_ALPHABET")
                .put("pseudonymLength", 8)
                .put("pseudonymPrefix", "V")
                .put(
                    "xFormat",
                    new JsonObject()
                        .put("alphabet", "0123456789")
                        .put("checkDigit", "CHECK_DIGIT_VERHOEFF")
                        .put("groupSize", 3)
                        .put("groupDelimiter", "."))
                .encode());
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    JsonArray pseudonyms =
        http.postJson(
                "/v1/namespaces/" + namespace + "/pseudonyms:batchCreate",
                new JsonObject()
                    .put("originalValues", new JsonArray().add("anna").add("ben").add("carl"))
                    .encode())
            .json()
            .getJsonArray("pseudonyms");
    String anna = pseudonyms.getJsonObject(0).getString("pseudonymValue");
    String ben = pseudonyms.getJsonObject(1).getString("pseudonymValue");
    String carl = pseudonyms.getJsonObject(2).getString("pseudonymValue");
    assertThat(anna).matches("V\\d{3}\\.\\d{3}\\.\\d{3}");
    String mistyped = mistyped(carl);

    JsonObject started =
        jobs.submit(
            CsvJobClient.request(
                "DEPSEUDONYMIZE",
                Map.of("hasHeaderRow", true),
                CsvJobClient.mapping("patient", null, namespace)),
            ("row,patient\n1,"
                    + anna
                    + "\n2,"
                    + mistyped
                    + "\n3,"
                    + ben.replace(".", "")
                    + "\n4,V000\n")
                .getBytes(StandardCharsets.UTF_8));
    JsonObject done = jobs.awaitEnd(started.getString("id"), Duration.ofSeconds(60));

    assertThat(done.getString("status")).as(done.encode()).isEqualTo("CSV_JOB_STATUS_COMPLETED");
    assertThat(done.getString("errorMessage")).isEmpty();
    assertThat(done.getLong("rowsProcessed")).isEqualTo(4);
    assertThat(CsvJobClient.download(done))
        .isEqualTo("row,patient\n1,anna\n2," + mistyped + "\n3,ben\n4,V000\n");
    for (ILoggingEvent event : logs.atLeast(Level.TRACE)) {
      assertThat(event.getLevel()).as(event.getFormattedMessage()).isNotEqualTo(Level.ERROR);
      assertThat(event.getThrowableProxy()).as(event.getFormattedMessage()).isNull();
    }
  }

  /** The pseudonym with its last character, the Verhoeff check digit, changed. */
  private static String mistyped(String pseudonym) {
    char check = pseudonym.charAt(pseudonym.length() - 1);
    return pseudonym.substring(0, pseudonym.length() - 1) + (char) ('0' + (check - '0' + 1) % 10);
  }
}
