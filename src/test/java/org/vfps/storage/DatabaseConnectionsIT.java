package org.vfps.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.vertx.core.Future;
import io.vertx.grpc.common.GrpcMessageDecoder;
import io.vertx.grpc.common.GrpcMessageEncoder;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.common.ServiceMethod;
import io.vertx.grpc.common.ServiceName;
import io.vertx.grpc.health.v1.HealthCheckRequest;
import io.vertx.grpc.health.v1.HealthCheckResponse;
import io.vertx.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.vfps.GrpcTestClient;
import org.vfps.GrpcTestClient.Reply;
import org.vfps.HttpTestClient;
import org.vfps.TcpProxy;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceGetAllRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceCreateResponse;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.config.ConnectionSettings;
import org.vfps.server.VfpsServer;

/**
 * How the pool opens connections: an attempt that PostgreSQL accepts but never answers gives its
 * pool slot back, health checks answer while attempts stall, no connection stays open without a
 * server process behind it, and no connection is kept to a server that only accepts reads.
 */
class DatabaseConnectionsIT {

  private static final Duration PATIENCE = Duration.ofSeconds(20);

  private static final ServiceMethod<HealthCheckResponse, HealthCheckRequest> HEALTH_CHECK =
      ServiceMethod.client(
          ServiceName.create("grpc.health.v1", "Health"),
          "Check",
          GrpcMessageEncoder.encoder(),
          GrpcMessageDecoder.decoder(HealthCheckResponse.newBuilder()));

  @Test
  void stalledConnectionAttemptsGiveTheirPoolSlotsBack() {
    ConnectionSettings database = TestPostgres.database();
    String application = "vfps-stall-" + UUID.randomUUID();
    try (TcpProxy proxy = new TcpProxy(database.host(), database.port())) {
      String connectionString =
          proxy.connectionString(
              database,
              "Timeout=5;SSL Mode=Disable;Maximum Pool Size=2;Application Name=" + application);
      try (VfpsServer server =
              TestService.start(Map.of("ConnectionStrings__PostgreSQL", connectionString));
          GrpcTestClient client = new GrpcTestClient(server.grpcPort())) {
        String namespace = client.createNamespace("stall-");

        proxy.stall();
        // more calls than pool slots: each slot gets a connection attempt that never completes
        List<Future<Reply<?>>> during = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
          during.add(create(client, namespace, "during-stall-" + i).map(reply -> reply));
        }
        for (Future<Reply<?>> reply : during) {
          assertThat(reply.timeout(30, TimeUnit.SECONDS).await().status())
              .isEqualTo(GrpcStatus.UNAVAILABLE);
        }

        proxy.unstall();
        await("a Create after the stall")
            .atMost(PATIENCE)
            .until(
                () ->
                    create(client, namespace, "after-stall")
                        .timeout(30, TimeUnit.SECONDS)
                        .await()
                        .status(),
                status -> status == GrpcStatus.OK);

        // the abandoned attempts complete now, late: their connections must be closed
        proxy.releaseStalled();
        await("no more server connections than pool slots")
            .atMost(PATIENCE)
            .until(() -> backends(database, application), count -> count <= 2);
      }
    }
  }

  @Test
  void healthChecksAnswerWhileConnectionAttemptsStall() {
    ConnectionSettings database = TestPostgres.database();
    try (TcpProxy proxy = new TcpProxy(database.host(), database.port())) {
      // the pool waits up to 30 s for a connection; the health checks must not
      String connectionString = proxy.connectionString(database, "Timeout=30;SSL Mode=Disable");
      try (VfpsServer server =
              TestService.start(Map.of("ConnectionStrings__PostgreSQL", connectionString));
          GrpcTestClient client = new GrpcTestClient(server.grpcPort());
          HttpTestClient http = new HttpTestClient(server.httpPort())) {
        proxy.stall();

        assertThat(
                client
                    .callAsync(HEALTH_CHECK, HealthCheckRequest.getDefaultInstance())
                    .timeout(10, TimeUnit.SECONDS)
                    .await()
                    .body()
                    .getStatus())
            .isEqualTo(ServingStatus.NOT_SERVING);
        assertThat(http.get("/readyz").status()).isEqualTo(503);
      }
    }
  }

  @Test
  void aServerThatOnlyAcceptsReadsIsRefusedUntilThePrimaryIsBack() {
    ConnectionSettings database = TestPostgres.freshDatabase();
    Migrations.migrate(database);
    String namespace = "failover-" + UUID.randomUUID();
    try (VfpsServer server =
            TestService.start(Map.of("ConnectionStrings__PostgreSQL", TestPostgres.uri(database)));
        GrpcTestClient client = new GrpcTestClient(server.grpcPort())) {
      client.call(
          NamespaceServiceGrpcClient.Create,
          NamespaceServiceCreateRequest.newBuilder()
              .setName(namespace)
              .setPseudonymLength(16)
              .build());
      assertThat(create(client, namespace, "before").await().status()).isEqualTo(GrpcStatus.OK);

      // a failover whose address still leads to the old primary, fenced off: its sessions end,
      // and new ones may only read
      TestPostgres.execute(
          TestPostgres.database(),
          "ALTER DATABASE " + database.database() + " SET default_transaction_read_only = on");
      TestPostgres.execute(
          TestPostgres.database(),
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '"
              + database.database()
              + "' AND pid <> pg_backend_pid()");
      for (int i = 0; i < 3; i++) {
        assertThat(create(client, namespace, "during-" + i).await().status())
            .isEqualTo(GrpcStatus.UNAVAILABLE);
      }

      // the primary is back: the pool holds no read-only connection that would keep failing
      TestPostgres.execute(
          TestPostgres.database(),
          "ALTER DATABASE " + database.database() + " RESET default_transaction_read_only");
      await("a Create after the failover")
          .atMost(PATIENCE)
          .until(() -> create(client, namespace, "after").await().status(), GrpcStatus.OK::equals);
    }
  }

  @Test
  void noConnectionStaysOpenWithoutAServerProcessOnATlsServer() {
    // the shared test server; PostgreSQL as Debian installs it speaks TLS
    assertEveryConnectionHasABackend(TestPostgres.database());
  }

  @Test
  void noConnectionStaysOpenWithoutAServerProcessOnAServerWithoutTls() throws IOException {
    try (EmbeddedPostgres postgres =
        EmbeddedPostgres.builder()
            .setDataDirectory(Files.createTempDirectory("vfps-no-tls"))
            .start()) {
      ConnectionSettings server =
          new ConnectionSettings(
              "127.0.0.1",
              postgres.getPort(),
              "postgres",
              "postgres",
              null,
              8,
              Duration.ofSeconds(15),
              ConnectionSettings.SslMode.DISABLE,
              null);
      Migrations.migrate(server);
      assertEveryConnectionHasABackend(server);
    }
  }

  /** With SSL Mode=Prefer, the default, opens a few pool connections and counts both ends. */
  private static void assertEveryConnectionHasABackend(ConnectionSettings database) {
    String application = "vfps-leak-" + UUID.randomUUID();
    try (TcpProxy proxy = new TcpProxy(database.host(), database.port())) {
      String connectionString =
          proxy.connectionString(
              database, "SSL Mode=Prefer;Maximum Pool Size=4;Application Name=" + application);
      try (VfpsServer server =
              TestService.start(Map.of("ConnectionStrings__PostgreSQL", connectionString));
          GrpcTestClient client = new GrpcTestClient(server.grpcPort())) {
        List<Future<?>> calls = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
          calls.add(
              client.callAsync(
                  NamespaceServiceGrpcClient.GetAll,
                  NamespaceServiceGetAllRequest.getDefaultInstance()));
        }
        Future.all(calls).timeout(30, TimeUnit.SECONDS).await();
        assertThat(backends(database, application)).isPositive();

        await("as many connections to the proxy as server processes")
            .atMost(PATIENCE)
            .until(
                () -> new Ends(proxy.clientConnections(), backends(database, application)),
                ends -> ends.proxy() == ends.server());
      }
    }
  }

  /** The connections of one pool as the proxy and as the server count them. */
  private record Ends(long proxy, long server) {}

  private static Future<Reply<PseudonymServiceCreateResponse>> create(
      GrpcTestClient client, String namespace, String value) {
    return client.callAsync(
        PseudonymServiceGrpcClient.Create,
        PseudonymServiceCreateRequest.newBuilder()
            .setNamespace(namespace)
            .setOriginalValue(value)
            .build());
  }

  /** The server processes serving connections of that application name. */
  private static long backends(ConnectionSettings database, String application) {
    return TestPostgres.queryLong(
        database, "SELECT count(*) FROM pg_stat_activity WHERE application_name = ?", application);
  }
}
