package org.vfps.access;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.vertx.grpc.common.GrpcStatus;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.AuditLines;
import org.vfps.GrpcTestClient;
import org.vfps.LogCapture;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.PseudonymServiceBatchGetRequest;
import org.vfps.api.v1.PseudonymServiceBatchGetResponse;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.server.VfpsServer;

/** The audit lines of a batch of reverse lookups under each {@code Audit__BatchReads}. */
class AuditBatchReadsIT {

  @RegisterExtension final LogCapture audit = LogCapture.of(Audit.LOGGER);

  /** A namespace of two pseudonyms; the lookup asks for them and one that is none. */
  private record Lookup(String namespace, List<String> originals, List<String> asked) {}

  private static Lookup lookUp(String batchReads) {
    try (VfpsServer server =
            TestService.start(
                Map.of(
                    "ConnectionStrings__PostgreSQL",
                    TestPostgres.uri(),
                    "Audit__BatchReads",
                    batchReads));
        GrpcTestClient client = new GrpcTestClient(server.grpcPort())) {
      String namespace = "audit-batch-" + UUID.randomUUID();
      client.ok(
          NamespaceServiceGrpcClient.Create,
          NamespaceServiceCreateRequest.newBuilder()
              .setName(namespace)
              .setPseudonymLength(16)
              .build());
      List<String> originals =
          List.of("original-a-" + UUID.randomUUID(), "original-b-" + UUID.randomUUID());
      List<String> pseudonyms =
          originals.stream()
              .map(
                  original ->
                      client
                          .ok(
                              PseudonymServiceGrpcClient.Create,
                              PseudonymServiceCreateRequest.newBuilder()
                                  .setNamespace(namespace)
                                  .setOriginalValue(original)
                                  .build())
                          .getPseudonym()
                          .getPseudonymValue())
              .toList();
      List<String> asked = List.of(pseudonyms.get(0), "no,such-pseudonym", pseudonyms.get(1));
      // BatchGet answers NOT_FOUND for the one that is none, after the lookups were audited
      GrpcTestClient.Reply<PseudonymServiceBatchGetResponse> reply =
          client.call(
              PseudonymServiceGrpcClient.BatchGet,
              PseudonymServiceBatchGetRequest.newBuilder()
                  .setNamespace(namespace)
                  .addAllPseudonymValues(asked)
                  .build());
      assertThat(reply.status()).isEqualTo(GrpcStatus.NOT_FOUND);
      return new Lookup(namespace, originals, asked);
    }
  }

  private List<Map<String, String>> batchGetLines() {
    return audit.atLeast(Level.TRACE).stream()
        .filter(event -> event.getFormattedMessage().startsWith("PseudonymService/BatchGet "))
        .map(AuditLines::fields)
        .toList();
  }

  private void assertNoOriginalValue(Lookup lookup) {
    for (ILoggingEvent event : audit.atLeast(Level.TRACE)) {
      for (String original : lookup.originals()) {
        assertThat(event.getFormattedMessage() + event.getKeyValuePairs()).doesNotContain(original);
      }
    }
  }

  @Test
  void perValueWritesALinePerPseudonymWithItsOutcome() {
    Lookup lookup = lookUp("PerValue");

    assertThat(batchGetLines())
        .extracting(line -> line.get("pseudonym") + " " + line.get("outcome"))
        .containsExactly(
            lookup.asked().get(0) + " OK",
            "no,such-pseudonym NOT_FOUND",
            lookup.asked().get(2) + " OK");
    assertNoOriginalValue(lookup);
  }

  @Test
  void perCallWritesOneLineWithCountsAndNoPseudonym() {
    Lookup lookup = lookUp("PerCall");

    assertThat(batchGetLines())
        .singleElement()
        .isEqualTo(
            Map.of(
                "operation", "PseudonymService/BatchGet",
                "outcome", "OK",
                "subject", "anonymous",
                "client", "127.0.0.1",
                "namespace", lookup.namespace(),
                "count", "3",
                "found", "2",
                "withdrawn", "0",
                "not_found", "1",
                "invalid", "0"));
    for (ILoggingEvent event : audit.atLeast(Level.TRACE)) {
      for (String pseudonym : lookup.asked()) {
        assertThat(event.getKeyValuePairs().toString()).doesNotContain(pseudonym);
      }
    }
    assertNoOriginalValue(lookup);
  }

  @Test
  void perCallWithPseudonymsListsThemInRequestOrder() {
    Lookup lookup = lookUp("PerCallWithPseudonyms");

    assertThat(batchGetLines())
        .singleElement()
        .satisfies(
            line -> {
              assertThat(line)
                  .containsEntry("count", "3")
                  .containsEntry("found", "2")
                  .containsEntry("not_found", "1")
                  .containsEntry("namespace", lookup.namespace())
                  .doesNotContainKey("pseudonym");
              assertThat(line.get("pseudonyms"))
                  .isEqualTo(
                      lookup.asked().get(0) + ",no\\u002csuch-pseudonym," + lookup.asked().get(2));
            });
    assertNoOriginalValue(lookup);
  }
}
