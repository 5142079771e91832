package org.vfps.log;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.vertx.grpc.common.GrpcStatus;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.GrpcTestClient;
import org.vfps.HttpTestClient;
import org.vfps.LogCapture;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.server.VfpsServer;

/** The one line per request that the client's error ended ({@code Logging__ClientErrors}). */
class ClientErrorLinesIT {

  @RegisterExtension final LogCapture log = LogCapture.of("org.vfps");

  /** Three client errors: gRPC, REST and FHIR, each in a namespace that does not exist. */
  private static String sendClientErrors(Map<String, String> settings, String original) {
    Map<String, String> environment = new java.util.HashMap<>(settings);
    environment.put("ConnectionStrings__PostgreSQL", TestPostgres.uri());
    String missing = "no-such-namespace-" + UUID.randomUUID();
    try (VfpsServer server = TestService.start(environment);
        GrpcTestClient grpc = new GrpcTestClient(server.grpcPort());
        HttpTestClient http = new HttpTestClient(server.httpPort())) {
      assertThat(
              grpc.call(
                      PseudonymServiceGrpcClient.Create,
                      PseudonymServiceCreateRequest.newBuilder()
                          .setNamespace(missing)
                          .setOriginalValue(original)
                          .build())
                  .status())
          .isEqualTo(GrpcStatus.NOT_FOUND);
      assertThat(
              http.postJson(
                      "/v1/namespaces/" + missing + "/pseudonyms",
                      "{\"originalValue\": \"" + original + "\"}")
                  .status())
          .isEqualTo(404);
      // not JSON at all: the contract refuses it before any operation runs
      assertThat(
              http.post(
                      "/v1/fhir/$create-pseudonym",
                      "application/fhir+json",
                      ("{\"resourceType\": \"Parameters\", \"parameter\": " + original)
                          .getBytes(java.nio.charset.StandardCharsets.UTF_8))
                  .status())
          .isEqualTo(400);
    }
    return missing;
  }

  private List<ILoggingEvent> rejectedLines() {
    return log.atLeast(Level.TRACE).stream()
        .filter(event -> event.getFormattedMessage().contains(" rejected: "))
        .toList();
  }

  @Test
  void infoWritesOneLinePerClientErrorWithoutTheValue() {
    String original = "original-" + UUID.randomUUID();
    String missing = sendClientErrors(Map.of("Logging__ClientErrors", "Info"), original);

    assertThat(rejectedLines())
        .allSatisfy(event -> assertThat(event.getLevel()).isEqualTo(Level.INFO))
        .extracting(ILoggingEvent::getFormattedMessage)
        .containsExactly(
            "vfps.api.v1.PseudonymService/Create rejected: NOT_FOUND",
            "POST PseudonymService_Create rejected: NOT_FOUND",
            "$create-pseudonym rejected: 400");
    for (ILoggingEvent event : log.atLeast(Level.TRACE)) {
      assertThat(event.getFormattedMessage()).doesNotContain(original);
    }
    // the unknown namespace is the client's text too
    assertThat(rejectedLines())
        .extracting(ILoggingEvent::getFormattedMessage)
        .noneMatch(message -> message.contains(missing));
  }

  @Test
  void byDefaultTheLinesAreDebugAndNotInTheDefaultLog() {
    sendClientErrors(Map.of(), "original-" + UUID.randomUUID());

    assertThat(rejectedLines()).noneMatch(event -> event.getLevel().isGreaterOrEqual(Level.INFO));
  }
}
