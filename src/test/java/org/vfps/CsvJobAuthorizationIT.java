package org.vfps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.grpc.common.GrpcStatus;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.access.Audit;
import org.vfps.api.x.csvjobs.v1.CsvJob;
import org.vfps.api.x.csvjobs.v1.CsvJobServiceGrpcClient;
import org.vfps.api.x.csvjobs.v1.GetCsvJobRequest;
import org.vfps.auth.TestOidcProvider;
import org.vfps.objectstore.TestObjectStore;
import org.vfps.server.VfpsServer;

/**
 * The permissions of CSV jobs with the upstream role model: each direction's permission on its
 * namespaces, every namespace for an import that reads each row's, and a caller's own jobs only; a
 * result handed out only while its reader still has the right, with URLs of a few minutes, and the
 * jobs that reveal original values audited.
 */
class CsvJobAuthorizationIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  @RegisterExtension final LogCapture audit = LogCapture.of(Audit.LOGGER);

  /** Short, so that a revoked grant is seen within a test. */
  private static final Duration GRANT_CACHE = Duration.ofSeconds(2);

  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  private static TestOidcProvider provider;
  private static VfpsServer server;
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
    env.put("Authorization__GrantCacheDuration", "0.00:00:02");
    env.put("CsvProcessing__DownloadUrlExpiry", "0.00:03:00");
    server = resources.own(TestService.start(env));
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

  @Test
  void aResultIsHandedOutOnlyWhileItsReaderMayReadItAndEachStepIsAudited() throws Exception {
    Map<String, String> admin = Map.of("authorization", callers.get("admin"));
    String ns = "jobs-result-" + UUID.randomUUID();
    HttpTestClient.Response created =
        http.send(
            "POST",
            "/v1/namespaces",
            admin,
            new JsonObject().put("name", ns).put("pseudonymLength", 16).encode());
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    String original = "secret-original-" + UUID.randomUUID();
    assertThat(
            http.send(
                    "POST",
                    "/v1/namespaces/" + ns + "/pseudonyms",
                    admin,
                    new JsonObject().put("originalValue", original).encode())
                .status())
        .isEqualTo(200);
    String role = "result-reader-" + UUID.randomUUID().toString().substring(0, 8);
    HttpTestClient.Response granted =
        http.send(
            "POST",
            "/x/v1/access/grants",
            admin,
            new JsonObject()
                .put("namespace", ns)
                .put("granteeType", "GRANTEE_TYPE_ROLE")
                .put("grantee", role)
                .put("canReverseLookup", true)
                .encode());
    assertThat(granted.status()).as(granted.body()).isEqualTo(200);
    String grant = granted.json().getJsonObject("grant").getString("id");
    String reader = "Bearer " + provider.token("rosa", role);
    Map<String, String> asReader = Map.of("authorization", reader);

    HttpTestClient.Response export =
        http.send(
            "POST",
            "/v1/csv-jobs",
            asReader,
            new JsonObject()
                .put("direction", "CSV_JOB_DIRECTION_EXPORT")
                .put(
                    "columnMappings",
                    new JsonArray(
                        List.of(
                            new JsonObject()
                                .put("sourceColumn", "o")
                                .put("targetColumn", "p")
                                .put("namespace", ns))))
                .encode());
    assertThat(export.status()).as(export.body()).isEqualTo(200);
    String id = export.json().getString("id");
    JsonObject done = awaitEnd(id, asReader);
    assertThat(done.getString("status")).isEqualTo("CSV_JOB_STATUS_COMPLETED");

    // the URL lives CsvProcessing__DownloadUrlExpiry, and works
    String url = done.getString("downloadUrl");
    Matcher expires = Pattern.compile("[?&]X-Amz-Expires=([0-9]+)").matcher(url);
    assertThat(expires.find()).as(url).isTrue();
    assertThat(expires.group(1)).isEqualTo("180");
    HttpResponse<String> downloaded =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(downloaded.statusCode()).isEqualTo(200);
    assertThat(downloaded.body()).contains(original);

    // the grant revoked: no more URL, over REST and gRPC
    assertThat(http.send("DELETE", "/x/v1/access/grants/" + grant, admin, null).status())
        .isEqualTo(200);
    HttpTestClient.Response refused = eventually(403, "/v1/csv-jobs/" + id, asReader);
    assertThat(refused.body()).doesNotContain("X-Amz", "http://");
    assertThat(refused.json().getInteger("code")).isEqualTo(7);
    try (GrpcTestClient grpc = new GrpcTestClient(server.grpcPort())) {
      GrpcTestClient.Reply<CsvJob> reply =
          grpc.call(
              CsvJobServiceGrpcClient.GetCsvJob,
              GetCsvJobRequest.newBuilder().setId(id).build(),
              asReader);
      assertThat(reply.status()).isEqualTo(GrpcStatus.PERMISSION_DENIED);
    }
    // an admin still gets it
    HttpTestClient.Response byAdmin = http.send("GET", "/v1/csv-jobs/" + id, admin, null);
    assertThat(byAdmin.json().getString("downloadUrl")).isNotEmpty();

    // the worker writes the end's line once the job's row says it has ended
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    List<String> lines;
    do {
      lines =
          audit.atLeast(Level.INFO).stream()
              .filter(event -> id.equals(field(event, "job")))
              .map(event -> event.getFormattedMessage() + " " + field(event, "subject"))
              .toList();
      sleep(50);
    } while (!lines.contains("CsvJobService/RunCsvJob OK rosa") && System.nanoTime() < deadline);
    assertThat(lines)
        .contains(
            "CsvJobService/CreateCsvJob OK rosa",
            "CsvJobService/RunCsvJob OK rosa",
            "CsvJobService/GetCsvJob OK rosa",
            "CsvJobService/GetCsvJob OK alice");
    assertThat(
            audit.atLeast(Level.INFO).stream()
                .filter(
                    event ->
                        event
                                .getFormattedMessage()
                                .equals("CsvJobService/GetCsvJob PERMISSION_DENIED")
                            && "rosa".equals(field(event, "subject"))))
        .as("rosa, left without any right, refused at the first gate, which names no namespace")
        .isNotEmpty();
    assertThat(audit.atLeast(Level.TRACE))
        .extracting(event -> event.getFormattedMessage() + event.getKeyValuePairs())
        .noneMatch(line -> line.contains(original));
  }

  private static String field(ILoggingEvent event, String key) {
    return event.getKeyValuePairs() == null
        ? null
        : event.getKeyValuePairs().stream()
            .filter(pair -> pair.key.equals(key))
            .map(pair -> String.valueOf(pair.value))
            .findFirst()
            .orElse(null);
  }

  private static JsonObject awaitEnd(String id, Map<String, String> caller) {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (true) {
      HttpTestClient.Response job = http.send("GET", "/v1/csv-jobs/" + id, caller, null);
      assertThat(job.status()).as(job.body()).isEqualTo(200);
      String status = job.json().getString("status");
      if (List.of("CSV_JOB_STATUS_COMPLETED", "CSV_JOB_STATUS_FAILED", "CSV_JOB_STATUS_CANCELLED")
          .contains(status)) {
        return job.json();
      }
      if (System.nanoTime() > deadline) {
        fail("the job did not end within " + TIMEOUT + ": " + job.body());
      }
      sleep(100);
    }
  }

  /** Waits (within ten times the grant cache's duration) for the status expected. */
  private static HttpTestClient.Response eventually(
      int expected, String path, Map<String, String> caller) {
    long deadline = System.nanoTime() + GRANT_CACHE.multipliedBy(10).toNanos();
    HttpTestClient.Response last;
    do {
      last = http.send("GET", path, caller, null);
      if (last.status() == expected) {
        return last;
      }
      sleep(100);
    } while (System.nanoTime() < deadline);
    throw new AssertionError(
        "expected " + expected + ", last " + last.status() + ": " + last.body());
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static List<String> ids(HttpTestClient.Response list) {
    assertThat(list.status()).as(list.body()).isEqualTo(200);
    return list.json().getJsonArray("jobs").stream()
        .map(job -> ((JsonObject) job).getString("id"))
        .toList();
  }
}
