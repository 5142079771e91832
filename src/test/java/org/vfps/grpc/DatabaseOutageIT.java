package org.vfps.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import io.vertx.grpc.common.GrpcMessageDecoder;
import io.vertx.grpc.common.GrpcMessageEncoder;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.common.ServiceMethod;
import io.vertx.grpc.common.ServiceName;
import io.vertx.grpc.health.v1.HealthCheckRequest;
import io.vertx.grpc.health.v1.HealthCheckResponse;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.GrpcTestClient;
import org.vfps.GrpcTestClient.Reply;
import org.vfps.LogCapture;
import org.vfps.TcpProxy;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.VfpsServer;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.config.ConnectionSettings;

/** The service rides out a lost database: UNAVAILABLE while it is away, serving once it is back. */
class DatabaseOutageIT {

  static final ServiceMethod<HealthCheckResponse, HealthCheckRequest> HEALTH_CHECK =
      ServiceMethod.client(
          ServiceName.create("grpc.health.v1", "Health"),
          "Check",
          GrpcMessageEncoder.encoder(),
          GrpcMessageDecoder.decoder(HealthCheckResponse.newBuilder()));

  /** The outage is logged, and this test says how: kept off the build's output. */
  @RegisterExtension final LogCapture log = LogCapture.of("org.vfps");

  @Test
  void callsFailAsUnavailableWhileTheDatabaseIsAwayAndSucceedAfter() {
    ConnectionSettings database = TestPostgres.database();
    try (TcpProxy proxy = new TcpProxy(database.host(), database.port())) {
      String connectionString = proxy.connectionString(database);
      try (VfpsServer server =
              TestService.start(Map.of("ConnectionStrings__PostgreSQL", connectionString));
          GrpcTestClient client = new GrpcTestClient(server.grpcPort())) {
        String namespace = "outage-" + UUID.randomUUID();
        client.ok(
            NamespaceServiceGrpcClient.Create,
            NamespaceServiceCreateRequest.newBuilder()
                .setName(namespace)
                .setPseudonymLength(8)
                .build());
        Supplier<Reply<?>> create =
            () ->
                client.call(
                    PseudonymServiceGrpcClient.Create,
                    PseudonymServiceCreateRequest.newBuilder()
                        .setNamespace(namespace)
                        .setOriginalValue("during-outage")
                        .build());
        assertThat(health(client)).isEqualTo(HealthCheckResponse.ServingStatus.SERVING);

        proxy.cut();
        Reply<?> during = create.get();
        assertThat(during.status()).isEqualTo(GrpcStatus.UNAVAILABLE);
        assertThat(during.message()).doesNotContain("during-outage");
        assertThat(health(client)).isEqualTo(HealthCheckResponse.ServingStatus.NOT_SERVING);

        proxy.open();
        await("a Create that succeeds once the database is back")
            .atMost(Duration.ofSeconds(20))
            .until(create::get, reply -> reply.status() == GrpcStatus.OK);
        assertThat(health(client)).isEqualTo(HealthCheckResponse.ServingStatus.SERVING);
        assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(1);
      }
    }
    // a lost database is a warning naming the call, without a stack trace or the original value
    assertThat(log.atLeast(Level.WARN))
        .isNotEmpty()
        .allSatisfy(
            event -> {
              assertThat(event.getLevel()).isEqualTo(Level.WARN);
              assertThat(event.getThrowableProxy()).isNull();
              assertThat(event.getFormattedMessage()).doesNotContain("during-outage");
            })
        .anySatisfy(
            event ->
                assertThat(event.getFormattedMessage())
                    .contains("PseudonymService/Create")
                    .contains("not available"));
  }

  private static HealthCheckResponse.ServingStatus health(GrpcTestClient client) {
    return client.ok(HEALTH_CHECK, HealthCheckRequest.getDefaultInstance()).getStatus();
  }
}
