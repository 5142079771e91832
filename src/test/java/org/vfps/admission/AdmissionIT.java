package org.vfps.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.grpc.common.GrpcMessageDecoder;
import io.vertx.grpc.common.GrpcMessageEncoder;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.common.ServiceMethod;
import io.vertx.grpc.common.ServiceName;
import io.vertx.grpc.health.v1.HealthCheckRequest;
import io.vertx.grpc.health.v1.HealthCheckResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.GrpcTestClient;
import org.vfps.GrpcTestClient.Reply;
import org.vfps.HttpTestClient;
import org.vfps.HttpTestClient.Response;
import org.vfps.LogCapture;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.VfpsServer;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.PseudonymServiceBatchCreateRequest;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceCreateResponse;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.config.ConnectionSettings;
import org.vfps.metrics.Scrape;

/**
 * Admission control through the real listeners. Requests are made slow by a table lock the test
 * holds, so they keep their places for as long as the test wants; what is refused is refused while
 * they still wait, so no clock decides the outcome.
 */
class AdmissionIT {

  private static final ServiceMethod<HealthCheckResponse, HealthCheckRequest> HEALTH_CHECK =
      ServiceMethod.client(
          ServiceName.create("grpc.health.v1", "Health"),
          "Check",
          GrpcMessageEncoder.encoder(),
          GrpcMessageDecoder.decoder(HealthCheckResponse.newBuilder()));

  /** Long enough never to decide a passing test; it only ends a failing one. */
  private static final long ANSWER_SECONDS = 30;

  /** The start-up's warnings and the refusals' debug lines: kept off the build's output. */
  @RegisterExtension final LogCapture log = LogCapture.of("org.vfps");

  @Test
  void beyondTheBoundEveryEdgeRefusesAtOnceWhileProbesHealthAndMetricsAnswer() throws Exception {
    ConnectionSettings database = TestPostgres.freshDatabase();
    int metricsPort = TestService.freePort();
    VfpsServer server = start(database, metricsPort, "Admission__MaxConcurrentRequests", "2");
    try (GrpcTestClient grpc = new GrpcTestClient(server.grpcPort());
        HttpTestClient http = new HttpTestClient(server.httpPort());
        HttpTestClient metrics = new HttpTestClient(metricsPort);
        Connection blocker = TestPostgres.connect(database)) {
      String namespace = createNamespace(grpc);
      lockPseudonyms(blocker);

      // a gRPC and a REST Create take both places and wait for the lock
      Future<Reply<PseudonymServiceCreateResponse>> grpcHolder =
          grpc.callAsync(PseudonymServiceGrpcClient.Create, create(namespace, "held-grpc"));
      CompletableFuture<Response> restHolder =
          CompletableFuture.supplyAsync(() -> restCreate(http, namespace, "held-rest"));
      await("both places taken")
          .atMost(Duration.ofMinutes(1))
          .until(() -> scrape(metrics).value("vfps_admission_requests_in_flight") == 2);

      Reply<PseudonymServiceCreateResponse> refused =
          grpc.callAsync(PseudonymServiceGrpcClient.Create, create(namespace, "refused"))
              .await(ANSWER_SECONDS, TimeUnit.SECONDS);
      assertThat(refused.status()).isEqualTo(GrpcStatus.RESOURCE_EXHAUSTED);
      assertThat(refused.message()).contains("Admission__MaxConcurrentRequests");

      Response rest = restCreate(http, namespace, "refused-rest");
      assertThat(rest.status()).as(rest.body()).isEqualTo(503);
      assertThat(rest.headers().firstValue("retry-after")).hasValue("1");
      assertThat(rest.json().getInteger("code")).isEqualTo(GrpcStatus.RESOURCE_EXHAUSTED.code);
      assertThat(rest.json().getString("message")).contains("Admission__MaxConcurrentRequests");

      Response fhir =
          http.post(
              "/v1/fhir/$create-pseudonym",
              "application/fhir+json",
              fhirParameters(namespace, "refused-fhir").getBytes(StandardCharsets.UTF_8));
      assertThat(fhir.status()).as(fhir.body()).isEqualTo(503);
      assertThat(fhir.headers().firstValue("retry-after")).hasValue("1");
      assertThat(fhir.contentType()).isEqualTo("application/fhir+json; charset=utf-8");
      assertThat(fhir.json().getString("resourceType")).isEqualTo("OperationOutcome");
      assertThat(fhir.json().getJsonArray("issue").getJsonObject(0).getString("code"))
          .isEqualTo("throttled");

      for (String probe : List.of("/livez", "/readyz", "/healthz")) {
        assertThat(http.get(probe).status()).as(probe).isEqualTo(200);
      }
      assertThat(grpc.ok(HEALTH_CHECK, HealthCheckRequest.getDefaultInstance()).getStatus())
          .isEqualTo(HealthCheckResponse.ServingStatus.SERVING);
      Scrape during = scrape(metrics);
      assertThat(
              during.value("vfps_admission_refused_total", Map.of("limit", "concurrent_requests")))
          .isEqualTo(3);
      assertThat(during.value("vfps_admission_requests_in_flight")).isEqualTo(2);

      blocker.commit();
      assertThat(grpcHolder.await(ANSWER_SECONDS, TimeUnit.SECONDS).status())
          .isEqualTo(GrpcStatus.OK);
      assertThat(restHolder.get(ANSWER_SECONDS, TimeUnit.SECONDS).status()).isEqualTo(200);
      await("both places given back")
          .atMost(Duration.ofMinutes(1))
          .until(() -> scrape(metrics).value("vfps_admission_requests_in_flight") == 0);
      assertThat(grpc.call(PseudonymServiceGrpcClient.Create, create(namespace, "after")).status())
          .isEqualTo(GrpcStatus.OK);
      assertThat(restCreate(http, namespace, "after-rest").status()).isEqualTo(200);
      assertThat(
              TestPostgres.queryLong(
                  database, "SELECT count(*) FROM pseudonyms WHERE namespace_name = ?", namespace))
          .as("the refused values were never stored")
          .isEqualTo(4);
      assertThat(log.atLeast(Level.ERROR)).isEmpty();
    } finally {
      server.close();
    }
  }

  @Test
  void valuesBeyondTheWriteQueueBoundAreRefusedAtOnce() throws Exception {
    ConnectionSettings database = TestPostgres.freshDatabase();
    int metricsPort = TestService.freePort();
    VfpsServer server = start(database, metricsPort, "Admission__MaxQueuedWrites", "1");
    try (GrpcTestClient grpc = new GrpcTestClient(server.grpcPort());
        HttpTestClient http = new HttpTestClient(server.httpPort());
        HttpTestClient metrics = new HttpTestClient(metricsPort);
        Connection blocker = TestPostgres.connect(database)) {
      String namespace = createNamespace(grpc);
      lockPseudonyms(blocker);

      // one client connection, so one event loop and one write coalescer: the first Creates take
      // its statement slots and wait for the lock in the database, the next one waits in its queue
      List<Future<Reply<PseudonymServiceCreateResponse>>> held = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        held.add(grpc.callAsync(PseudonymServiceGrpcClient.Create, create(namespace, "slot-" + i)));
      }
      await("four statements waiting for the lock")
          .atMost(Duration.ofMinutes(1))
          .until(() -> lockWaiters(database) == 4);
      held.add(grpc.callAsync(PseudonymServiceGrpcClient.Create, create(namespace, "queued")));
      await("one value queued")
          .atMost(Duration.ofMinutes(1))
          .until(() -> scrape(metrics).value("vfps_admission_queued_writes") == 1);

      Reply<PseudonymServiceCreateResponse> refused =
          grpc.callAsync(PseudonymServiceGrpcClient.Create, create(namespace, "refused"))
              .await(ANSWER_SECONDS, TimeUnit.SECONDS);
      assertThat(refused.status()).isEqualTo(GrpcStatus.RESOURCE_EXHAUSTED);
      assertThat(refused.message()).contains("Admission__MaxQueuedWrites");
      assertThat(
              grpc.callAsync(
                      PseudonymServiceGrpcClient.BatchCreate,
                      PseudonymServiceBatchCreateRequest.newBuilder()
                          .setNamespace(namespace)
                          .addOriginalValues("refused-a")
                          .addOriginalValues("refused-b")
                          .build())
                  .await(ANSWER_SECONDS, TimeUnit.SECONDS)
                  .status())
          .isEqualTo(GrpcStatus.RESOURCE_EXHAUSTED);
      Response rest = restCreate(http, namespace, "refused-rest");
      assertThat(rest.status()).as(rest.body()).isEqualTo(503);
      assertThat(rest.headers().firstValue("retry-after")).hasValue("1");
      assertThat(
              scrape(metrics)
                  .value("vfps_admission_refused_total", Map.of("limit", "queued_writes")))
          .isEqualTo(3);

      blocker.commit();
      for (Future<Reply<PseudonymServiceCreateResponse>> call : held) {
        assertThat(call.await(ANSWER_SECONDS, TimeUnit.SECONDS).status()).isEqualTo(GrpcStatus.OK);
      }
      assertThat(
              TestPostgres.queryLong(
                  database, "SELECT count(*) FROM pseudonyms WHERE namespace_name = ?", namespace))
          .isEqualTo(5);
      assertThat(scrape(metrics).value("vfps_admission_queued_writes")).isZero();
    } finally {
      server.close();
    }
  }

  private static VfpsServer start(
      ConnectionSettings database, int metricsPort, String boundKey, String bound) {
    return TestService.start(
        Map.of(
            "ConnectionStrings__PostgreSQL",
            TestPostgres.uri(database),
            "ForceRunDatabaseMigrations",
            "true",
            "MetricsPort",
            Integer.toString(metricsPort),
            // the test's connections may sit idle while it waits for the service
            "Grpc__RequestHeadersTimeout",
            "00:00:00",
            boundKey,
            bound));
  }

  /** Holds a lock on the pseudonyms table in an open transaction: every upsert waits for it. */
  static void lockPseudonyms(Connection blocker) throws Exception {
    blocker.setAutoCommit(false);
    try (Statement statement = blocker.createStatement()) {
      statement.execute("LOCK TABLE pseudonyms IN SHARE MODE");
    }
  }

  /** The statements of the service that wait for a lock. */
  static long lockWaiters(ConnectionSettings database) {
    return TestPostgres.queryLong(
        database,
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            + " AND wait_event_type = 'Lock'");
  }

  static String createNamespace(GrpcTestClient grpc) {
    String namespace = "admission-" + UUID.randomUUID();
    grpc.ok(
        NamespaceServiceGrpcClient.Create,
        NamespaceServiceCreateRequest.newBuilder()
            .setName(namespace)
            .setPseudonymLength(16)
            .build());
    return namespace;
  }

  static PseudonymServiceCreateRequest create(String namespace, String originalValue) {
    return PseudonymServiceCreateRequest.newBuilder()
        .setNamespace(namespace)
        .setOriginalValue(originalValue)
        .build();
  }

  private static Response restCreate(HttpTestClient http, String namespace, String originalValue) {
    return http.postJson(
        "/v1/namespaces/" + namespace + "/pseudonyms",
        new JsonObject().put("originalValue", originalValue).encode());
  }

  private static String fhirParameters(String namespace, String originalValue) {
    return new JsonObject()
        .put("resourceType", "Parameters")
        .put(
            "parameter",
            new JsonArray()
                .add(new JsonObject().put("name", "namespace").put("valueString", namespace))
                .add(
                    new JsonObject()
                        .put("name", "originalValue")
                        .put("valueString", originalValue)))
        .encode();
  }

  private static Scrape scrape(HttpTestClient metrics) {
    Response response = metrics.get("/metrics");
    assertThat(response.status()).isEqualTo(200);
    return Scrape.parse(response.body());
  }
}
