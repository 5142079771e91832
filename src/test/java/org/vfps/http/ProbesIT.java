package org.vfps.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.vfps.HttpTestClient;
import org.vfps.HttpTestClient.Response;
import org.vfps.TcpProxy;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.config.ConnectionSettings;
import org.vfps.server.VfpsServer;

/** The probes follow PostgreSQL: ready and healthy while it answers, not while it is cut off. */
class ProbesIT {

  @Test
  void probesAreUpWhileTheDatabaseAnswersAndReadinessFollowsItsOutage() {
    ConnectionSettings database = TestPostgres.database();
    try (TcpProxy proxy = new TcpProxy(database.host(), database.port())) {
      String connectionString = proxy.connectionString(database);
      try (VfpsServer server =
              TestService.start(Map.of("ConnectionStrings__PostgreSQL", connectionString));
          HttpTestClient http = new HttpTestClient(server.httpPort())) {
        assertProbe(http.get("/livez"), 200, "UP", Map.of("process", "UP"));
        assertProbe(
            http.get("/readyz"),
            200,
            "UP",
            Map.of("startup", "UP", "shutdown", "UP", "database", "UP"));
        assertProbe(
            http.get("/healthz"),
            200,
            "UP",
            Map.of("process", "UP", "startup", "UP", "shutdown", "UP", "database", "UP"));

        proxy.cut();
        assertProbe(http.get("/livez"), 200, "UP", Map.of("process", "UP"));
        assertProbe(
            http.get("/readyz"),
            503,
            "DOWN",
            Map.of("startup", "UP", "shutdown", "UP", "database", "DOWN"));
        assertProbe(
            http.get("/healthz"),
            503,
            "DOWN",
            Map.of("process", "UP", "startup", "UP", "shutdown", "UP", "database", "DOWN"));

        proxy.open();
        Response after =
            await("/readyz answering 200 once the database is back")
                .atMost(Duration.ofSeconds(20))
                .until(() -> http.get("/readyz"), response -> response.status() == 200);
        assertProbe(after, 200, "UP", Map.of("startup", "UP", "shutdown", "UP", "database", "UP"));
        assertThat(http.get("/healthz").status()).isEqualTo(200);
      }
    }
  }

  @Test
  void probesAreNeverCachedAndAnswerJson() {
    try (VfpsServer server = TestService.start();
        HttpTestClient http = new HttpTestClient(server.httpPort())) {
      for (String path : List.of("/livez", "/readyz", "/healthz")) {
        Response response = http.get(path);
        assertThat(response.headers().firstValue("cache-control")).as(path).contains("no-store");
        assertThat(response.contentType()).as(path).startsWith("application/json");
      }
    }
  }

  private static void assertProbe(
      Response response, int status, String outcome, Map<String, String> checks) {
    assertThat(response.status()).as(response.body()).isEqualTo(status);
    JsonObject body = response.json();
    assertThat(body.getString("status")).isEqualTo(outcome);
    Map<String, String> seen =
        body.getJsonArray("checks").stream()
            .map(JsonObject.class::cast)
            .collect(
                Collectors.toMap(
                    check -> check.getString("id"), check -> check.getString("status")));
    assertThat(seen).isEqualTo(checks);
  }
}
