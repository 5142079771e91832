package org.vfps.pseudonym;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.grpc.common.GrpcStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.ClassResources;
import org.vfps.GrpcTestClient;
import org.vfps.GrpcTestClient.Reply;
import org.vfps.HttpTestClient;
import org.vfps.HttpTestClient.Response;
import org.vfps.LogCapture;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.PseudonymServiceBatchGetRequest;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceGetRequest;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.api.v1.PseudonymServiceListRequest;
import org.vfps.api.v1.PseudonymServiceResolveRequest;
import org.vfps.api.x.withdrawal.v1.AnonymizeOriginalRequest;
import org.vfps.api.x.withdrawal.v1.BatchDeletePseudonymsRequest;
import org.vfps.api.x.withdrawal.v1.BatchDeletePseudonymsResponse;
import org.vfps.api.x.withdrawal.v1.DeletePseudonymsRequest;
import org.vfps.api.x.withdrawal.v1.WithdrawalServiceGrpcClient;
import org.vfps.server.VfpsServer;

/**
 * Consent withdrawal through gRPC and REST, on a replica with both caches on: what each withdrawal
 * leaves in the database and the cache, what reverse lookups and new Creates answer afterwards, the
 * audit trail, and Creates racing withdrawals of the same value.
 */
class WithdrawalIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  @RegisterExtension final LogCapture logs = LogCapture.of(Logger.ROOT_LOGGER_NAME);

  private static VfpsServer server;
  private static GrpcTestClient grpc;
  private static HttpTestClient http;

  @BeforeAll
  static void start() {
    server =
        resources.own(
            TestService.start(
                Map.of(
                    "ConnectionStrings__PostgreSQL", TestPostgres.uri(),
                    "Pseudonymization__Caching__Namespaces__IsEnabled", "true",
                    "Pseudonymization__Caching__Pseudonyms__IsEnabled", "true")));
    grpc = resources.own(new GrpcTestClient(server.grpcPort()));
    http = resources.own(new HttpTestClient(server.httpPort()));
  }

  private static String create(String namespace, String originalValue) {
    return grpc.ok(
            PseudonymServiceGrpcClient.Create,
            PseudonymServiceCreateRequest.newBuilder()
                .setNamespace(namespace)
                .setOriginalValue(originalValue)
                .build())
        .getPseudonym()
        .getPseudonymValue();
  }

  private static Reply<?> get(String namespace, String pseudonym) {
    return grpc.call(
        PseudonymServiceGrpcClient.Get,
        PseudonymServiceGetRequest.newBuilder()
            .setNamespace(namespace)
            .setPseudonymValue(pseudonym)
            .build());
  }

  /** What the database holds for the value, past every cache. */
  private static List<String> stored(String namespace, String originalValue) {
    Reply<org.vfps.api.v1.PseudonymServiceResolveResponse> reply =
        grpc.call(
            PseudonymServiceGrpcClient.Resolve,
            PseudonymServiceResolveRequest.newBuilder()
                .setNamespace(namespace)
                .setOriginalValue(originalValue)
                .build());
    if (reply.status() == GrpcStatus.NOT_FOUND) {
      return List.of();
    }
    assertThat(reply.status()).as(reply.message()).isEqualTo(GrpcStatus.OK);
    return reply.body().getPseudonymsList().stream()
        .map(org.vfps.api.v1.Pseudonym::getPseudonymValue)
        .toList();
  }

  private static Reply<org.vfps.api.x.withdrawal.v1.DeletePseudonymsResponse> delete(
      String namespace, String originalValue) {
    return grpc.call(
        WithdrawalServiceGrpcClient.DeletePseudonyms,
        DeletePseudonymsRequest.newBuilder()
            .setNamespace(namespace)
            .setOriginalValue(originalValue)
            .build());
  }

  private static Reply<org.vfps.api.x.withdrawal.v1.AnonymizeOriginalResponse> anonymize(
      String namespace, String originalValue) {
    return grpc.call(
        WithdrawalServiceGrpcClient.AnonymizeOriginal,
        AnonymizeOriginalRequest.newBuilder()
            .setNamespace(namespace)
            .setOriginalValue(originalValue)
            .build());
  }

  @Test
  void aDeleteRemovesThePairEverywhereAndANewCreateMakesANewPseudonym() {
    String namespace = grpc.createNamespace("withdraw-");
    String pseudonym = create(namespace, "patient-1");
    String other = create(namespace, "patient-2");

    Reply<org.vfps.api.x.withdrawal.v1.DeletePseudonymsResponse> deleted =
        delete(namespace, "patient-1");

    assertThat(deleted.status()).as(deleted.message()).isEqualTo(GrpcStatus.OK);
    assertThat(deleted.body().getNamespace()).isEqualTo(namespace);
    assertThat(deleted.body().getPseudonymsList())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.getPseudonymValue()).isEqualTo(pseudonym);
              assertThat(p.hasOriginalValue()).isFalse();
            });
    assertThat(get(namespace, pseudonym).status()).isEqualTo(GrpcStatus.NOT_FOUND);
    assertThat(stored(namespace, "patient-1")).isEmpty();
    assertThat(stored(namespace, "patient-2")).containsExactly(other);
    String renewed = create(namespace, "patient-1");
    assertThat(renewed).isNotEqualTo(pseudonym);
    assertThat(stored(namespace, "patient-1")).containsExactly(renewed);
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(2);
  }

  @Test
  void anAnonymizedValueOfADeterministicMethodCannotBeCreatedAgainAndSaysWhy() {
    String namespace = "withdraw-sha-" + java.util.UUID.randomUUID();
    grpc.ok(
        org.vfps.api.v1.NamespaceServiceGrpcClient.Create,
        org.vfps.api.v1.NamespaceServiceCreateRequest.newBuilder()
            .setName(namespace)
            .setPseudonymGenerationMethod(
                org.vfps.api.v1.PseudonymGenerationMethod
                    .PSEUDONYM_GENERATION_METHOD_SHA256_HEX_ENCODED)
            .setPseudonymLength(64)
            .build());
    create(namespace, "patient-sha");
    assertThat(anonymize(namespace, "patient-sha").status()).isEqualTo(GrpcStatus.OK);

    Reply<?> again =
        grpc.call(
            PseudonymServiceGrpcClient.Create,
            PseudonymServiceCreateRequest.newBuilder()
                .setNamespace(namespace)
                .setOriginalValue("patient-sha")
                .build());
    assertThat(again.status()).as(again.message()).isEqualTo(GrpcStatus.FAILED_PRECONDITION);
    assertThat(again.message()).contains("anonymized").doesNotContain("patient-sha");
    Reply<?> batch =
        grpc.call(
            PseudonymServiceGrpcClient.BatchCreate,
            org.vfps.api.v1.PseudonymServiceBatchCreateRequest.newBuilder()
                .setNamespace(namespace)
                .addOriginalValues("patient-other")
                .addOriginalValues("patient-sha")
                .build());
    assertThat(batch.status()).as(batch.message()).isEqualTo(GrpcStatus.FAILED_PRECONDITION);
    assertThat(batch.message()).contains("anonymized").doesNotContain("patient-sha");
  }

  @Test
  void anUnknownValueOrNamespaceIsNotFoundAndABlankValueInvalid() {
    String namespace = grpc.createNamespace("withdraw-");
    create(namespace, "present");

    Reply<?> unknown = delete(namespace, "absent");
    Reply<?> unknownAnonymize = anonymize(namespace, "absent");
    String missing = "no-such-" + UUID.randomUUID();
    Reply<?> noNamespace = delete(missing, "present");
    Reply<?> blank = anonymize(namespace, "  ");

    assertThat(unknown.status()).isEqualTo(GrpcStatus.NOT_FOUND);
    assertThat(unknown.message()).contains("No pseudonym exists").doesNotContain("absent");
    assertThat(unknownAnonymize.status()).isEqualTo(GrpcStatus.NOT_FOUND);
    assertThat(noNamespace.status()).isEqualTo(GrpcStatus.NOT_FOUND);
    assertThat(noNamespace.message())
        .isEqualTo("The requested pseudonym namespace '" + missing + "' does not exist.");
    assertThat(blank.status()).isEqualTo(GrpcStatus.INVALID_ARGUMENT);
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(1);
  }

  @Test
  void anAnonymizedValueKeepsItsPseudonymWhoseLookupAnswersWithdrawn() {
    String namespace = grpc.createNamespace("withdraw-");
    String pseudonym = create(namespace, "patient-1");

    Reply<org.vfps.api.x.withdrawal.v1.AnonymizeOriginalResponse> anonymized =
        anonymize(namespace, "patient-1");

    assertThat(anonymized.status()).as(anonymized.message()).isEqualTo(GrpcStatus.OK);
    assertThat(anonymized.body().getPseudonymsList())
        .extracting(org.vfps.api.v1.Pseudonym::getPseudonymValue)
        .containsExactly(pseudonym);
    Reply<?> lookup = get(namespace, pseudonym);
    assertThat(lookup.status()).isEqualTo(GrpcStatus.NOT_FOUND);
    assertThat(lookup.message()).contains("withdrawn");
    Reply<?> batchLookup =
        grpc.call(
            PseudonymServiceGrpcClient.BatchGet,
            PseudonymServiceBatchGetRequest.newBuilder()
                .setNamespace(namespace)
                .addPseudonymValues(pseudonym)
                .build());
    assertThat(batchLookup.status()).isEqualTo(GrpcStatus.NOT_FOUND);
    assertThat(batchLookup.message())
        .isEqualTo("The original value of the pseudonym 1 of 1 was withdrawn.");
    Response rest = http.get("/v1/namespaces/" + namespace + "/pseudonyms/" + pseudonym);
    assertThat(rest.status()).isEqualTo(404);
    assertThat(rest.json().getString("message")).contains("withdrawn");
    assertThat(
            grpc.ok(
                    PseudonymServiceGrpcClient.List,
                    PseudonymServiceListRequest.newBuilder()
                        .setNamespace(namespace)
                        .setIncludeTotalSize(true)
                        .build())
                .getPseudonymsList())
        .extracting(org.vfps.api.v1.Pseudonym::getPseudonymValue)
        .containsExactly(pseudonym);
    // the stored replacement is blank: no Create can reach it, nobody can read the value back
    assertThat(
            TestPostgres.queryLong(
                TestPostgres.database(),
                "SELECT count(*) FROM pseudonyms WHERE namespace_name = ? AND pseudonym_value = ?"
                    + " AND original_value <> 'patient-1' AND btrim(original_value, E' \\t') = ''",
                namespace,
                pseudonym))
        .isEqualTo(1);
    String renewed = create(namespace, "patient-1");
    assertThat(renewed).isNotEqualTo(pseudonym);
    assertThat(stored(namespace, "patient-1")).containsExactly(renewed);
    assertThat(anonymize(namespace, "patient-1").status()).isEqualTo(GrpcStatus.OK);
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(2);
    assertThat(stored(namespace, "patient-1")).isEmpty();
  }

  @Test
  void aWithdrawalTakesEverySequenceNumberOfTheValue() {
    String namespace = "withdraw-many-" + UUID.randomUUID();
    grpc.ok(
        NamespaceServiceGrpcClient.Create,
        NamespaceServiceCreateRequest.newBuilder()
            .setName(namespace)
            .setPseudonymLength(16)
            .setAllowsMultiplePseudonyms(true)
            .build());
    List<String> three =
        grpc
            .ok(
                PseudonymServiceGrpcClient.Create,
                PseudonymServiceCreateRequest.newBuilder()
                    .setNamespace(namespace)
                    .setOriginalValue("patient")
                    .setCount(3)
                    .build())
            .getPseudonymsList()
            .stream()
            .map(org.vfps.api.v1.Pseudonym::getPseudonymValue)
            .toList();

    Reply<org.vfps.api.x.withdrawal.v1.DeletePseudonymsResponse> deleted =
        delete(namespace, "patient");

    assertThat(deleted.body().getPseudonymsList())
        .extracting(org.vfps.api.v1.Pseudonym::getPseudonymValue)
        .containsExactlyElementsOf(three);
    assertThat(deleted.body().getPseudonymsList())
        .extracting(org.vfps.api.v1.Pseudonym::getSequenceNumber)
        .containsExactly(0L, 1L, 2L);
    assertThat(TestPostgres.pseudonymCount(namespace)).isZero();
  }

  @Test
  void restBatchesAnswerEachValueInRequestOrder() {
    String namespace = grpc.createNamespace("withdraw-");
    String a = create(namespace, "a");
    String b = create(namespace, "b");
    String c = create(namespace, "c");
    String path = "/x/v1/namespaces/" + namespace + "/pseudonyms:";

    Response deleted =
        http.postJson(
            path + "batchDelete",
            new JsonObject()
                .put("originalValues", new JsonArray(List.of("a", "x", "a", "b")))
                .encode());
    Response anonymized =
        http.postJson(
            path + "batchAnonymize",
            new JsonObject().put("original_values", new JsonArray(List.of("c", "a"))).encode());

    assertThat(deleted.status()).as(deleted.body()).isEqualTo(200);
    JsonArray results = deleted.json().getJsonArray("results");
    assertThat(results.stream().map(r -> ((JsonObject) r).getString("outcome")))
        .containsExactly(
            "WITHDRAWAL_OUTCOME_DELETED",
            "WITHDRAWAL_OUTCOME_NOT_FOUND",
            "WITHDRAWAL_OUTCOME_DELETED",
            "WITHDRAWAL_OUTCOME_DELETED");
    assertThat(pseudonymValues(results.getJsonObject(0))).containsExactly(a);
    assertThat(pseudonymValues(results.getJsonObject(1))).isEmpty();
    assertThat(pseudonymValues(results.getJsonObject(2))).containsExactly(a);
    assertThat(pseudonymValues(results.getJsonObject(3))).containsExactly(b);
    assertThat(anonymized.status()).as(anonymized.body()).isEqualTo(200);
    assertThat(
            anonymized.json().getJsonArray("results").stream()
                .map(r -> ((JsonObject) r).getString("outcome")))
        .containsExactly("WITHDRAWAL_OUTCOME_ANONYMIZED", "WITHDRAWAL_OUTCOME_NOT_FOUND");
    assertThat(pseudonymValues(anonymized.json().getJsonArray("results").getJsonObject(0)))
        .containsExactly(c);
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(1);
  }

  @Test
  void restSingleCallsAnswerThePseudonymsAndNotFoundAsA404() {
    String namespace = grpc.createNamespace("withdraw-");
    String a = create(namespace, "a");
    String path = "/x/v1/namespaces/" + namespace + "/pseudonyms:";

    Response anonymized =
        http.postJson(path + "anonymize", new JsonObject().put("originalValue", "a").encode());
    Response again =
        http.postJson(path + "delete", new JsonObject().put("original_value", "a").encode());

    assertThat(anonymized.status()).as(anonymized.body()).isEqualTo(200);
    assertThat(pseudonymValues(anonymized.json())).containsExactly(a);
    assertThat(again.status()).isEqualTo(404);
    assertThat(again.json().getInteger("code")).isEqualTo(5);
  }

  @Test
  void aBatchWithAnInvalidValueWithdrawsNothing() {
    String namespace = grpc.createNamespace("withdraw-");
    create(namespace, "a");

    Reply<BatchDeletePseudonymsResponse> reply =
        grpc.call(
            WithdrawalServiceGrpcClient.BatchDeletePseudonyms,
            BatchDeletePseudonymsRequest.newBuilder()
                .setNamespace(namespace)
                .addOriginalValues("a")
                .addOriginalValues("")
                .build());

    assertThat(reply.status()).isEqualTo(GrpcStatus.INVALID_ARGUMENT);
    assertThat(reply.message()).isEqualTo("The original value 2 of 2 must not be blank.");
    assertThat(reply.trailers().get("index")).isEqualTo("1");
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(1);
  }

  @Test
  void theAuditTrailNamesEveryWithdrawnPseudonymAndNoLogLineTheOriginalValue() {
    String namespace = grpc.createNamespace("withdraw-");
    String secret = "person-" + UUID.randomUUID();
    String pseudonym = create(namespace, secret);

    assertThat(delete(namespace, secret).status()).isEqualTo(GrpcStatus.OK);
    assertThat(delete(namespace, secret).status()).isEqualTo(GrpcStatus.NOT_FOUND);
    create(namespace, secret);
    assertThat(anonymize(namespace, secret).status()).isEqualTo(GrpcStatus.OK);

    List<ILoggingEvent> events = logs.atLeast(Level.TRACE);
    List<String> audit =
        events.stream()
            .filter(event -> event.getLoggerName().equals("audit"))
            .map(WithdrawalIT::line)
            .toList();
    assertThat(audit)
        .anySatisfy(
            line ->
                assertThat(line)
                    .startsWith("WithdrawalService/DeletePseudonyms OK")
                    .contains("namespace=" + namespace, "pseudonym=" + pseudonym));
    assertThat(audit)
        .anySatisfy(
            line ->
                assertThat(line)
                    .startsWith("WithdrawalService/DeletePseudonyms NOT_FOUND")
                    .contains("namespace=" + namespace)
                    .doesNotContain("pseudonym="));
    assertThat(audit)
        .anySatisfy(line -> assertThat(line).startsWith("WithdrawalService/AnonymizeOriginal OK"));
    assertThat(events).extracting(WithdrawalIT::line).noneMatch(line -> line.contains(secret));
  }

  @Test
  void createsRacingWithdrawalsOfTheSameValueEndInOneOrderNeverInAStaleCachedPair() {
    String namespace = grpc.createNamespace("withdraw-race-");
    for (int round = 0; round < 40; round++) {
      String value = "racer-" + round;
      create(namespace, value);
      Future<? extends Reply<?>> withdrawal =
          round % 2 == 0
              ? grpc.callAsync(
                  WithdrawalServiceGrpcClient.DeletePseudonyms,
                  DeletePseudonymsRequest.newBuilder()
                      .setNamespace(namespace)
                      .setOriginalValue(value)
                      .build())
              : grpc.callAsync(
                  WithdrawalServiceGrpcClient.AnonymizeOriginal,
                  AnonymizeOriginalRequest.newBuilder()
                      .setNamespace(namespace)
                      .setOriginalValue(value)
                      .build());
      List<Future<?>> creates = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        creates.add(
            grpc.callAsync(
                PseudonymServiceGrpcClient.Create,
                PseudonymServiceCreateRequest.newBuilder()
                    .setNamespace(namespace)
                    .setOriginalValue(value)
                    .build()));
      }
      creates.add(withdrawal);
      Future.join(creates).await();
      assertThat(withdrawal.result().status()).isEqualTo(GrpcStatus.OK);

      // whatever the order, a Create now answers what the database holds
      String now = create(namespace, value);
      assertThat(stored(namespace, value)).as("round " + round).containsExactly(now);
    }
  }

  private static List<String> pseudonymValues(JsonObject holder) {
    return holder.getJsonArray("pseudonyms").stream()
        .map(p -> ((JsonObject) p).getString("pseudonymValue"))
        .toList();
  }

  /** The event's message with its key-value pairs, as the text format writes them. */
  private static String line(ILoggingEvent event) {
    StringBuilder line = new StringBuilder(event.getFormattedMessage());
    if (event.getKeyValuePairs() != null) {
      event
          .getKeyValuePairs()
          .forEach(pair -> line.append(' ').append(pair.key).append('=').append(pair.value));
    }
    if (event.getThrowableProxy() != null) {
      line.append(' ').append(event.getThrowableProxy().getMessage());
    }
    return line.toString();
  }
}
