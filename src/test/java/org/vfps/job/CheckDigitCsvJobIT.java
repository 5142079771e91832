package org.vfps.job;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.AlphabetNamespaces;
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
 * stays as it is, as an unknown one does, without failing the job or the other rows of its chunk;
 * the job counts each cell of a mistyped one, and not the unknown one.
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
    List<String> pseudonyms =
        AlphabetNamespaces.createWithPseudonyms(
            http, namespace, 8, "CHECK_DIGIT_VERHOEFF", 3, ".", "anna", "ben", "carl");
    String anna = pseudonyms.get(0);
    String ben = pseudonyms.get(1);
    assertThat(anna).matches("\\d{3}\\.\\d{3}\\.\\d{3}");
    String mistyped = AlphabetNamespaces.mistyped(pseudonyms.get(2));

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
                    + "\n4,000\n5,"
                    + mistyped
                    + "\n")
                .getBytes(StandardCharsets.UTF_8));
    JsonObject done = jobs.awaitEnd(started.getString("id"), Duration.ofSeconds(60));

    assertThat(done.getString("status")).as(done.encode()).isEqualTo("CSV_JOB_STATUS_COMPLETED");
    assertThat(done.getString("errorMessage")).isEmpty();
    assertThat(done.getLong("rowsProcessed")).isEqualTo(5);
    assertThat(CsvJobClient.download(done))
        .isEqualTo("row,patient\n1,anna\n2," + mistyped + "\n3,ben\n4,000\n5," + mistyped + "\n");
    assertThat(done.getLong("xMistypedPseudonymCount"))
        .as("the mistyped pseudonym's two cells, not the unknown one")
        .isEqualTo(2);
    assertThat(done.getLong("unresolvedValueCount")).isZero();
    for (ILoggingEvent event : logs.atLeast(Level.TRACE)) {
      assertThat(event.getLevel()).as(event.getFormattedMessage()).isNotEqualTo(Level.ERROR);
      assertThat(event.getThrowableProxy()).as(event.getFormattedMessage()).isNull();
    }
  }
}
