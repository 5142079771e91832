package org.vfps.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.vfps.admission.LockableService.ANSWER_SECONDS;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.vertx.core.Future;
import io.vertx.grpc.common.GrpcStatus;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.GrpcTestClient.Reply;
import org.vfps.HttpTestClient.Response;
import org.vfps.LogCapture;
import org.vfps.TestPostgres;
import org.vfps.api.v1.NamespaceServiceGetRequest;
import org.vfps.api.v1.NamespaceServiceGetResponse;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.PseudonymServiceBatchCreateRequest;
import org.vfps.api.v1.PseudonymServiceCreateResponse;
import org.vfps.api.v1.PseudonymServiceGrpcClient;

/**
 * A call's {@code grpc-timeout} through a real gRPC client: a call that arrives with its deadline
 * passed is answered {@code DEADLINE_EXCEEDED} and stores nothing; a call whose deadline passes
 * while it waits for the database is answered then, and what was still queued for it is never sent.
 * The test sends the header itself; its client keeps no deadline of its own, so every {@code
 * DEADLINE_EXCEEDED} seen is the service's answer. Nothing of it is a WARN or an ERROR.
 */
class CallDeadlineIT {

  private static final Map<String, String> PASSED = Map.of("grpc-timeout", "1n");
  private static final Map<String, String> HALF_A_SECOND = Map.of("grpc-timeout", "500m");

  @RegisterExtension final LogCapture log = LogCapture.of("org.vfps");

  @Test
  void aCallWhoseDeadlineHasPassedIsAnsweredWithoutTouchingTheDatabase() throws Exception {
    try (LockableService service = new LockableService(Map.of())) {
      Reply<PseudonymServiceCreateResponse> single = service.answer("late", PASSED);
      assertThat(single.status()).as(single.message()).isEqualTo(GrpcStatus.DEADLINE_EXCEEDED);
      assertThat(
              service
                  .grpc
                  .call(
                      PseudonymServiceGrpcClient.BatchCreate,
                      PseudonymServiceBatchCreateRequest.newBuilder()
                          .setNamespace(service.namespace)
                          .addOriginalValues("late-a")
                          .addOriginalValues("late-b")
                          .build(),
                      PASSED)
                  .status())
          .isEqualTo(GrpcStatus.DEADLINE_EXCEEDED);
      assertThat(
              service.grpc.stream(
                      PseudonymServiceGrpcClient.CreateStream,
                      List.of(service.create("late-c"), service.create("late-d")),
                      PASSED)
                  .status())
          .isEqualTo(GrpcStatus.DEADLINE_EXCEEDED);

      assertThat(service.stored()).isZero();
      assertThat(service.answer("in-time", Map.of()).status()).isEqualTo(GrpcStatus.OK);
      assertThat(service.stored()).isEqualTo(1);
      assertThat(warningsAndErrors()).isEmpty();
    }
  }

  @Test
  void aCreateQueuedPastItsDeadlineIsAnsweredThenAndNeverStored() throws Exception {
    try (LockableService service = new LockableService(Map.of())) {
      service.lock();
      List<Future<Reply<PseudonymServiceCreateResponse>>> held = service.holdTheStatementInFlight();

      Reply<PseudonymServiceCreateResponse> late = service.answer("queued", HALF_A_SECOND);
      assertThat(late.status()).as(late.message()).isEqualTo(GrpcStatus.DEADLINE_EXCEEDED);
      assertThat(held).noneMatch(Future::isComplete);

      service.unlock();
      for (Future<Reply<PseudonymServiceCreateResponse>> call : held) {
        assertThat(call.await(ANSWER_SECONDS, TimeUnit.SECONDS).status()).isEqualTo(GrpcStatus.OK);
      }
      // the statement after the held one would have carried it
      assertThat(service.answer("after", Map.of()).status()).isEqualTo(GrpcStatus.OK);
      assertThat(
              TestPostgres.queryLong(
                  service.database,
                  "SELECT count(*) FROM pseudonyms WHERE original_value = 'queued'"))
          .isZero();
      assertThat(service.stored()).isEqualTo(2);
      assertThat(warningsAndErrors()).isEmpty();
    }
  }

  @Test
  void aCallWaitingForAPoolConnectionIsAnsweredAtItsDeadline() throws Exception {
    try (LockableService service =
        new LockableService(
            "Host=%s;Port=%s;Database=%s;Username=%s;Password=%s;Maximum Pool Size=1", Map.of())) {
      service.lock();
      Future<Reply<PseudonymServiceCreateResponse>> holder =
          service.grpc.callAsync(PseudonymServiceGrpcClient.Create, service.create("holder"));
      await("the pool's only connection waiting for the lock")
          .atMost(Duration.ofMinutes(1))
          .until(() -> service.lockWaiters() == 1);

      NamespaceServiceGetRequest get =
          NamespaceServiceGetRequest.newBuilder().setName(service.namespace).build();
      Reply<NamespaceServiceGetResponse> waiting =
          service
              .grpc
              .callAsync(NamespaceServiceGrpcClient.Get, get, HALF_A_SECOND)
              .await(ANSWER_SECONDS, TimeUnit.SECONDS);
      assertThat(waiting.status()).as(waiting.message()).isEqualTo(GrpcStatus.DEADLINE_EXCEEDED);
      assertThat(holder.isComplete()).isFalse();

      service.unlock();
      assertThat(holder.await(ANSWER_SECONDS, TimeUnit.SECONDS).status()).isEqualTo(GrpcStatus.OK);
      assertThat(service.grpc.call(NamespaceServiceGrpcClient.Get, get).status())
          .isEqualTo(GrpcStatus.OK);
      assertThat(warningsAndErrors()).isEmpty();
    }
  }

  @Test
  void restAndFhirRequestsWaitingForTheDatabaseAreAnsweredAtTheirDeadline() throws Exception {
    try (LockableService service =
        new LockableService(Map.of("Http__RequestTimeout", "00:00:00.5"))) {
      service.lock();
      Response rest = service.restCreate("rest-late");
      assertThat(rest.status()).as(rest.body()).isEqualTo(504);
      assertThat(rest.json().getInteger("code")).isEqualTo(GrpcStatus.DEADLINE_EXCEEDED.code);

      Response fhir = service.fhirCreate("fhir-late");
      assertThat(fhir.status()).as(fhir.body()).isEqualTo(504);
      assertThat(fhir.json().getString("resourceType")).isEqualTo("OperationOutcome");
      assertThat(fhir.json().getJsonArray("issue").getJsonObject(0).getString("code"))
          .isEqualTo("timeout");
      service.awaitGauge("vfps_admission_requests_in_flight", 0);

      service.unlock();
      Response after = service.restCreate("rest-in-time");
      assertThat(after.status()).as(after.body()).isEqualTo(200);
      assertThat(warningsAndErrors()).isEmpty();
    }
  }

  /** What the request path logged at WARN or above: the start-up's own warnings left out. */
  private List<ILoggingEvent> warningsAndErrors() {
    return log.atLeast(Level.WARN).stream()
        .filter(
            event ->
                event.getLoggerName().startsWith("org.vfps.grpc")
                    || event.getLoggerName().startsWith("org.vfps.storage")
                    || event.getLoggerName().startsWith("org.vfps.http")
                    || event.getLoggerName().startsWith("org.vfps.fhir")
                    || event.getLevel() == Level.ERROR)
        .toList();
  }
}
