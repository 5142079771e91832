package org.vfps.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.vertx.grpc.common.GrpcMessageDecoder;
import io.vertx.grpc.common.GrpcMessageEncoder;
import io.vertx.grpc.common.ServiceMethod;
import io.vertx.grpc.common.ServiceName;
import io.vertx.grpc.health.v1.HealthCheckRequest;
import io.vertx.grpc.health.v1.HealthCheckResponse;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.GrpcTestClient;
import org.vfps.LogCapture;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.server.VfpsServer;
import org.vfps.tracing.OtlpReceiver.ReceivedSpan;

/** Spans of a running service, as an OTLP collector receives them. */
class TracingIT {

  private static final SecureRandom RANDOM = new SecureRandom();

  private static final ServiceMethod<HealthCheckResponse, HealthCheckRequest> HEALTH_CHECK =
      ServiceMethod.client(
          ServiceName.create("grpc.health.v1", "Health"),
          "Check",
          GrpcMessageEncoder.encoder(),
          GrpcMessageDecoder.decoder(HealthCheckResponse.newBuilder()));

  private static String randomHex(int bytes) {
    byte[] id = new byte[bytes];
    RANDOM.nextBytes(id);
    return HexFormat.of().formatHex(id);
  }

  @RegisterExtension final LogCapture tracingLog = LogCapture.of("org.vfps.tracing");

  @RegisterExtension final LogCapture openTelemetryLog = LogCapture.of("io.opentelemetry");

  private static VfpsServer start(OtlpReceiver receiver, String serviceName, String rootSampler) {
    return start(receiver.endpoint(), serviceName, rootSampler);
  }

  private static VfpsServer start(String endpoint, String serviceName, String rootSampler) {
    Map<String, String> env = new HashMap<>();
    env.put("ConnectionStrings__PostgreSQL", TestPostgres.uri());
    env.put("MetricsPort", Integer.toString(TestService.freePort()));
    env.put("Tracing__IsEnabled", "true");
    env.put("Tracing__ServiceName", serviceName);
    env.put("Tracing__RootSampler", rootSampler);
    env.put("Tracing__Otlp__Endpoint", endpoint);
    return TestService.start(env);
  }

  private static String createNamespace(GrpcTestClient client, Map<String, String> headers) {
    String name = "tracing-" + UUID.randomUUID();
    client.call(
        NamespaceServiceGrpcClient.Create,
        NamespaceServiceCreateRequest.newBuilder().setName(name).setPseudonymLength(16).build(),
        headers);
    return name;
  }

  @Test
  void aCreateContinuesTheIncomingTraceWithServerDatabaseAndGenerationSpans() {
    String serviceName = "vfps-tracing-" + UUID.randomUUID();
    String traceId = randomHex(16);
    String parentSpanId = randomHex(8);
    Map<String, String> traceparent =
        Map.of("traceparent", "00-" + traceId + "-" + parentSpanId + "-01");
    List<ReceivedSpan> spans;
    try (OtlpReceiver receiver = new OtlpReceiver()) {
      // the root sampler samples nothing: only the incoming sampled parent can make spans
      try (VfpsServer server = start(receiver, serviceName, "AlwaysOffSampler");
          GrpcTestClient client = new GrpcTestClient(server.grpcPort())) {
        String namespace = createNamespace(client, Map.of());
        client.call(
            PseudonymServiceGrpcClient.Create,
            PseudonymServiceCreateRequest.newBuilder()
                .setNamespace(namespace)
                .setOriginalValue("traced")
                .build(),
            traceparent);
      }
      // closing the server exported what was buffered
      spans = receiver.spans();
    }

    assertThat(spans)
        .isNotEmpty()
        .allSatisfy(span -> assertThat(span.traceId()).isEqualTo(traceId));
    assertThat(spans)
        .allSatisfy(
            span ->
                assertThat(span.resourceAttributes())
                    .containsEntry("service.name", serviceName)
                    .containsKeys("service.version", "service.instance.id"));
    ReceivedSpan server = only(spans, "vfps.api.v1.PseudonymService/Create");
    assertThat(server.span().getKind())
        .isEqualTo(io.opentelemetry.proto.trace.v1.Span.SpanKind.SPAN_KIND_SERVER);
    assertThat(server.parentSpanId()).isEqualTo(parentSpanId);
    assertThat(server.attributes())
        .containsEntry("rpc.system", "grpc")
        .containsEntry("rpc.service", "vfps.api.v1.PseudonymService")
        .containsEntry("rpc.method", "Create")
        .containsEntry("rpc.grpc.status_code", "0")
        .containsEntry("url.path", "/vfps.api.v1.PseudonymService/Create");
    ReceivedSpan generation = only(spans, "GeneratePseudonym");
    assertThat(generation.parentSpanId()).isEqualTo(server.spanId());
    assertThat(generation.attributes())
        .containsEntry("vfps.pseudonym.generation_method", "Unspecified");
    List<ReceivedSpan> statements =
        spans.stream().filter(span -> span.attributes().containsKey("db.query.text")).toList();
    assertThat(statements)
        .hasSize(2)
        .allSatisfy(
            statement -> {
              assertThat(statement.parentSpanId()).isEqualTo(server.spanId());
              assertThat(statement.attributes()).containsEntry("db.system", "postgresql");
            });
    assertThat(statements)
        .extracting(statement -> statement.attributes().get("db.query.text"))
        .anySatisfy(sql -> assertThat(sql).contains("FROM namespaces"))
        .anySatisfy(sql -> assertThat(sql).contains("INSERT INTO pseudonyms"));
  }

  @Test
  void rootSpansFollowTheRootSamplerWhileProbesAndTheScrapeAreNeverTraced() throws Exception {
    String serviceName = "vfps-tracing-" + UUID.randomUUID();
    List<ReceivedSpan> spans;
    try (OtlpReceiver receiver = new OtlpReceiver()) {
      try (VfpsServer server = start(receiver, serviceName, "AlwaysOnSampler");
          GrpcTestClient client = new GrpcTestClient(server.grpcPort())) {
        client.ok(HEALTH_CHECK, HealthCheckRequest.getDefaultInstance());
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + server.metricsPort() + "/metrics"))
                    .timeout(Duration.ofSeconds(10))
                    .build(),
                HttpResponse.BodyHandlers.discarding());
        createNamespace(client, Map.of());
      }
      spans = receiver.spans();
    }

    ReceivedSpan create = only(spans, "vfps.api.v1.NamespaceService/Create");
    assertThat(create.parentSpanId()).isEmpty();
    assertThat(spans)
        .extracting(span -> span.attributes().getOrDefault("url.path", ""))
        .doesNotContain("/grpc.health.v1.Health/Check", "/metrics");
    // the health check's database ping is not traced either
    assertThat(spans)
        .extracting(span -> span.attributes().getOrDefault("db.query.text", ""))
        .doesNotContain("SELECT 1");
    assertThat(spans).allSatisfy(span -> assertThat(span.traceId()).isEqualTo(create.traceId()));
  }

  @Test
  void aCollectorThatIsDownIsOneWarningWithoutAStackTraceAndOpenTelemetryLogsThroughLogback() {
    String endpoint = "http://127.0.0.1:" + TestService.freePort() + "/v1/traces";
    // what OpenTelemetry logs at WARNING and above through java.util.logging, bridged or not
    List<LogRecord> severe = new CopyOnWriteArrayList<>();
    Handler recorder =
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= java.util.logging.Level.WARNING.intValue()) {
              severe.add(record);
            }
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    java.util.logging.Logger openTelemetry = java.util.logging.Logger.getLogger("io.opentelemetry");
    openTelemetry.addHandler(recorder);
    try {
      try (VfpsServer server =
              start(endpoint, "vfps-tracing-" + UUID.randomUUID(), "AlwaysOnSampler");
          GrpcTestClient client = new GrpcTestClient(server.grpcPort())) {
        createNamespace(client, Map.of());
      }
      // closing the server exported what was buffered, to no one
      java.util.logging.Logger.getLogger("io.opentelemetry.vfps-test")
          .warning("a line of OpenTelemetry's");
    } finally {
      openTelemetry.removeHandler(recorder);
    }

    assertThat(tracingLog.atLeast(Level.WARN))
        .singleElement()
        .satisfies(
            warning -> {
              assertThat(warning.getFormattedMessage())
                  .startsWith("Tracing: ")
                  .contains("spans could not be sent to " + endpoint + " (ConnectException");
              assertThat(warning.getThrowableProxy()).isNull();
            });
    // the exporter's own line per failure, a SEVERE with the stack trace, is off
    assertThat(severe)
        .extracting(LogRecord::getMessage)
        .containsExactly("a line of OpenTelemetry's");
    // and OpenTelemetry's other lines reach logback, in the configured format
    assertThat(openTelemetryLog.atLeast(Level.WARN))
        .extracting(ILoggingEvent::getFormattedMessage)
        .containsExactly("a line of OpenTelemetry's");
  }

  private static ReceivedSpan only(List<ReceivedSpan> spans, String name) {
    List<ReceivedSpan> named = spans.stream().filter(span -> span.name().equals(name)).toList();
    assertThat(named).as("spans named " + name + " in " + names(spans)).hasSize(1);
    return named.get(0);
  }

  private static List<String> names(List<ReceivedSpan> spans) {
    return spans.stream().map(ReceivedSpan::name).toList();
  }
}
