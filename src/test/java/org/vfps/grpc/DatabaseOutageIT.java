package org.vfps.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.vertx.core.json.JsonObject;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.health.v1.HealthCheckRequest;
import io.vertx.grpc.health.v1.HealthCheckResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;
import org.vfps.GrpcTestClient;
import org.vfps.GrpcTestClient.Reply;
import org.vfps.HttpTestClient;
import org.vfps.LogCapture;
import org.vfps.TcpProxy;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.config.ConnectionSettings;
import org.vfps.fhir.FhirJson;
import org.vfps.log.EarlyConnectionResetFilter;
import org.vfps.log.EdgeWarnings;
import org.vfps.server.VfpsServer;

/** The service rides out a lost database: UNAVAILABLE while it is away, serving once it is back. */
class DatabaseOutageIT {

  /** The outage is logged, and this test says how: kept off the build's output. */
  @RegisterExtension final LogCapture log = LogCapture.of("org.vfps");

  /** What Vert.x itself logs about the lost connections. */
  @RegisterExtension final LogCapture vertxLog = LogCapture.of("io.vertx");

  @Test
  void callsFailAsUnavailableWhileTheDatabaseIsAwayAndSucceedAfter() {
    ConnectionSettings database = TestPostgres.database();
    try (TcpProxy proxy = new TcpProxy(database.host(), database.port())) {
      String connectionString = proxy.connectionString(database);
      try (VfpsServer server =
              TestService.start(Map.of("ConnectionStrings__PostgreSQL", connectionString));
          GrpcTestClient client = new GrpcTestClient(server.grpcPort())) {
        String namespace = client.createNamespace("outage-");
        Supplier<Reply<?>> create =
            () ->
                client.call(
                    PseudonymServiceGrpcClient.Create,
                    PseudonymServiceCreateRequest.newBuilder()
                        .setNamespace(namespace)
                        .setOriginalValue("during-outage")
                        .build());
        assertThat(health(client)).isEqualTo(HealthCheckResponse.ServingStatus.SERVING);

        proxy.cut();
        Reply<?> during = create.get();
        assertThat(during.status()).isEqualTo(GrpcStatus.UNAVAILABLE);
        assertThat(during.message()).doesNotContain("during-outage");
        assertThat(health(client)).isEqualTo(HealthCheckResponse.ServingStatus.NOT_SERVING);

        proxy.open();
        await("a Create that succeeds once the database is back")
            .atMost(Duration.ofSeconds(20))
            .until(create::get, reply -> reply.status() == GrpcStatus.OK);
        assertThat(health(client)).isEqualTo(HealthCheckResponse.ServingStatus.SERVING);
        assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(1);
      }
    }
    // a lost database is a warning naming the call, without a stack trace or the original value
    assertThat(log.atLeast(Level.WARN))
        .isNotEmpty()
        .allSatisfy(
            event -> {
              assertThat(event.getLevel()).isEqualTo(Level.WARN);
              assertThat(event.getThrowableProxy()).isNull();
              assertThat(event.getFormattedMessage()).doesNotContain("during-outage");
            })
        .anySatisfy(
            event ->
                assertThat(event.getFormattedMessage())
                    .contains("PseudonymService/Create")
                    .contains("not available"));
  }

  /**
   * A PostgreSQL that goes down while the pool's new connections wait for its answer to their
   * request for TLS resets them before the PostgreSQL client has a handler on them; Vert.x would
   * log each at ERROR.
   */
  @Test
  void connectionsResetWhileTheyAskForTlsAreNoErrorsAndTheCallsUnavailable() {
    Logger filterLog = (Logger) LoggerFactory.getLogger(EarlyConnectionResetFilter.class);
    Level filterLevel = filterLog.getLevel();
    filterLog.setLevel(Level.DEBUG);
    ConnectionSettings database = TestPostgres.database();
    try (TcpProxy proxy = new TcpProxy(database.host(), database.port())) {
      String connectionString = proxy.connectionString(database, "Timeout=10;SSL Mode=Prefer");
      try (VfpsServer server =
              TestService.start(Map.of("ConnectionStrings__PostgreSQL", connectionString));
          GrpcTestClient client = new GrpcTestClient(server.grpcPort())) {
        String namespace = client.createNamespace("outage-tls-");

        proxy.resetNewConnections();
        // the calls fail on the pool's cut connections, then on the new ones it opens
        await("a connection reset while it asked for TLS")
            .atMost(Duration.ofSeconds(20))
            .until(
                () -> {
                  assertThat(createOverGrpc(client, namespace, 0).status())
                      .isEqualTo(GrpcStatus.UNAVAILABLE);
                  return log.atLeast(Level.DEBUG).stream()
                      .filter(event -> event.getLoggerName().equals(filterLog.getName()))
                      .toList();
                },
                resets -> !resets.isEmpty());

        proxy.cut();
        proxy.open();
        await("a Create that succeeds once the database is back")
            .atMost(Duration.ofSeconds(20))
            .until(
                () -> createOverGrpc(client, namespace, 1),
                reply -> reply.status() == GrpcStatus.OK);
      }
    } finally {
      filterLog.setLevel(filterLevel);
    }
    assertThat(vertxLog.atLeast(Level.WARN)).isEmpty();
    assertThat(log.atLeast(Level.WARN))
        .allSatisfy(
            event -> {
              assertThat(event.getLevel()).isEqualTo(Level.WARN);
              assertThat(event.getThrowableProxy()).isNull();
            })
        .anySatisfy(
            event -> assertThat(event.getLoggerName()).isEqualTo(EdgeWarnings.class.getName()));
  }

  @Test
  void anOutageWritesItsFirstWarningAtOnceAndThenOnlyCountsTheFailedCalls() {
    ConnectionSettings database = TestPostgres.database();
    int failed = 0;
    long started;
    List<String> duringOutage;
    try (TcpProxy proxy = new TcpProxy(database.host(), database.port())) {
      try (VfpsServer server =
              TestService.start(
                  Map.of("ConnectionStrings__PostgreSQL", proxy.connectionString(database)));
          GrpcTestClient grpc = new GrpcTestClient(server.grpcPort());
          HttpTestClient http = new HttpTestClient(server.httpPort())) {
        String namespace = grpc.createNamespace("outage-log-");

        proxy.cut();
        started = System.nanoTime();
        assertThat(createOverGrpc(grpc, namespace, 0).status()).isEqualTo(GrpcStatus.UNAVAILABLE);
        failed++;
        // the first failed call of the outage is logged at once, before its answer
        assertThat(unavailableLines())
            .singleElement()
            .asString()
            .contains("PseudonymService/Create failed: The database is not available.");

        // gRPC, REST and FHIR calls share the one limit of the server
        for (int i = 1; i <= 300; i++) {
          String value = "during-outage-" + i;
          switch (i % 3) {
            case 0 ->
                assertThat(createOverGrpc(grpc, namespace, i).status())
                    .isEqualTo(GrpcStatus.UNAVAILABLE);
            case 1 ->
                assertThat(
                        http.postJson(
                                "/v1/namespaces/" + namespace + "/pseudonyms",
                                new JsonObject().put("originalValue", value).encode())
                            .status())
                    .isEqualTo(503);
            default ->
                assertThat(
                        http.post(
                                "/v1/fhir/$create-pseudonym",
                                "application/fhir+json",
                                FhirJson.parameters(
                                        FhirJson.string("namespace", namespace),
                                        FhirJson.string("originalValue", value))
                                    .encode()
                                    .getBytes(StandardCharsets.UTF_8))
                            .status())
                    .isEqualTo(503);
          }
          failed++;
        }
        duringOutage = unavailableLines();
      }
    }
    // one line at once, then at most one per 10 s interval that began while calls failed
    long intervals = 1 + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started) / 10;
    assertThat(duringOutage).hasSizeLessThanOrEqualTo((int) intervals + 1);
    // the server's close writes the summary still pending: every failed call is accounted for
    List<String> lines = unavailableLines();
    long accountedFor = 0;
    for (String line : lines) {
      Matcher summary = SUMMARY.matcher(line);
      accountedFor += summary.matches() ? Long.parseLong(summary.group(1).replace(",", "")) : 1;
    }
    assertThat(accountedFor).isEqualTo(failed);
    assertThat(lines).last().asString().matches(SUMMARY);
    assertThat(log.atLeast(Level.WARN))
        .allSatisfy(
            event -> assertThat(event.getFormattedMessage()).doesNotContain("during-outage"));
  }

  private static final Pattern SUMMARY =
      Pattern.compile("^([0-9,]+) more calls failed UNAVAILABLE in the last 00:00:10$");

  /** The WARN lines about calls that failed UNAVAILABLE: full lines and summaries. */
  private List<String> unavailableLines() {
    return log.atLeast(Level.WARN).stream()
        .filter(event -> event.getLoggerName().equals(EdgeWarnings.class.getName()))
        .map(ILoggingEvent::getFormattedMessage)
        .filter(line -> line.contains("not available") || SUMMARY.matcher(line).matches())
        .toList();
  }

  private static Reply<?> createOverGrpc(GrpcTestClient client, String namespace, int i) {
    return client.call(
        PseudonymServiceGrpcClient.Create,
        PseudonymServiceCreateRequest.newBuilder()
            .setNamespace(namespace)
            .setOriginalValue("during-outage-" + i)
            .build());
  }

  private static HealthCheckResponse.ServingStatus health(GrpcTestClient client) {
    return client
        .ok(GrpcTestClient.HEALTH_CHECK, HealthCheckRequest.getDefaultInstance())
        .getStatus();
  }
}
