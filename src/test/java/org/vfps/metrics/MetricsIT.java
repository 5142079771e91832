package org.vfps.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.vertx.core.Future;
import io.vertx.grpc.common.GrpcStatus;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.IntStream;
import org.hawkular.agent.prometheus.types.Histogram;
import org.hawkular.agent.prometheus.types.Metric;
import org.hawkular.agent.prometheus.types.MetricType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.ClassResources;
import org.vfps.GrpcTestClient;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceDeleteRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.PseudonymGenerationMethod;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceCreateResponse;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.server.VfpsServer;

/** {@code /metrics} of a running service, parsed as Prometheus parses it. */
class MetricsIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static final String PSEUDONYM_SERVICE = "vfps.api.v1.PseudonymService";
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private static VfpsServer server;
  private static GrpcTestClient client;

  @BeforeAll
  static void start() {
    server = resources.own(startWithMetrics("00:05:00"));
    client = resources.own(new GrpcTestClient(server.grpcPort()));
  }

  private static VfpsServer startWithMetrics(String countInterval) {
    return TestService.start(
        Map.of(
            "ConnectionStrings__PostgreSQL", TestPostgres.uri(),
            "MetricsPort", Integer.toString(TestService.freePort()),
            "Metrics__PseudonymCountInterval", countInterval));
  }

  static HttpResponse<String> get(int port, String path) {
    return get(HTTP, port, path);
  }

  private static HttpResponse<String> get(HttpClient http, int port, String path) {
    try {
      return http.send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
              .timeout(Duration.ofSeconds(10))
              .build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new AssertionError("GET " + path + " failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  static Scrape scrape(VfpsServer server) {
    HttpResponse<String> response = get(server.metricsPort(), "/metrics");
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("content-type"))
        .hasValueSatisfying(type -> assertThat(type).startsWith("text/plain; version=0.0.4"));
    return Scrape.parse(response.body());
  }

  private static String createNamespace(GrpcTestClient client) {
    String name = "metrics-" + UUID.randomUUID();
    client.ok(
        NamespaceServiceGrpcClient.Create,
        NamespaceServiceCreateRequest.newBuilder().setName(name).setPseudonymLength(16).build());
    return name;
  }

  private static GrpcTestClient.Reply<?> createPseudonym(
      GrpcTestClient client, String namespace, String originalValue) {
    return client.call(
        PseudonymServiceGrpcClient.Create,
        PseudonymServiceCreateRequest.newBuilder()
            .setNamespace(namespace)
            .setOriginalValue(originalValue)
            .build());
  }

  private static Map<String, String> create(String code) {
    return Map.of("grpc_service", PSEUDONYM_SERVICE, "grpc_method", "Create", "grpc_code", code);
  }

  @Test
  void grpcCallsAndUpsertsAreCountedAsTheyHappen() {
    String namespace = createNamespace(client);
    Scrape before = scrape(server);

    createPseudonym(client, namespace, "first");
    createPseudonym(client, namespace, "second");
    createPseudonym(client, namespace, "first");
    createPseudonym(client, "missing-" + UUID.randomUUID(), "first");
    Scrape after = scrape(server);

    assertThat(after.value("grpc_server_handled_total", create("OK")))
        .isEqualTo(before.value("grpc_server_handled_total", create("OK")) + 3);
    assertThat(after.value("grpc_server_handled_total", create("NOT_FOUND")))
        .isEqualTo(before.value("grpc_server_handled_total", create("NOT_FOUND")) + 1);
    Map<String, String> pseudonymCreate =
        Map.of("grpc_service", PSEUDONYM_SERVICE, "grpc_method", "Create");
    assertThat(after.value("grpc_server_started_total", pseudonymCreate))
        .isEqualTo(before.value("grpc_server_started_total", pseudonymCreate) + 4);
    assertThat(after.type("grpc_server_handling_seconds")).isEqualTo(MetricType.HISTOGRAM);
    assertThat(after.value("grpc_server_handling_seconds", pseudonymCreate))
        .isEqualTo(before.value("grpc_server_handling_seconds", pseudonymCreate) + 4);
    // one statement per create that found its namespace
    assertThat(after.type("vfps_upsert_duration_seconds")).isEqualTo(MetricType.HISTOGRAM);
    assertThat(after.value("vfps_upsert_duration_seconds"))
        .isEqualTo(before.value("vfps_upsert_duration_seconds") + 3);
    assertThat(after.type("vfps_batch_upsert_duration_seconds")).isEqualTo(MetricType.HISTOGRAM);
  }

  @Test
  void everyRowOfConcurrentCreatesIsCountedInTheRowsPerStatementHistogram() {
    String namespace = createNamespace(client);
    int values = 200;
    Scrape before = scrape(server);

    List<Future<GrpcTestClient.Reply<PseudonymServiceCreateResponse>>> replies =
        IntStream.range(0, values)
            .mapToObj(
                i ->
                    client.callAsync(
                        PseudonymServiceGrpcClient.Create,
                        PseudonymServiceCreateRequest.newBuilder()
                            .setNamespace(namespace)
                            .setOriginalValue("value-" + i)
                            .build()))
            .toList();
    Future.all(replies).await();
    Scrape after = scrape(server);

    assertThat(replies).allMatch(reply -> reply.result().status() == GrpcStatus.OK);
    assertThat(after.type("vfps_upsert_statement_rows")).isEqualTo(MetricType.HISTOGRAM);
    Histogram rows = (Histogram) after.series("vfps_upsert_statement_rows", Map.of()).orElseThrow();
    Histogram rowsBefore =
        (Histogram) before.series("vfps_upsert_statement_rows", Map.of()).orElseThrow();
    // each new value is written by exactly one statement, whatever the batches were
    assertThat(rows.getSampleSum() - rowsBefore.getSampleSum()).isEqualTo(values);
    long statements = rows.getSampleCount() - rowsBefore.getSampleCount();
    assertThat(statements).isBetween(1L, (long) values);
    assertThat(statements)
        .isEqualTo(
            (long)
                (after.value("vfps_upsert_duration_seconds")
                    + after.value("vfps_batch_upsert_duration_seconds")
                    - before.value("vfps_upsert_duration_seconds")
                    - before.value("vfps_batch_upsert_duration_seconds")));
  }

  @Test
  void httpServerPoolJvmAndProcessMetricsAreExported() {
    createNamespace(client);

    Scrape scrape = scrape(server);

    Map<String, String> grpcListener = Map.of("local", "0.0.0.0:" + server.grpcPort());
    assertThat(scrape.value("vertx_http_server_requests_total", grpcListener)).isPositive();
    assertThat(scrape.series("vertx_http_server_requests_total", grpcListener))
        .hasValueSatisfying(
            metric -> assertThat(metric.getLabels()).containsKeys("method", "code", "route"));
    assertThat(scrape.series("vertx_pool_in_use", Map.of("pool_type", "sql", "pool_name", "vfps")))
        .isPresent();
    assertThat(scrape.value("vertx_sql_processing_time_seconds")).isPositive();
    // one series per pool: Eden alone is empty right after a young collection
    assertThat(scrape.sum("jvm_memory_used_bytes", Map.of("area", "heap"))).isPositive();
    assertThat(scrape.value("jvm_classes_loaded_classes")).isPositive();
    assertThat(scrape.family("jvm_gc_memory_allocated_bytes_total")).isPresent();
    assertThat(scrape.family("jvm_threads_live_threads")).isPresent();
    assertThat(scrape.family("process_cpu_usage")).isPresent();
    assertThat(scrape.value("process_uptime_seconds")).isPositive();
    assertThat(scrape.value("process_files_open_files")).isPositive();
  }

  @Test
  void httpRoutesAreLabelledWithTheirTemplatesAsWritten() throws Exception {
    String namespace = createNamespace(client);
    String job = "/v1/csv-jobs/" + UUID.randomUUID();
    send("GET", "/v1/namespaces/" + namespace, null);
    send(
        "POST", "/v1/namespaces/" + namespace + "/pseudonyms:batchGet", "{\"pseudonymValues\":[]}");
    send("POST", job + ":start", "{}");
    // another method on a custom method's path: the route that refuses it has the same label
    assertThat(send("GET", job + ":start", null)).isEqualTo(405);

    Scrape scrape = scrape(server);

    List<Map<String, String>> http =
        scrape.family("vertx_http_server_requests_total").orElseThrow().getMetrics().stream()
            .map(Metric::getLabels)
            .filter(labels -> labels.get("local").equals("0.0.0.0:" + server.httpPort()))
            .toList();
    assertThat(http)
        .extracting(labels -> labels.get("method") + " " + labels.get("route"))
        .contains(
            "GET /v1/namespaces/{name}",
            "POST /v1/namespaces/{namespace}/pseudonyms:batchGet",
            "POST /v1/csv-jobs/{id}:start",
            "GET /v1/csv-jobs/{id}:start");
    assertThat(http)
        .extracting(labels -> labels.get("route"))
        .allSatisfy(route -> assertThat(route).doesNotContain("\\Q", "(?<", ">", "/:"));
  }

  /** Sends a REST call to the HTTP port; its status. */
  private static int send(String method, String path, String json) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.httpPort() + path))
            .timeout(Duration.ofSeconds(10));
    request.method(
        method,
        json == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(json));
    if (json != null) {
      request.header("content-type", "application/json");
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  @Test
  void noSeriesIsLabelledWithARawPath() {
    createNamespace(client);

    Scrape scrape = scrape(server);

    assertThat(scrape.families())
        .flatMap(family -> family.getMetrics())
        .extracting(Metric::getLabels)
        .allSatisfy(labels -> assertThat(labels).doesNotContainKeys("path", "uri", "url"));
  }

  @Test
  void scrapesThatOfferAnUpgradeToHttp2AreAnsweredInHttp11() {
    // the JDK client offers h2c on every first request; Vert.x's upgrade garbled some replies
    for (int i = 0; i < 50; i++) {
      HttpResponse<String> response =
          get(HttpClient.newHttpClient(), server.metricsPort(), "/metrics");
      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
    }
  }

  @Test
  void onlyTheMetricsPathIsServed() {
    assertThat(get(server.metricsPort(), "/").statusCode()).isEqualTo(404);
    assertThat(get(server.metricsPort(), "/metrics/x").statusCode()).isEqualTo(404);
  }

  @Test
  void pseudonymCountsAreTakenAtStartAndADeletedNamespaceLosesItsSeriesAtOnce() {
    String namespace = createNamespace(client);
    createPseudonym(client, namespace, "a");
    createPseudonym(client, namespace, "b");
    Map<String, String> series = Map.of("namespace", namespace);

    // counted at start; the next count would be an hour away
    try (VfpsServer counting = startWithMetrics("01:00:00");
        GrpcTestClient countingClient = new GrpcTestClient(counting.grpcPort())) {
      await("the start-up count")
          .atMost(Duration.ofSeconds(10))
          .until(() -> scrape(counting).value("vfps_pseudonyms", series), count -> count == 2);

      countingClient.ok(
          NamespaceServiceGrpcClient.Delete,
          NamespaceServiceDeleteRequest.newBuilder().setName(namespace).build());

      await("the removal of the deleted namespace's series")
          .atMost(Duration.ofSeconds(10))
          .until(() -> scrape(counting).series("vfps_pseudonyms", series), Optional::isEmpty);
    }
  }

  @Test
  void pseudonymCountsAreTakenPeriodically() {
    try (VfpsServer counting = startWithMetrics("00:00:01");
        GrpcTestClient countingClient = new GrpcTestClient(counting.grpcPort())) {
      String namespace = createNamespace(countingClient);
      Map<String, String> series = Map.of("namespace", namespace);
      createPseudonym(countingClient, namespace, "a");

      await("a count with one pseudonym")
          .atMost(Duration.ofSeconds(10))
          .until(() -> scrape(counting).value("vfps_pseudonyms", series), count -> count == 1);
      createPseudonym(countingClient, namespace, "b");
      createPseudonym(countingClient, namespace, "c");
      await("a count with three pseudonyms")
          .atMost(Duration.ofSeconds(10))
          .until(() -> scrape(counting).value("vfps_pseudonyms", series), count -> count == 3);
    }
  }

  @Test
  void aNamespaceThatDrawsAtRandomShowsHowMuchOfItsCapacityItUses() {
    try (VfpsServer counting = startWithMetrics("00:00:01");
        GrpcTestClient countingClient = new GrpcTestClient(counting.grpcPort())) {
      // hex of length 4: 65,536 pseudonyms
      String namespace = "metrics-" + UUID.randomUUID();
      countingClient.ok(
          NamespaceServiceGrpcClient.Create,
          NamespaceServiceCreateRequest.newBuilder()
              .setName(namespace)
              .setPseudonymGenerationMethod(
                  PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_FULL_RANDOM_HEX_ENCODED)
              .setPseudonymLength(4)
              .build());
      Map<String, String> series = Map.of("namespace", namespace);
      createPseudonym(countingClient, namespace, "a");
      createPseudonym(countingClient, namespace, "b");

      await("a count with two pseudonyms")
          .atMost(Duration.ofSeconds(10))
          .until(
              () -> scrape(counting).value("vfps_namespace_capacity_used_ratio", series),
              ratio -> ratio == 2 / 65_536.0);
    }
  }

  @Test
  void metricsPortZeroServesNoMetrics() {
    try (VfpsServer quiet = TestService.start()) {
      assertThat(quiet.metricsPort()).isZero();
    }
  }
}
