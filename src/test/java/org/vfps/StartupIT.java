package org.vfps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.vfps.api.v1.Namespace;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceGetRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.PseudonymGenerationMethod;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.config.ConnectionSettings;
import org.vfps.server.StartupException;
import org.vfps.server.VfpsServer;

class StartupIT {

  /** What the service logs at start, asserted where it matters instead of printed. */
  @RegisterExtension final LogCapture log = LogCapture.of("org.vfps");

  @RegisterExtension final LogCapture vertxLog = LogCapture.of("io.vertx");

  @Test
  void initialNamespacesAreCreatedAndExistingOnesLeftAlone() {
    String existing = "init-existing-" + UUID.randomUUID();
    String fresh = "init-fresh-" + UUID.randomUUID();
    try (VfpsServer server = TestService.start();
        GrpcTestClient client = new GrpcTestClient(server.grpcPort())) {
      client.ok(
          NamespaceServiceGrpcClient.Create,
          NamespaceServiceCreateRequest.newBuilder()
              .setName(existing)
              .setPseudonymLength(8)
              .setDescription("made by a client")
              .build());
    }

    Map<String, String> env =
        Map.of(
            "ConnectionStrings__PostgreSQL", TestPostgres.uri(),
            "Init__v1__Namespaces__0__Name", existing,
            "Init__v1__Namespaces__0__PseudonymLength", "16",
            "Init__v1__Namespaces__1__Name", fresh,
            "Init__v1__Namespaces__1__PseudonymGenerationMethod", "FullRandomHexEncoded",
            "Init__v1__Namespaces__1__PseudonymLength", "12",
            "Init__v1__Namespaces__1__PseudonymPrefix", "dev-");
    try (VfpsServer server = TestService.start(env);
        GrpcTestClient client = new GrpcTestClient(server.grpcPort())) {
      Namespace kept = get(client, existing);
      assertThat(kept.getDescription()).isEqualTo("made by a client");
      assertThat(kept.getPseudonymLength()).isEqualTo(8);

      Namespace created = get(client, fresh);
      assertThat(created.getPseudonymGenerationMethod())
          .isEqualTo(PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_FULL_RANDOM_HEX_ENCODED);
      assertThat(created.getPseudonymLength()).isEqualTo(12);
      assertThat(created.getPseudonymPrefix()).isEqualTo("dev-");
    }
  }

  @Test
  void anInvalidInitialNamespaceStopsTheStartNamingItsKey() {
    Map<String, String> env =
        Map.of(
            "ConnectionStrings__PostgreSQL",
            TestPostgres.uri(),
            "Init__v1__Namespaces__0__Name",
            "init-bad-" + UUID.randomUUID(),
            "Init__v1__Namespaces__0__PseudonymGenerationMethod",
            "Uuid4",
            "Init__v1__Namespaces__0__PseudonymLength",
            "16");

    assertThatThrownBy(() -> TestService.start(env))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("Init__v1__Namespaces__0")
        .hasMessageContaining("36");
  }

  @Test
  void anUnmigratedDatabaseIsNamedAsSuchAtStart() {
    String uri = TestPostgres.uri(TestPostgres.freshDatabase());

    assertThatThrownBy(() -> TestService.start(Map.of("ConnectionStrings__PostgreSQL", uri)))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("migrate");
  }

  /**
   * A database that refuses the start, whether the start migrates (JDBC) or not (the pool): the
   * refusal in PostgreSQL's words with what to check, and no stack trace, since it is the
   * operator's matter. (An unknown role is refused by both trust and password authentication.)
   */
  @Test
  void aDatabaseThatRefusesTheStartIsNamedWithWhatToCheckWithoutAStackTrace() {
    ConnectionSettings db = TestPostgres.database();
    String server = db.host() + ":" + db.port();
    String nobody = "vfps_nobody_" + UUID.randomUUID().toString().replace("-", "");
    Map<String, String> refusals =
        Map.of(
            "postgresql://" + nobody + ":wrong@" + server + "/" + db.database(),
            "Check the user and password of ConnectionStrings__PostgreSQL.",
            "postgresql://" + db.user() + "@127.0.0.1:" + TestService.freePort() + "/vfps",
            "Is PostgreSQL running, and do the host and port of ConnectionStrings__PostgreSQL"
                + " name it?",
            // the same server and role, another database name (the last part of the URI)
            TestPostgres.uri(db).substring(0, TestPostgres.uri(db).lastIndexOf('/') + 1) + nobody,
            "Does the database ConnectionStrings__PostgreSQL names exist?");
    refusals.forEach(TestService::assertDatabaseRefusesTheStart);
    // the stopped start waited for its workers: none ended after the event loops
    assertThat(vertxLog.atLeast(Level.ERROR)).isEmpty();
  }

  /**
   * A start refused after the metrics listener began counting (the gRPC port is taken): the refusal
   * names the port, and the teardown stops the counting before it closes the pool, so no misleading
   * "database is not available" warning follows the refusal.
   */
  @Test
  void aPortInUseStopsTheStartWithoutALaterWarningAboutTheDatabase() throws IOException {
    try (ServerSocket taken = new ServerSocket(0)) {
      Map<String, String> env =
          Map.of(
              "ConnectionStrings__PostgreSQL",
              TestPostgres.uri(),
              "Grpc__Port",
              Integer.toString(taken.getLocalPort()),
              "MetricsPort",
              Integer.toString(TestService.freePort()));

      assertThatThrownBy(() -> TestService.start(env))
          .isInstanceOf(StartupException.class)
          .hasMessageContaining("Grpc__Port");
    }
    assertThat(log.atLeast(Level.WARN))
        .map(ILoggingEvent::getFormattedMessage)
        .noneMatch(warning -> warning.contains("Counting pseudonyms"));
  }

  @Test
  void forceRunDatabaseMigrationsMigratesAtStart() {
    String uri = TestPostgres.uri(TestPostgres.freshDatabase());

    try (VfpsServer server =
            TestService.start(
                Map.of(
                    "ConnectionStrings__PostgreSQL", uri, "ForceRunDatabaseMigrations", "true"));
        GrpcTestClient client = new GrpcTestClient(server.grpcPort())) {
      client.ok(
          NamespaceServiceGrpcClient.Create,
          NamespaceServiceCreateRequest.newBuilder()
              .setName("migrated")
              .setPseudonymLength(8)
              .build());
    }
  }

  @Test
  void withoutAConnectionStringAnEmbeddedDatabaseKeepsItsDataAcrossRestarts(@TempDir Path dir) {
    Path data = dir.resolve("postgres");
    Map<String, String> env = Map.of("Database__Embedded__DataDirectory", data.toString());
    String pseudonym;
    try (VfpsServer server = TestService.start(env);
        GrpcTestClient client = new GrpcTestClient(server.grpcPort())) {
      client.ok(
          NamespaceServiceGrpcClient.Create,
          NamespaceServiceCreateRequest.newBuilder().setName("dev").setPseudonymLength(8).build());
      pseudonym = create(client);
    }
    assertThat(Files.isDirectory(data)).isTrue();

    try (VfpsServer server = TestService.start(env);
        GrpcTestClient client = new GrpcTestClient(server.grpcPort())) {
      assertThat(create(client)).isEqualTo(pseudonym);
    }
    // each start says, once, that this is a development database, and where it lives, and that CSV
    // jobs keep their files in a development store; beside them, each warns that authorization is
    // off (the tests' default), and nothing else is a warning
    List<String> warnings =
        log.atLeast(Level.WARN).stream().map(ILoggingEvent::getFormattedMessage).toList();
    assertThat(warnings)
        .filteredOn(warning -> warning.contains("development database"))
        .hasSize(2)
        .allSatisfy(warning -> assertThat(warning).contains(data.toString()));
    assertThat(warnings).filteredOn(warning -> warning.contains("development store")).hasSize(2);
    assertThat(warnings)
        .filteredOn(
            warning ->
                !warning.contains("development database") && !warning.contains("development store"))
        .hasSize(2)
        .allSatisfy(warning -> assertThat(warning).startsWith("Authorization is off"));
  }

  private static String create(GrpcTestClient client) {
    return client
        .ok(
            PseudonymServiceGrpcClient.Create,
            PseudonymServiceCreateRequest.newBuilder()
                .setNamespace("dev")
                .setOriginalValue("kept")
                .build())
        .getPseudonym()
        .getPseudonymValue();
  }

  private static Namespace get(GrpcTestClient client, String name) {
    return client
        .ok(
            NamespaceServiceGrpcClient.Get,
            NamespaceServiceGetRequest.newBuilder().setName(name).build())
        .getNamespace();
  }
}
