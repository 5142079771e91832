package org.vfps.job;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.ClassResources;
import org.vfps.HttpTestClient;
import org.vfps.LogCapture;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.objectstore.TestObjectStore;
import org.vfps.server.VfpsServer;
import org.vfps.voprf.server.TestVoprfServer;

/** A pseudonymize job on a VOPRF namespace: its chunks go to the VOPRF server in batches. */
class VoprfCsvJobIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();
  @RegisterExtension final LogCapture audit = LogCapture.of("audit");

  @Test
  void aPseudonymizeJobSendsItsChunksInBatchesAndMakesTheSinglePseudonyms() {
    TestVoprfServer voprf = resources.own(TestVoprfServer.start());
    Map<String, String> environment = new HashMap<>(TestObjectStore.environment());
    environment.put("ConnectionStrings__PostgreSQL", TestPostgres.uri());
    environment.put("CsvProcessing__PseudonymizeBatchSize", "100");
    environment.put("Voprf__Address", "http://127.0.0.1:" + voprf.port());
    environment.put("Voprf__PublicKey", Base64.getEncoder().encodeToString(voprf.publicKey()));
    environment.put("Voprf__MaxBatchSize", "32");
    VfpsServer server = resources.own(TestService.start(environment));
    HttpTestClient http = resources.own(new HttpTestClient(server.httpPort()));
    String namespace = "voprf-job-" + UUID.randomUUID();
    assertThat(
            http.postJson(
                    "/v1/namespaces",
                    new JsonObject()
                        .put("name", namespace)
                        .put("pseudonymGenerationMethod", "PSEUDONYM_GENERATION_METHOD_VOPRF")
                        .put("pseudonymLength", 86)
                        .encode())
                .status())
        .isEqualTo(200);
    StringBuilder file = new StringBuilder("patient\n");
    for (int i = 0; i < 250; i++) {
      file.append("p-").append(i).append('\n');
    }

    CsvJobClient jobs = new CsvJobClient(http);
    JsonObject started =
        jobs.submit(
            CsvJobClient.request(
                "PSEUDONYMIZE",
                Map.of("fileName", "patients.csv"),
                CsvJobClient.mapping("patient", null, namespace)),
            file.toString().getBytes(StandardCharsets.UTF_8));
    JsonObject done = jobs.awaitEnd(started.getString("id"), Duration.ofSeconds(60));

    assertThat(done.getString("status")).isEqualTo("CSV_JOB_STATUS_COMPLETED");
    String[] lines = CsvJobClient.download(done).split("\r?\n");
    assertThat(lines).hasSize(251);
    assertThat(lines[8]).startsWith(TestVoprfServer.KEY_ID + ".").hasSize(9 + 86);
    HttpTestClient.Response single =
        http.postJson(
            "/v1/namespaces/" + namespace + "/pseudonyms",
            new JsonObject().put("originalValue", "p-7").encode());
    assertThat(single.json().getJsonObject("pseudonym").getString("pseudonymValue"))
        .isEqualTo(lines[8]);
    List<Integer> batches = new ArrayList<>();
    for (ILoggingEvent event : audit.atLeast(Level.INFO)) {
      if (event.getFormattedMessage().equals("BlindEvaluate OK")) {
        event.getKeyValuePairs().stream()
            .filter(pair -> pair.key.equals("count"))
            .forEach(pair -> batches.add(((Number) pair.value).intValue()));
      }
    }
    // chunks of 100 rows, each sent in calls of at most 32
    assertThat(batches.stream().mapToInt(Integer::intValue).sum()).isEqualTo(250);
    assertThat(batches).allMatch(count -> count <= 32).hasSizeLessThanOrEqualTo(12);
  }
}
