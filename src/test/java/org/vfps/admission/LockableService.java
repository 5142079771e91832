package org.vfps.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.vfps.GrpcTestClient;
import org.vfps.GrpcTestClient.Reply;
import org.vfps.HttpTestClient;
import org.vfps.HttpTestClient.Response;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceCreateResponse;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.config.ConnectionSettings;
import org.vfps.metrics.Scrape;
import org.vfps.server.VfpsServer;

/**
 * The service on a database of its own, with real clients, a namespace, and a connection of the
 * test's that can lock the pseudonyms table, so that upserts wait in the database for as long as
 * the test wants: slow requests without a clock.
 */
final class LockableService implements AutoCloseable {

  /** Long enough never to decide a passing test; it only ends a failing one. */
  static final long ANSWER_SECONDS = 30;

  final ConnectionSettings database = TestPostgres.freshDatabase();
  final VfpsServer server;
  final GrpcTestClient grpc;
  final HttpTestClient http;
  final HttpTestClient metrics;
  final String namespace = "admission-" + UUID.randomUUID();
  private final Connection blocker;

  /**
   * Starts the service with metrics on and these settings; {@code connectionString} may use the
   * {@code %s} placeholders host, port, database, user and password, in that order, and is a URI of
   * the database when null.
   */
  LockableService(String connectionString, Map<String, String> settings) throws SQLException {
    int metricsPort = TestService.freePort();
    Map<String, String> environment = new HashMap<>(settings);
    environment.put(
        "ConnectionStrings__PostgreSQL",
        connectionString == null
            ? TestPostgres.uri(database)
            : connectionString.formatted(
                database.host(),
                database.port(),
                database.database(),
                database.user(),
                database.password()));
    environment.put("ForceRunDatabaseMigrations", "true");
    environment.put("MetricsPort", Integer.toString(metricsPort));
    // the test's connections may sit idle while it waits for the service
    environment.put("Grpc__RequestHeadersTimeout", "00:00:00");
    server = TestService.start(environment);
    grpc = new GrpcTestClient(server.grpcPort());
    http = new HttpTestClient(server.httpPort());
    metrics = new HttpTestClient(metricsPort);
    blocker = TestPostgres.connect(database);
    grpc.ok(
        NamespaceServiceGrpcClient.Create,
        NamespaceServiceCreateRequest.newBuilder()
            .setName(namespace)
            .setPseudonymLength(16)
            .build());
  }

  LockableService(Map<String, String> settings) throws SQLException {
    this(null, settings);
  }

  /** Locks the pseudonyms table in an open transaction: every upsert waits for {@link #unlock}. */
  void lock() throws SQLException {
    blocker.setAutoCommit(false);
    try (Statement statement = blocker.createStatement()) {
      statement.execute("LOCK TABLE pseudonyms IN SHARE MODE");
    }
  }

  void unlock() throws SQLException {
    blocker.commit();
  }

  /** Statements of the service waiting for a lock. */
  long lockWaiters() {
    return TestPostgres.queryLong(
        database,
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            + " AND wait_event_type = 'Lock'");
  }

  /**
   * A Create whose statement waits for the lock: the one small statement that the write coalescer
   * of the client's event loop (its one connection is served by one) has in flight, so that the
   * Creates after it queue. Returns once it waits.
   */
  List<Future<Reply<PseudonymServiceCreateResponse>>> holdTheStatementInFlight() {
    List<Future<Reply<PseudonymServiceCreateResponse>>> held = new ArrayList<>();
    held.add(grpc.callAsync(PseudonymServiceGrpcClient.Create, create("held")));
    await("the statement waiting for the lock")
        .atMost(Duration.ofMinutes(1))
        .until(() -> lockWaiters() == 1);
    return held;
  }

  /**
   * The answer to a Create sent with these headers, awaited within a bound that only ends a failing
   * test.
   */
  Reply<PseudonymServiceCreateResponse> answer(String originalValue, Map<String, String> headers)
      throws TimeoutException {
    return grpc.callAsync(PseudonymServiceGrpcClient.Create, create(originalValue), headers)
        .await(ANSWER_SECONDS, TimeUnit.SECONDS);
  }

  /** Waits for a gauge of the service to show {@code value}. */
  void awaitGauge(String gauge, double value) {
    await(gauge + " at " + value)
        .atMost(Duration.ofMinutes(1))
        .until(() -> scrape().value(gauge) == value);
  }

  PseudonymServiceCreateRequest create(String originalValue) {
    return PseudonymServiceCreateRequest.newBuilder()
        .setNamespace(namespace)
        .setOriginalValue(originalValue)
        .build();
  }

  /** A REST Create of the value in the test's namespace. */
  Response restCreate(String originalValue) {
    return http.postJson(
        "/v1/namespaces/" + namespace + "/pseudonyms",
        new JsonObject().put("originalValue", originalValue).encode());
  }

  /** A FHIR {@code $create-pseudonym} of the value in the test's namespace. */
  Response fhirCreate(String originalValue) {
    return http.post(
        "/v1/fhir/$create-pseudonym",
        "application/fhir+json",
        """
        {"resourceType": "Parameters", "parameter": [
          {"name": "namespace", "valueString": "%s"},
          {"name": "originalValue", "valueString": "%s"}]}"""
            .formatted(namespace, originalValue)
            .getBytes(StandardCharsets.UTF_8));
  }

  /** The pseudonyms stored in the namespace. */
  long stored() {
    return TestPostgres.queryLong(
        database, "SELECT count(*) FROM pseudonyms WHERE namespace_name = ?", namespace);
  }

  Scrape scrape() {
    Response response = metrics.get("/metrics");
    assertThat(response.status()).isEqualTo(200);
    return Scrape.parse(response.body());
  }

  @Override
  public void close() throws SQLException {
    try {
      blocker.close();
      grpc.close();
      http.close();
      metrics.close();
    } finally {
      server.close();
    }
  }
}
