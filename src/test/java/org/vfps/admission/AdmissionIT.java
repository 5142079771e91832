package org.vfps.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.vfps.admission.LockableService.ANSWER_SECONDS;

import ch.qos.logback.classic.Level;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.grpc.client.GrpcClientRequest;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.health.v1.HealthCheckRequest;
import io.vertx.grpc.health.v1.HealthCheckResponse;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.GrpcTestClient;
import org.vfps.GrpcTestClient.Reply;
import org.vfps.HttpTestClient.Response;
import org.vfps.LogCapture;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceGetAllRequest;
import org.vfps.api.v1.NamespaceServiceGetAllResponse;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.Pseudonym;
import org.vfps.api.v1.PseudonymServiceBatchCreateRequest;
import org.vfps.api.v1.PseudonymServiceBatchGetRequest;
import org.vfps.api.v1.PseudonymServiceBatchGetResponse;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceCreateResponse;
import org.vfps.api.v1.PseudonymServiceGetRequest;
import org.vfps.api.v1.PseudonymServiceGrpcClient;

/**
 * Admission control through the real listeners. Requests are made slow by a table lock the test
 * holds, so they keep their places for as long as the test wants; what is refused is refused while
 * they still wait, so no clock decides the outcome.
 */
class AdmissionIT {

  /** The start-up's warnings and the refusals' debug lines: kept off the build's output. */
  @RegisterExtension final LogCapture log = LogCapture.of("org.vfps");

  @Test
  void beyondTheBoundEveryEdgeRefusesAtOnceWhileProbesHealthAndMetricsAnswer() throws Exception {
    try (LockableService service =
        new LockableService(
            Map.of(
                "Admission__MaxConcurrentRequests",
                "2",
                // the test's clients are one caller, which may take every place
                "Admission__MaxConcurrentRequestsPerCaller",
                "2"))) {
      service.lock();
      // a gRPC and a REST Create take both places and wait for the lock
      Future<Reply<PseudonymServiceCreateResponse>> grpcHolder =
          service.grpc.callAsync(PseudonymServiceGrpcClient.Create, service.create("held-grpc"));
      CompletableFuture<Response> restHolder =
          CompletableFuture.supplyAsync(() -> service.restCreate("held-rest"));
      service.awaitGauge("vfps_admission_requests_in_flight", 2);

      Reply<PseudonymServiceCreateResponse> refused = service.answer("refused", Map.of());
      assertThat(refused.status()).isEqualTo(GrpcStatus.RESOURCE_EXHAUSTED);
      assertThat(refused.message()).contains("(Admission__MaxConcurrentRequests)");

      Response rest = service.restCreate("refused-rest");
      assertThat(rest.status()).as(rest.body()).isEqualTo(503);
      assertThat(rest.headers().firstValue("retry-after")).hasValue("1");
      assertThat(rest.json().getInteger("code")).isEqualTo(GrpcStatus.RESOURCE_EXHAUSTED.code);
      assertThat(rest.json().getString("message")).contains("(Admission__MaxConcurrentRequests)");

      Response fhir = service.fhirCreate("refused-fhir");
      assertThat(fhir.status()).as(fhir.body()).isEqualTo(503);
      assertThat(fhir.headers().firstValue("retry-after")).hasValue("1");
      assertThat(fhir.contentType()).isEqualTo("application/fhir+json; charset=utf-8");
      assertThat(fhir.json().getString("resourceType")).isEqualTo("OperationOutcome");
      assertThat(fhir.json().getJsonArray("issue").getJsonObject(0).getString("code"))
          .isEqualTo("throttled");

      for (String probe : List.of("/livez", "/readyz", "/healthz")) {
        assertThat(service.http.get(probe).status()).as(probe).isEqualTo(200);
      }
      assertThat(
              service
                  .grpc
                  .ok(GrpcTestClient.HEALTH_CHECK, HealthCheckRequest.getDefaultInstance())
                  .getStatus())
          .isEqualTo(HealthCheckResponse.ServingStatus.SERVING);
      assertThat(
              service
                  .scrape()
                  .value("vfps_admission_refused_total", Map.of("limit", "concurrent_requests")))
          .isEqualTo(3);

      service.unlock();
      assertThat(grpcHolder.await(ANSWER_SECONDS, TimeUnit.SECONDS).status())
          .isEqualTo(GrpcStatus.OK);
      assertThat(restHolder.get(ANSWER_SECONDS, TimeUnit.SECONDS).status()).isEqualTo(200);
      service.awaitGauge("vfps_admission_requests_in_flight", 0);
      assertThat(service.answer("after", Map.of()).status()).isEqualTo(GrpcStatus.OK);
      assertThat(service.restCreate("after-rest").status()).isEqualTo(200);
      assertThat(service.stored()).as("the refused values were never stored").isEqualTo(4);
      assertThat(log.atLeast(Level.ERROR)).isEmpty();
    }
  }

  @Test
  void valuesBeyondTheWriteQueueBoundAreRefusedAtOnce() throws Exception {
    try (LockableService service = new LockableService(Map.of("Admission__MaxQueuedWrites", "1"))) {
      service.lock();
      List<Future<Reply<PseudonymServiceCreateResponse>>> held = service.holdTheStatementInFlight();
      held.add(service.grpc.callAsync(PseudonymServiceGrpcClient.Create, service.create("queued")));
      service.awaitGauge("vfps_admission_queued_writes", 1);

      Reply<PseudonymServiceCreateResponse> refused = service.answer("refused", Map.of());
      assertThat(refused.status()).isEqualTo(GrpcStatus.RESOURCE_EXHAUSTED);
      assertThat(refused.message()).contains("Admission__MaxQueuedWrites");
      assertThat(
              service
                  .grpc
                  .callAsync(
                      PseudonymServiceGrpcClient.BatchCreate,
                      PseudonymServiceBatchCreateRequest.newBuilder()
                          .setNamespace(service.namespace)
                          .addOriginalValues("refused-a")
                          .addOriginalValues("refused-b")
                          .build())
                  .await(ANSWER_SECONDS, TimeUnit.SECONDS)
                  .status())
          .isEqualTo(GrpcStatus.RESOURCE_EXHAUSTED);
      Response rest = service.restCreate("refused-rest");
      assertThat(rest.status()).as(rest.body()).isEqualTo(503);
      assertThat(rest.headers().firstValue("retry-after")).hasValue("1");
      assertThat(
              service
                  .scrape()
                  .value("vfps_admission_refused_total", Map.of("limit", "queued_writes")))
          .isEqualTo(3);

      service.unlock();
      for (Future<Reply<PseudonymServiceCreateResponse>> call : held) {
        assertThat(call.await(ANSWER_SECONDS, TimeUnit.SECONDS).status()).isEqualTo(GrpcStatus.OK);
      }
      assertThat(service.stored()).isEqualTo(2);
      assertThat(service.scrape().value("vfps_admission_queued_writes")).isZero();
    }
  }

  @Test
  void aSlowSenderHoldsNoPlaceWhileItsRequestIsIncomplete() throws Exception {
    try (LockableService service =
            new LockableService(Map.of("Admission__MaxConcurrentRequests", "1"));
        Socket slowRest = new Socket("127.0.0.1", service.server.httpPort())) {
      // a REST Create whose head is in and whose body never ends
      slowRest
          .getOutputStream()
          .write(
              ("POST /v1/namespaces/"
                      + service.namespace
                      + "/pseudonyms HTTP/1.1\r\n"
                      + "Host: localhost\r\nContent-Type: application/json\r\n"
                      + "Content-Length: 100\r\n\r\n{\"originalValue\":")
                  .getBytes(StandardCharsets.US_ASCII));
      slowRest.getOutputStream().flush();
      // a gRPC Create whose message is in and whose end of stream never comes
      GrpcClientRequest<PseudonymServiceCreateRequest, PseudonymServiceCreateResponse> slowGrpc =
          service
              .grpc
              .client()
              .request(service.grpc.address(), PseudonymServiceGrpcClient.Create)
              .await(ANSWER_SECONDS, TimeUnit.SECONDS);
      slowGrpc.write(service.create("never-ended")).await(ANSWER_SECONDS, TimeUnit.SECONDS);
      await("both incomplete requests seen by the listeners")
          .atMost(Duration.ofMinutes(1))
          .until(() -> service.scrape().sum("vertx_http_server_active_requests") >= 2);

      assertThat(service.answer("while-grpc-waits", Map.of()).status()).isEqualTo(GrpcStatus.OK);
      Response rest = service.restCreate("while-rest-waits");
      assertThat(rest.status()).as(rest.body()).isEqualTo(200);
      assertThat(
              service
                  .scrape()
                  .value("vfps_admission_refused_total", Map.of("limit", "concurrent_requests")))
          .isZero();
      slowGrpc.cancel();
    }
  }

  @Test
  void aReplyBuiltInMemoryBeyondTheByteBudgetIsRefusedAndItsBytesAreGivenBack() throws Exception {
    int budget = 4_000;
    try (LockableService service =
        new LockableService(Map.of("Admission__MaxReplyBytes", Integer.toString(budget)))) {
      createNamespaces(service, "fits", 10);
      Reply<NamespaceServiceGetAllResponse> fits = getAll(service);
      assertThat(fits.status()).as(fits.message()).isEqualTo(GrpcStatus.OK);
      // a reply holds its bytes twice until it is written: the encoding and the gRPC frame's copy
      assertThat(fits.body().getSerializedSize()).isBetween(budget / 4, budget / 2);
      // were the bytes of the first not given back, the second would not fit
      assertThat(getAll(service).status()).isEqualTo(GrpcStatus.OK);
      assertThat(service.scrape().value("vfps_admission_reply_bytes")).isZero();

      createNamespaces(service, "too-many", 20);
      Reply<NamespaceServiceGetAllResponse> refused = getAll(service);
      assertThat(refused.status()).isEqualTo(GrpcStatus.RESOURCE_EXHAUSTED);
      assertThat(refused.message()).contains("Admission__MaxReplyBytes", "retry");
      assertThat(
              service
                  .scrape()
                  .value("vfps_admission_refused_total", Map.of("limit", "reply_bytes")))
          .isEqualTo(1);
      assertThat(service.scrape().value("vfps_admission_reply_bytes")).isZero();
      // the REST listing streams, so it holds no reply whole and is not bounded by the budget
      Response listed = service.http.get("/v1/namespaces");
      assertThat(listed.status()).isEqualTo(200);
      assertThat(listed.json().getJsonArray("namespaces")).hasSize(31);
      assertThat(log.atLeast(Level.ERROR)).isEmpty();
    }
  }

  @Test
  void lookupsBeyondTheByteBudgetAreRefusedAtEveryEdgeAndTheirBytesAreGivenBack() throws Exception {
    try (LockableService service =
        new LockableService(Map.of("Admission__MaxReplyBytes", "20000"))) {
      // each pseudonym found counts about 1,200 bytes: 15 fit the budget, 40 do not
      List<String> originals =
          IntStream.range(0, 40).mapToObj(i -> i + "-" + "x".repeat(1_000)).toList();
      List<String> pseudonyms =
          service
              .grpc
              .ok(
                  PseudonymServiceGrpcClient.BatchCreate,
                  PseudonymServiceBatchCreateRequest.newBuilder()
                      .setNamespace(service.namespace)
                      .addAllOriginalValues(originals)
                      .build())
              .getPseudonymsList()
              .stream()
              .map(Pseudonym::getPseudonymValue)
              .toList();
      List<String> few = pseudonyms.subList(0, 5);

      Reply<PseudonymServiceBatchGetResponse> grpcFew = batchGet(service, few);
      assertThat(grpcFew.status()).as(grpcFew.message()).isEqualTo(GrpcStatus.OK);
      assertThat(grpcFew.body().getPseudonymsList()).hasSize(5);
      Reply<PseudonymServiceBatchGetResponse> grpcMany = batchGet(service, pseudonyms);
      assertThat(grpcMany.status()).isEqualTo(GrpcStatus.RESOURCE_EXHAUSTED);
      assertThat(grpcMany.message()).contains("Admission__MaxReplyBytes", "retry");

      assertThat(restBatchGet(service, few).status()).isEqualTo(200);
      Response restMany = restBatchGet(service, pseudonyms);
      assertThat(restMany.status()).as(restMany.body()).isEqualTo(503);
      assertThat(restMany.headers().firstValue("retry-after")).hasValue("1");
      assertThat(restMany.json().getInteger("code")).isEqualTo(GrpcStatus.RESOURCE_EXHAUSTED.code);
      assertThat(restMany.json().getString("message")).contains("Admission__MaxReplyBytes");

      Response fhirFew = dePseudonymize(service, few);
      assertThat(fhirFew.status()).as(fhirFew.body()).isEqualTo(200);
      assertThat(fhirFew.json().getJsonArray("parameter")).hasSize(5);
      Response fhirMany = dePseudonymize(service, pseudonyms);
      assertThat(fhirMany.status()).as(fhirMany.body()).isEqualTo(503);
      assertThat(fhirMany.headers().firstValue("retry-after")).hasValue("1");
      assertThat(fhirMany.json().getString("resourceType")).isEqualTo("OperationOutcome");
      assertThat(fhirMany.json().getJsonArray("issue").getJsonObject(0).getString("code"))
          .isEqualTo("throttled");

      assertThat(
              service
                  .grpc
                  .ok(
                      PseudonymServiceGrpcClient.Get,
                      PseudonymServiceGetRequest.newBuilder()
                          .setNamespace(service.namespace)
                          .setPseudonymValue(pseudonyms.getFirst())
                          .build())
                  .getPseudonym()
                  .getOriginalValue())
          .isEqualTo(originals.getFirst());
      assertThat(
              service
                  .scrape()
                  .value("vfps_admission_refused_total", Map.of("limit", "reply_bytes")))
          .isEqualTo(3);
      // every refused lookup gave its bytes back: one that takes nearly the whole budget fits
      service.awaitGauge("vfps_admission_reply_bytes", 0);
      List<String> most = pseudonyms.subList(0, 15);
      assertThat(batchGet(service, most).status()).isEqualTo(GrpcStatus.OK);
      assertThat(restBatchGet(service, most).status()).isEqualTo(200);
      assertThat(dePseudonymize(service, most).status()).isEqualTo(200);
      service.awaitGauge("vfps_admission_reply_bytes", 0);
      assertThat(log.atLeast(Level.ERROR)).isEmpty();
    }
  }

  private static Reply<PseudonymServiceBatchGetResponse> batchGet(
      LockableService service, List<String> pseudonyms) throws Exception {
    return service
        .grpc
        .callAsync(
            PseudonymServiceGrpcClient.BatchGet,
            PseudonymServiceBatchGetRequest.newBuilder()
                .setNamespace(service.namespace)
                .addAllPseudonymValues(pseudonyms)
                .build())
        .await(ANSWER_SECONDS, TimeUnit.SECONDS);
  }

  private static Response restBatchGet(LockableService service, List<String> pseudonyms) {
    return service.http.postJson(
        "/v1/namespaces/" + service.namespace + "/pseudonyms:batchGet",
        new JsonObject().put("pseudonymValues", new JsonArray(pseudonyms)).encode());
  }

  /** The gPAS dialect's {@code $dePseudonymize} of the pseudonyms. */
  private static Response dePseudonymize(LockableService service, List<String> pseudonyms) {
    JsonArray parameter =
        new JsonArray()
            .add(new JsonObject().put("name", "target").put("valueString", service.namespace));
    pseudonyms.forEach(
        value ->
            parameter.add(new JsonObject().put("name", "pseudonym").put("valueString", value)));
    return service.http.post(
        "/ttp-fhir/fhir/gpas/$dePseudonymize",
        "application/fhir+json",
        new JsonObject()
            .put("resourceType", "Parameters")
            .put("parameter", parameter)
            .encode()
            .getBytes(StandardCharsets.UTF_8));
  }

  private static void createNamespaces(LockableService service, String prefix, int count) {
    for (int i = 0; i < count; i++) {
      service.grpc.ok(
          NamespaceServiceGrpcClient.Create,
          NamespaceServiceCreateRequest.newBuilder()
              .setName(prefix + "-" + i + "-" + service.namespace)
              .setPseudonymLength(16)
              .setDescription("a namespace whose listing takes some bytes")
              .build());
    }
  }

  private static Reply<NamespaceServiceGetAllResponse> getAll(LockableService service)
      throws Exception {
    return service
        .grpc
        .callAsync(
            NamespaceServiceGrpcClient.GetAll, NamespaceServiceGetAllRequest.getDefaultInstance())
        .await(ANSWER_SECONDS, TimeUnit.SECONDS);
  }
}
