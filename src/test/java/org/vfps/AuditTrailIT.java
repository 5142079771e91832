package org.vfps;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The audit trail of the packaged service as an operator collects it: {@code java -jar vfps.jar
 * serve} with a checkpoint key made by {@code audit new-key} writes its log in either format; after
 * reverse lookups and a stop, {@code audit verify} holds the log to its chain and its checkpoints
 * (exit 0), and a line deleted from it is named (exit 1).
 */
class AuditTrailIT {

  private final HttpClient http = HttpClient.newHttpClient();

  @ParameterizedTest
  @ValueSource(strings = {"text", "json"})
  void theServicesLogVerifiesAndADeletedLineIsNamed(String format, @TempDir Path dir)
      throws Exception {
    Path key = dir.resolve("audit-key.pem");
    CommandLineIT.Run newKey =
        CommandLineIT.run(Map.of(), "audit", "new-key", "--out", key.toString());
    assertThat(newKey.exitCode()).as(newKey.output()).isZero();
    Path log = dir.resolve("vfps.log");
    int httpPort = TestService.freePort();
    ProcessBuilder builder =
        CommandLineIT.jarCommand("serve").redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().clear();
    builder
        .environment()
        .putAll(
            Map.of(
                "ConnectionStrings__PostgreSQL", TestPostgres.uri(),
                "Grpc__Port", Integer.toString(TestService.freePort()),
                "Http__Port", Integer.toString(httpPort),
                "MetricsPort", "0",
                "Logging__Format", format,
                "Audit__SigningKeyFile", key.toString(),
                "Audit__CheckpointEvery", "3"));
    Process service = builder.start();
    try {
      Awaitility.await("the start")
          .atMost(Duration.ofSeconds(60))
          .until(() -> !service.isAlive() || Files.readString(log).contains(" started in "));
      assertThat(service.isAlive()).as(Files.readString(log)).isTrue();
      lookUpPseudonyms(httpPort, 8);
    } finally {
      service.destroy();
      if (!service.waitFor(30, TimeUnit.SECONDS)) {
        service.destroyForcibly().waitFor();
      }
    }
    assertThat(Files.readString(log)).contains("audit.checkpoint");

    CommandLineIT.Run verified = verify(key, log);

    assertThat(verified.exitCode()).as(verified.output()).isZero();
    assertThat(verified.output()).contains("OK: every chain holds").contains("signatures checked");

    List<String> lines = new ArrayList<>(Files.readAllLines(log, StandardCharsets.UTF_8));
    int deleted = auditLines(lines).get(3);
    lines.remove(deleted - 1);
    Files.write(log, lines, StandardCharsets.UTF_8);

    CommandLineIT.Run broken = verify(key, log);

    assertThat(broken.exitCode()).as(broken.output()).isEqualTo(1);
    assertThat(broken.output()).contains("BROKEN " + log + ":" + deleted + ": deleted");
  }

  /** The jar's exit codes for the command line's mistakes: 2, with the usage. */
  @Test
  void usageErrorsOfAuditExitTwo(@TempDir Path dir) throws Exception {
    CommandLineIT.Run noFile = CommandLineIT.run(Map.of(), "audit", "verify");
    CommandLineIT.Run missing =
        CommandLineIT.run(Map.of(), "audit", "verify", dir.resolve("gone.log").toString());
    CommandLineIT.Run unknown = CommandLineIT.run(Map.of(), "audit", "sign");

    assertThat(noFile.exitCode()).as(noFile.output()).isEqualTo(2);
    assertThat(noFile.output()).contains("no log file given").contains("usage: vfps audit");
    assertThat(missing.exitCode()).as(missing.output()).isEqualTo(2);
    assertThat(missing.output()).contains("gone.log is no readable file");
    assertThat(unknown.exitCode()).as(unknown.output()).isEqualTo(2);
  }

  /** A namespace, pseudonyms of {@code count} values, and the reverse lookup of each (audited). */
  private void lookUpPseudonyms(int port, int count) throws Exception {
    String namespace = "audit-" + UUID.randomUUID();
    post(
        port,
        "/v1/namespaces",
        new JsonObject()
            .put("name", namespace)
            .put(
                "pseudonymGenerationMethod",
                "PSEUDONYM_GENERATION_METHOD_SECURE_RANDOM_BASE64URL_ENCODED")
            .put("pseudonymLength", 16));
    for (int i = 0; i < count; i++) {
      String pseudonym =
          post(
                  port,
                  "/v1/namespaces/" + namespace + "/pseudonyms",
                  new JsonObject().put("originalValue", "patient-" + i))
              .getJsonObject("pseudonym")
              .getString("pseudonymValue");
      HttpResponse<String> lookup =
          http.send(
              HttpRequest.newBuilder(
                      URI.create(
                          "http://127.0.0.1:"
                              + port
                              + "/v1/namespaces/"
                              + namespace
                              + "/pseudonyms/"
                              + pseudonym))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(lookup.statusCode()).as(lookup.body()).isEqualTo(200);
    }
  }

  private JsonObject post(int port, String path, JsonObject body)
      throws IOException, InterruptedException {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.encode()))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isBetween(200, 201);
    return new JsonObject(response.body());
  }

  private static CommandLineIT.Run verify(Path key, Path log) throws Exception {
    return CommandLineIT.run(
        Map.of(), "audit", "verify", "--public-key", key + ".pub", log.toString());
  }

  /** The numbers (from 1) of the lines of the audit logger, in either format. */
  private static List<Integer> auditLines(List<String> lines) {
    List<Integer> numbers = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.contains(" audit - ") || line.contains("\"loggerName\":\"audit\"")) {
        numbers.add(i + 1);
      }
    }
    return numbers;
  }
}
