package org.vfps;

import static org.assertj.core.api.Assertions.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.GoAway;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientConnection;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpConnectOptions;
import io.vertx.core.http.HttpVersion;
import io.vertx.grpc.common.GrpcStatus;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.GrpcTestClient.Reply;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceCreateResponse;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.config.ConnectionSettings;
import org.vfps.server.VfpsServer;

/**
 * A stopping service drains: the listeners take no new connection and send HTTP/2 GOAWAY, and a
 * call in flight still gets its answer from the database, which closes only after it.
 */
class GracefulShutdownIT {

  /** The shutdown is logged, and this test says how: kept off the build's output. */
  @RegisterExtension final LogCapture log = LogCapture.of("org.vfps");

  @Test
  void aCallInFlightFinishesWhileTheListenersShutDown() throws Exception {
    ConnectionSettings database = TestPostgres.freshDatabase();
    VfpsServer server =
        TestService.start(
            Map.of(
                "ConnectionStrings__PostgreSQL",
                TestPostgres.uri(database),
                "ForceRunDatabaseMigrations",
                "true",
                // the test's own idle connection must not be closed for sending no call
                "Grpc__RequestHeadersTimeout",
                "00:00:00",
                // no clock in this test: the call in flight ends when the test lets it
                "HostOptions__ShutdownTimeout",
                "00:10:00"));
    Vertx vertx = Vertx.vertx();
    CompletableFuture<Void> closed = null;
    try (GrpcTestClient client = new GrpcTestClient(server.grpcPort());
        Connection blocker = TestPostgres.connect(database)) {
      String namespace = "drain-" + UUID.randomUUID();
      client.ok(
          NamespaceServiceGrpcClient.Create,
          NamespaceServiceCreateRequest.newBuilder()
              .setName(namespace)
              .setPseudonymLength(16)
              .build());
      HttpClientAgent http =
          vertx.createHttpClient(
              new HttpClientOptions()
                  .setProtocolVersion(HttpVersion.HTTP_2)
                  .setHttp2ClearTextUpgrade(false));
      HttpClientConnection idle =
          http.connect(new HttpConnectOptions().setHost("127.0.0.1").setPort(server.grpcPort()))
              .await();
      AtomicReference<GoAway> goAway = new AtomicReference<>();
      idle.goAwayHandler(goAway::set);

      // a transaction of the test holds the table, so the Create waits in the database
      blocker.setAutoCommit(false);
      try (Statement statement = blocker.createStatement()) {
        statement.execute("LOCK TABLE pseudonyms IN SHARE MODE");
      }
      Future<Reply<PseudonymServiceCreateResponse>> inFlight =
          client.callAsync(
              PseudonymServiceGrpcClient.Create,
              PseudonymServiceCreateRequest.newBuilder()
                  .setNamespace(namespace)
                  .setOriginalValue("in-flight")
                  .build());
      await("the Create waiting for the table lock")
          .atMost(Duration.ofMinutes(1))
          .until(
              () ->
                  TestPostgres.queryLong(
                          database,
                          "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                              + " AND wait_event_type = 'Lock'")
                      > 0);

      closed = CompletableFuture.runAsync(server::close);

      await("the GOAWAY on an open connection")
          .atMost(Duration.ofMinutes(1))
          .untilAsserted(() -> assertThat(goAway.get()).isNotNull());
      await("the gRPC port refusing new connections")
          .atMost(Duration.ofMinutes(1))
          .until(() -> !accepts(server.grpcPort()));
      assertThat(inFlight.isComplete()).isFalse();
      assertThat(closed).isNotDone();

      blocker.commit();
      Reply<PseudonymServiceCreateResponse> reply = inFlight.await();
      assertThat(reply.status()).as(reply.message()).isEqualTo(GrpcStatus.OK);
      assertThat(reply.body().getPseudonym().getPseudonymValue()).isNotEmpty();
      closed.get();
      assertThat(
              TestPostgres.queryLong(
                  database, "SELECT count(*) FROM pseudonyms WHERE namespace_name = ?", namespace))
          .isEqualTo(1);
      // the setting's value as the setting writes it, not Duration's PT10M
      assertThat(log.atLeast(Level.INFO))
          .extracting(ILoggingEvent::getFormattedMessage)
          .filteredOn(message -> message.startsWith("Shutting down"))
          .singleElement(as(InstanceOfAssertFactories.STRING))
          .contains("up to 00:10:00 (HostOptions__ShutdownTimeout)")
          .doesNotContain("PT");
    } finally {
      if (closed == null) {
        server.close();
      }
      vertx.close().await();
    }
  }

  private static boolean accepts(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
      return true;
    } catch (IOException refused) {
      return false;
    }
  }
}
