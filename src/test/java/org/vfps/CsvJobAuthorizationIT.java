package org.vfps;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.auth.TestOidcProvider;
import org.vfps.objectstore.TestObjectStore;
import org.vfps.server.VfpsServer;

/**
 * The permissions of CSV jobs with the upstream role model: each direction's permission on its
 * namespaces, every namespace for an import that reads each row's, and a caller's own jobs only.
 */
class CsvJobAuthorizationIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static TestOidcProvider provider;
  private static HttpTestClient http;
  private static String namespace;
  private static Map<String, String> callers;

  @BeforeAll
  static void start() {
    provider = resources.own(new TestOidcProvider().start());
    namespace = "jobs-auth-" + UUID.randomUUID();
    Map<String, String> env = new HashMap<>(TestObjectStore.environment());
    env.put("ConnectionStrings__PostgreSQL", TestPostgres.uri());
    env.putAll(AuthorizationIT.authorization(provider, namespace));
    VfpsServer server = resources.own(TestService.start(env));
    http = resources.own(new HttpTestClient(server.httpPort()));
    callers = new LinkedHashMap<>();
    callers.put("admin", "Bearer " + provider.token("alice", "vfps-admin"));
    callers.put("reader", "Bearer " + provider.token("rita", "study-read"));
    callers.put("writer", "Bearer " + provider.token("walt", "study-write"));
    callers.put("auditor", "Bearer " + provider.token("aude", "study-auditor"));
    HttpTestClient.Response created =
        http.send(
            "POST",
            "/v1/namespaces",
            Map.of("authorization", callers.get("admin")),
            new JsonObject().put("name", namespace).put("pseudonymLength", 16).encode());
    assertThat(created.status()).as(created.body()).isEqualTo(200);
  }

  private static HttpTestClient.Response create(
      String caller, String direction, JsonObject mapping) {
    JsonObject request =
        new JsonObject()
            .put("direction", "CSV_JOB_DIRECTION_" + direction)
            .put("columnMappings", new JsonArray(List.of(mapping)));
    return http.send(
        "POST",
        "/v1/csv-jobs",
        caller == null ? Map.of() : Map.of("authorization", callers.get(caller)),
        request.encode());
  }

  private static JsonObject mapping() {
    return new JsonObject()
        .put("sourceColumn", "o")
        .put("targetColumn", "p")
        .put("namespace", namespace);
  }

  @Test
  void eachDirectionNeedsItsPermissionOnItsNamespace() {
    Map<String, Map<String, Integer>> statuses = new LinkedHashMap<>();
    for (String caller : callers.keySet()) {
      Map<String, Integer> byDirection = new LinkedHashMap<>();
      for (String direction : List.of("PSEUDONYMIZE", "DEPSEUDONYMIZE", "IMPORT", "EXPORT")) {
        byDirection.put(direction, create(caller, direction, mapping()).status());
      }
      byDirection.put(
          "IMPORT with a namespace column",
          create(
                  caller,
                  "IMPORT",
                  new JsonObject()
                      .put("sourceColumn", "o")
                      .put("targetColumn", "p")
                      .put("namespaceColumn", "ns"))
              .status());
      statuses.put(caller, byDirection);
    }

    assertThat(statuses.get("admin"))
        .allSatisfy((direction, status) -> assertThat(status).isEqualTo(200));
    assertThat(statuses.get("reader"))
        .allSatisfy((direction, status) -> assertThat(status).isEqualTo(403));
    assertThat(statuses.get("writer"))
        .isEqualTo(
            Map.of(
                "PSEUDONYMIZE", 200,
                "DEPSEUDONYMIZE", 403,
                "IMPORT", 200,
                "EXPORT", 403,
                "IMPORT with a namespace column", 403));
    assertThat(statuses.get("auditor"))
        .isEqualTo(
            Map.of(
                "PSEUDONYMIZE", 403,
                "DEPSEUDONYMIZE", 200,
                "IMPORT", 403,
                "EXPORT", 200,
                "IMPORT with a namespace column", 403));
    assertThat(create(null, "EXPORT", mapping()).status()).isEqualTo(401);
  }

  @Test
  void aCallerSeesAndControlsItsOwnJobsAndAnAdminEveryJob() {
    HttpTestClient.Response created = create("writer", "PSEUDONYMIZE", mapping());
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    String id = created.json().getString("id");

    Map<String, String> auditor = Map.of("authorization", callers.get("auditor"));
    Map<String, String> admin = Map.of("authorization", callers.get("admin"));
    Map<String, String> writer = Map.of("authorization", callers.get("writer"));
    assertThat(http.send("GET", "/v1/csv-jobs/" + id, auditor, null).status()).isEqualTo(404);
    assertThat(http.send("POST", "/v1/csv-jobs/" + id + ":cancel", auditor, "{}").status())
        .isEqualTo(404);
    assertThat(ids(http.send("GET", "/v1/csv-jobs", auditor, null))).doesNotContain(id);
    assertThat(ids(http.send("GET", "/v1/csv-jobs", writer, null))).contains(id);
    assertThat(ids(http.send("GET", "/v1/csv-jobs", admin, null))).contains(id);
    HttpTestClient.Response cancelled =
        http.send("POST", "/v1/csv-jobs/" + id + ":cancel", admin, "{}");
    assertThat(cancelled.json().getString("status")).isEqualTo("CSV_JOB_STATUS_CANCELLED");
    assertThat(cancelled.json().getString("createdBy")).isNotEmpty();
  }

  private static List<String> ids(HttpTestClient.Response list) {
    assertThat(list.status()).as(list.body()).isEqualTo(200);
    return list.json().getJsonArray("jobs").stream()
        .map(job -> ((JsonObject) job).getString("id"))
        .toList();
  }
}
