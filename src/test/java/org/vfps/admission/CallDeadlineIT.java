package org.vfps.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.vfps.admission.AdmissionIT.create;
import static org.vfps.admission.AdmissionIT.createNamespace;
import static org.vfps.admission.AdmissionIT.lockPseudonyms;
import static org.vfps.admission.AdmissionIT.lockWaiters;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.vertx.core.Future;
import io.vertx.grpc.common.GrpcStatus;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.GrpcTestClient;
import org.vfps.GrpcTestClient.Reply;
import org.vfps.LogCapture;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.VfpsServer;
import org.vfps.api.v1.NamespaceServiceGetRequest;
import org.vfps.api.v1.NamespaceServiceGetResponse;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.PseudonymServiceBatchCreateRequest;
import org.vfps.api.v1.PseudonymServiceCreateResponse;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.config.ConnectionSettings;

/**
 * A call's {@code grpc-timeout} through a real gRPC client: a call that arrives with its deadline
 * passed is answered {@code DEADLINE_EXCEEDED} and stores nothing; a call whose deadline passes
 * while it waits for the database is answered then, and what was still queued for it is never sent.
 * The test sends the header itself; its client keeps no deadline of its own, so every {@code
 * DEADLINE_EXCEEDED} seen is the service's answer. Nothing of it is a WARN or an ERROR.
 */
class CallDeadlineIT {

  /** Long enough never to decide a passing test; it only ends a failing one. */
  private static final long ANSWER_SECONDS = 30;

  @RegisterExtension final LogCapture log = LogCapture.of("org.vfps");

  @Test
  void aCallWhoseDeadlineHasPassedIsAnsweredWithoutTouchingTheDatabase() {
    ConnectionSettings database = TestPostgres.freshDatabase();
    VfpsServer server = start(TestPostgres.uri(database));
    try (GrpcTestClient grpc = new GrpcTestClient(server.grpcPort())) {
      String namespace = createNamespace(grpc);
      Map<String, String> passed = Map.of("grpc-timeout", "1n");

      Reply<PseudonymServiceCreateResponse> single =
          grpc.call(PseudonymServiceGrpcClient.Create, create(namespace, "late"), passed);
      assertThat(single.status()).as(single.message()).isEqualTo(GrpcStatus.DEADLINE_EXCEEDED);
      assertThat(
              grpc.call(
                      PseudonymServiceGrpcClient.BatchCreate,
                      PseudonymServiceBatchCreateRequest.newBuilder()
                          .setNamespace(namespace)
                          .addOriginalValues("late-a")
                          .addOriginalValues("late-b")
                          .build(),
                      passed)
                  .status())
          .isEqualTo(GrpcStatus.DEADLINE_EXCEEDED);
      assertThat(
              grpc.stream(
                      PseudonymServiceGrpcClient.CreateStream,
                      List.of(create(namespace, "late-c"), create(namespace, "late-d")),
                      passed)
                  .status())
          .isEqualTo(GrpcStatus.DEADLINE_EXCEEDED);

      assertThat(pseudonyms(database, namespace)).isZero();
      assertThat(
              grpc.call(PseudonymServiceGrpcClient.Create, create(namespace, "in-time")).status())
          .isEqualTo(GrpcStatus.OK);
      assertThat(pseudonyms(database, namespace)).isEqualTo(1);
      assertThat(warningsAndErrors()).isEmpty();
    } finally {
      server.close();
    }
  }

  @Test
  void aCreateQueuedPastItsDeadlineIsAnsweredThenAndNeverStored() throws Exception {
    ConnectionSettings database = TestPostgres.freshDatabase();
    VfpsServer server = start(TestPostgres.uri(database));
    try (GrpcTestClient grpc = new GrpcTestClient(server.grpcPort());
        Connection blocker = TestPostgres.connect(database)) {
      String namespace = createNamespace(grpc);
      lockPseudonyms(blocker);
      // one connection, so one write coalescer, whose statement slots these four take
      List<Future<Reply<PseudonymServiceCreateResponse>>> held = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        held.add(grpc.callAsync(PseudonymServiceGrpcClient.Create, create(namespace, "slot-" + i)));
      }
      await("four statements waiting for the lock")
          .atMost(Duration.ofMinutes(1))
          .until(() -> lockWaiters(database) == 4);

      Reply<PseudonymServiceCreateResponse> late =
          grpc.callAsync(
                  PseudonymServiceGrpcClient.Create,
                  create(namespace, "queued"),
                  Map.of("grpc-timeout", "500m"))
              .await(ANSWER_SECONDS, TimeUnit.SECONDS);
      assertThat(late.status()).as(late.message()).isEqualTo(GrpcStatus.DEADLINE_EXCEEDED);
      assertThat(held).noneMatch(Future::isComplete);

      blocker.commit();
      for (Future<Reply<PseudonymServiceCreateResponse>> call : held) {
        assertThat(call.await(ANSWER_SECONDS, TimeUnit.SECONDS).status()).isEqualTo(GrpcStatus.OK);
      }
      // the next statement after the slots came free would have carried it
      assertThat(grpc.call(PseudonymServiceGrpcClient.Create, create(namespace, "after")).status())
          .isEqualTo(GrpcStatus.OK);
      assertThat(
              TestPostgres.queryLong(
                  database,
                  "SELECT count(*) FROM pseudonyms WHERE namespace_name = ? AND original_value"
                      + " = 'queued'",
                  namespace))
          .isZero();
      assertThat(pseudonyms(database, namespace)).isEqualTo(5);
      assertThat(warningsAndErrors()).isEmpty();
    } finally {
      server.close();
    }
  }

  @Test
  void aCallWaitingForAPoolConnectionIsAnsweredAtItsDeadline() throws Exception {
    ConnectionSettings database = TestPostgres.freshDatabase();
    VfpsServer server =
        start(
            "Host=%s;Port=%d;Database=%s;Username=%s;Password=%s;Maximum Pool Size=1"
                .formatted(
                    database.host(),
                    database.port(),
                    database.database(),
                    database.user(),
                    database.password()));
    try (GrpcTestClient grpc = new GrpcTestClient(server.grpcPort());
        Connection blocker = TestPostgres.connect(database)) {
      String namespace = createNamespace(grpc);
      lockPseudonyms(blocker);
      Future<Reply<PseudonymServiceCreateResponse>> holder =
          grpc.callAsync(PseudonymServiceGrpcClient.Create, create(namespace, "holder"));
      await("the pool's only connection waiting for the lock")
          .atMost(Duration.ofMinutes(1))
          .until(() -> lockWaiters(database) == 1);

      Reply<NamespaceServiceGetResponse> waiting =
          grpc.callAsync(
                  NamespaceServiceGrpcClient.Get,
                  NamespaceServiceGetRequest.newBuilder().setName(namespace).build(),
                  Map.of("grpc-timeout", "500m"))
              .await(ANSWER_SECONDS, TimeUnit.SECONDS);
      assertThat(waiting.status()).as(waiting.message()).isEqualTo(GrpcStatus.DEADLINE_EXCEEDED);
      assertThat(holder.isComplete()).isFalse();

      blocker.commit();
      assertThat(holder.await(ANSWER_SECONDS, TimeUnit.SECONDS).status()).isEqualTo(GrpcStatus.OK);
      assertThat(
              grpc.call(
                      NamespaceServiceGrpcClient.Get,
                      NamespaceServiceGetRequest.newBuilder().setName(namespace).build())
                  .status())
          .isEqualTo(GrpcStatus.OK);
      assertThat(warningsAndErrors()).isEmpty();
    } finally {
      server.close();
    }
  }

  private static VfpsServer start(String connectionString) {
    return TestService.start(
        Map.of(
            "ConnectionStrings__PostgreSQL",
            connectionString,
            "ForceRunDatabaseMigrations",
            "true",
            "Grpc__RequestHeadersTimeout",
            "00:00:00"));
  }

  private static long pseudonyms(ConnectionSettings database, String namespace) {
    return TestPostgres.queryLong(
        database, "SELECT count(*) FROM pseudonyms WHERE namespace_name = ?", namespace);
  }

  /** What the request path logged at WARN or above: the start-up's own warnings left out. */
  private List<ILoggingEvent> warningsAndErrors() {
    return log.atLeast(Level.WARN).stream()
        .filter(
            event ->
                event.getLoggerName().startsWith("org.vfps.grpc")
                    || event.getLoggerName().startsWith("org.vfps.storage")
                    || event.getLevel() == Level.ERROR)
        .toList();
  }
}
