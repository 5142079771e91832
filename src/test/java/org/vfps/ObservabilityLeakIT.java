package org.vfps;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.grpc.common.GrpcStatus;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.PseudonymGenerationMethod;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceCreateResponse;
import org.vfps.api.v1.PseudonymServiceGetRequest;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.api.v1.PseudonymServiceListRequest;
import org.vfps.server.VfpsServer;
import org.vfps.tracing.OtlpReceiver;

/**
 * Original values never reach a log line, a span or a metric: creates with recognisable original
 * values, successful and rejected, then a search of everything the service logged at DEBUG,
 * exported as spans and served as metrics.
 */
class ObservabilityLeakIT {

  private final String marker = "ORIGINAL-" + UUID.randomUUID().toString().replace("-", "");
  private final DebugLog logs = new DebugLog();

  @BeforeEach
  void captureLogs() {
    logs.start();
  }

  @AfterEach
  void restoreLogs() {
    logs.stop();
  }

  private String original(String variant) {
    return marker + "-" + variant;
  }

  @Test
  void originalValuesAppearInNoLogSpanOrMetric() throws Exception {
    List<String> exported = new ArrayList<>();
    String metrics;
    try (OtlpReceiver receiver = new OtlpReceiver()) {
      try (VfpsServer server =
              TestService.start(
                  Map.of(
                      "ConnectionStrings__PostgreSQL", TestPostgres.uri(),
                      "MetricsPort", Integer.toString(TestService.freePort()),
                      "Tracing__IsEnabled", "true",
                      "Tracing__Otlp__Endpoint", receiver.endpoint()));
          GrpcTestClient client = new GrpcTestClient(server.grpcPort())) {
        String random =
            namespace(
                client, PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_UNSPECIFIED, 16);
        String hashed =
            namespace(
                client,
                PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_SHA256_HEX_ENCODED,
                64);

        PseudonymServiceCreateResponse created = create(client, random, original("created"));
        assertThat(created.getPseudonym().getOriginalValue()).isEqualTo(original("created"));
        create(client, random, original("created"));
        create(client, hashed, original("hashed"));
        client.ok(
            PseudonymServiceGrpcClient.Get,
            PseudonymServiceGetRequest.newBuilder()
                .setNamespace(random)
                .setPseudonymValue(created.getPseudonym().getPseudonymValue())
                .build());
        client.ok(
            PseudonymServiceGrpcClient.List,
            PseudonymServiceListRequest.newBuilder().setNamespace(random).setPageSize(1).build());
        assertThat(rejected(client, "missing-" + UUID.randomUUID(), original("no-namespace")))
            .isEqualTo(GrpcStatus.NOT_FOUND);
        assertThat(rejected(client, random, original("nul") + "\0"))
            .isEqualTo(GrpcStatus.INVALID_ARGUMENT);
        assertThat(rejected(client, random, original("long") + "x".repeat(3000)))
            .isEqualTo(GrpcStatus.INVALID_ARGUMENT);

        metrics =
            HttpClient.newHttpClient()
                .send(
                    HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + server.metricsPort() + "/metrics"))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                    HttpResponse.BodyHandlers.ofString())
                .body();
      }
      receiver
          .requests()
          .forEach(
              request -> {
                exported.add(request.toString());
                exported.add(new String(request.toByteArray(), StandardCharsets.UTF_8));
              });
      assertThat(receiver.spans())
          .as("the Create spans were exported, so the search below saw them")
          .anySatisfy(
              span -> assertThat(span.name()).isEqualTo("vfps.api.v1.PseudonymService/Create"));
    }
    List<String> logLines = logs.events().stream().map(DebugLog::describe).toList();

    assertThat(logLines).as("the log was captured").anyMatch(line -> line.contains("started in"));
    assertThat(metrics).as("the metrics were scraped").contains("vfps_upsert_duration_seconds");
    assertThat(String.join("\n", logLines)).doesNotContain(marker);
    assertThat(exported).noneMatch(text -> text.contains(marker));
    assertThat(metrics).doesNotContain(marker);
  }

  private static String namespace(
      GrpcTestClient client, PseudonymGenerationMethod method, int length) {
    String name = "leak-" + UUID.randomUUID();
    client.ok(
        NamespaceServiceGrpcClient.Create,
        NamespaceServiceCreateRequest.newBuilder()
            .setName(name)
            .setPseudonymGenerationMethod(method)
            .setPseudonymLength(length)
            .build());
    return name;
  }

  private static PseudonymServiceCreateResponse create(
      GrpcTestClient client, String namespace, String originalValue) {
    return client.ok(PseudonymServiceGrpcClient.Create, request(namespace, originalValue));
  }

  private static GrpcStatus rejected(
      GrpcTestClient client, String namespace, String originalValue) {
    return client
        .call(PseudonymServiceGrpcClient.Create, request(namespace, originalValue))
        .status();
  }

  private static PseudonymServiceCreateRequest request(String namespace, String originalValue) {
    return PseudonymServiceCreateRequest.newBuilder()
        .setNamespace(namespace)
        .setOriginalValue(originalValue)
        .build();
  }
}
