package org.vfps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.vertx.core.Future;
import io.vertx.grpc.common.GrpcStatus;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.vfps.GrpcTestClient.Reply;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceDeleteRequest;
import org.vfps.api.v1.NamespaceServiceGetAllRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.PseudonymGenerationMethod;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceCreateResponse;
import org.vfps.api.v1.PseudonymServiceGetRequest;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.api.v1.PseudonymServiceListRequest;
import org.vfps.api.v1.PseudonymServiceListResponse;
import org.vfps.api.x.csvjobs.v1.ColumnMapping;
import org.vfps.api.x.csvjobs.v1.CreateCsvJobRequest;
import org.vfps.api.x.csvjobs.v1.CsvJob;
import org.vfps.api.x.csvjobs.v1.CsvJobDirection;
import org.vfps.api.x.csvjobs.v1.CsvJobServiceGrpcClient;
import org.vfps.api.x.csvjobs.v1.CsvJobStatus;
import org.vfps.api.x.csvjobs.v1.GetCsvJobRequest;
import org.vfps.api.x.formats.v1.CheckDigit;
import org.vfps.api.x.formats.v1.PseudonymFormat;
import org.vfps.api.x.withdrawal.v1.AnonymizeOriginalRequest;
import org.vfps.api.x.withdrawal.v1.DeletePseudonymsRequest;
import org.vfps.api.x.withdrawal.v1.WithdrawalServiceGrpcClient;
import org.vfps.config.ConnectionSettings;
import org.vfps.objectstore.TestObjectStore;
import org.vfps.server.VfpsServer;
import org.vfps.storage.Migrations;

/**
 * The production split of docs/deployment/production.md: the owner of the database migrates it, and
 * the service runs as a role that may only read, insert and delete rows, with exactly that page's
 * GRANTs.
 */
class DatabasePrivilegesIT {

  /**
   * The production checklist's GRANTs, for a service role {@code %1$s} on database {@code %2$s}.
   */
  static final List<String> SERVICE_ROLE_GRANTS =
      List.of(
          "GRANT CONNECT ON DATABASE %2$s TO %1$s",
          "GRANT USAGE ON SCHEMA public TO %1$s",
          "GRANT SELECT, INSERT, DELETE ON namespaces TO %1$s",
          "GRANT SELECT, INSERT ON pseudonyms, vfps_secrets TO %1$s",
          "GRANT UPDATE, DELETE ON pseudonyms TO %1$s",
          "GRANT SELECT, INSERT, UPDATE ON pseudonymization_jobs, vfps_csv_job_runs TO %1$s",
          "GRANT SELECT, INSERT, UPDATE, DELETE ON vfps_csv_job_pending_output TO %1$s",
          "GRANT SELECT, UPDATE ON vfps_cache_generation TO %1$s",
          "GRANT SELECT, INSERT, DELETE ON vfps_cache_invalidations TO %1$s",
          "GRANT SELECT, INSERT, DELETE ON vfps_ended_ui_sessions TO %1$s",
          "GRANT SELECT, INSERT ON vfps_namespace_formats TO %1$s",
          "GRANT SELECT, INSERT, UPDATE, DELETE ON vfps_namespace_sealing TO %1$s");

  @Test
  void theServiceRunsWithOnlyTheDataPrivilegesAfterTheOwnerMigrated() {
    ConnectionSettings owner = TestPostgres.freshDatabase();
    assertThat(Migrations.migrate(owner)).isEqualTo(14);
    runAsServiceRole(owner, SERVICE_ROLE_GRANTS, () -> {});
  }

  /**
   * A site that granted the checklist of version 11 and then migrates: the migrations of the
   * namespace formats and of sealing grant their tables to the roles that may insert namespaces.
   */
  @Test
  void theGrantsOfTheVersionBeforeTheNamespaceFormatsStillServeAfterTheUpgrade() {
    ConnectionSettings owner = TestPostgres.freshDatabase();
    assertThat(Migrations.migrate(owner)).isEqualTo(14);
    // back to version 11
    TestPostgres.execute(
        owner,
        "DROP TABLE vfps_namespace_formats",
        "DROP TABLE vfps_namespace_sealing",
        "ALTER TABLE pseudonyms DROP COLUMN x_sealed_original_value",
        "ALTER TABLE vfps_csv_job_runs DROP COLUMN mistyped_pseudonyms",
        "DELETE FROM flyway_schema_history WHERE version IN ('12', '13', '14')");
    runAsServiceRole(
        owner,
        SERVICE_ROLE_GRANTS.subList(0, SERVICE_ROLE_GRANTS.size() - 2),
        () -> assertThat(Migrations.migrate(owner)).isEqualTo(3));
  }

  /**
   * A service role without the checklist's GRANTs, started with and without migrating: the start
   * stops naming the refusal and the privileges, and logs no stack trace (the refusal is the
   * operator's matter).
   */
  @Test
  void aServiceRoleWithoutItsGrantsStopsTheStartNamingThePrivileges() {
    ConnectionSettings owner = TestPostgres.freshDatabase();
    assertThat(Migrations.migrate(owner)).isEqualTo(14);
    withServiceRole(
        owner,
        SERVICE_ROLE_GRANTS.subList(0, 2),
        service ->
            TestService.assertDatabaseRefusesTheStart(
                TestPostgres.uri(service),
                "Does the role of ConnectionStrings__PostgreSQL have the privileges the service"
                    + " needs (see the roles of a production deployment)?"));
  }

  /**
   * Creates a service role with {@code grants}, runs {@code beforeStart} as the owner, then starts
   * the service as that role and makes every call.
   */
  private static void runAsServiceRole(
      ConnectionSettings owner, List<String> grants, Runnable beforeStart) {
    withServiceRole(
        owner,
        grants,
        service -> {
          beforeStart.run();
          assertThatThrownBy(() -> Migrations.migrate(service))
              .as("the service's role cannot change the schema")
              .isNotNull();
          Map<String, String> env = new java.util.HashMap<>(TestObjectStore.environment());
          env.put("ConnectionStrings__PostgreSQL", TestPostgres.uri(service));
          env.put("MetricsPort", Integer.toString(TestService.freePort()));
          try (VfpsServer server = TestService.start(env);
              GrpcTestClient client = new GrpcTestClient(server.grpcPort())) {
            everyCallWorks(client);
          }
        });
  }

  /**
   * Creates a service role with {@code grants} on the owner's database and runs {@code work} with
   * its connection; drops the database and the role afterwards.
   */
  private static void withServiceRole(
      ConnectionSettings owner, List<String> grants, Consumer<ConnectionSettings> work) {
    assumeTrue(
        TestPostgres.queryLong(
                owner,
                "SELECT count(*) FROM pg_roles WHERE rolname = current_user"
                    + " AND (rolcreaterole OR rolsuper)")
            == 1,
        "the role of the test database may not create roles (ALTER ROLE ... CREATEROLE)");
    String role = "vfps_service_" + UUID.randomUUID().toString().replace("-", "");
    String password = UUID.randomUUID().toString();
    TestPostgres.execute(owner, "CREATE ROLE " + role + " LOGIN PASSWORD '" + password + "'");
    try {
      TestPostgres.execute(
          owner,
          grants.stream()
              .map(grant -> grant.formatted(role, owner.database()))
              .toArray(String[]::new));
      work.accept(
          new ConnectionSettings(
              owner.host(),
              owner.port(),
              owner.database(),
              role,
              password,
              owner.maxPoolSize(),
              owner.connectTimeout(),
              owner.sslMode(),
              owner.applicationName()));
    } finally {
      TestPostgres.execute(
          TestPostgres.database(),
          // a backend of the role may still be ending after the service closed its pool; FORCE
          // may end it only as a member of the role (PostgreSQL 15 does not make the creator one)
          "GRANT " + role + " TO CURRENT_USER",
          "DROP DATABASE " + owner.database() + " WITH (FORCE)",
          "DROP ROLE " + role);
    }
  }

  private static void everyCallWorks(GrpcTestClient client) {
    client.ok(
        NamespaceServiceGrpcClient.Create,
        NamespaceServiceCreateRequest.newBuilder().setName("study").setPseudonymLength(16).build());
    // concurrent creates: one statement each, or several in one multi-row statement
    List<Future<Reply<PseudonymServiceCreateResponse>>> creates =
        IntStream.range(0, 20)
            .mapToObj(
                i ->
                    client.callAsync(
                        PseudonymServiceGrpcClient.Create,
                        PseudonymServiceCreateRequest.newBuilder()
                            .setNamespace("study")
                            .setOriginalValue("patient-" + i)
                            .build()))
            .toList();
    Future.all(creates).await();
    assertThat(creates)
        .allSatisfy(call -> assertThat(call.result().status()).isEqualTo(GrpcStatus.OK));
    String pseudonym = creates.get(0).result().body().getPseudonym().getPseudonymValue();

    assertThat(
            client
                .ok(
                    PseudonymServiceGrpcClient.Get,
                    PseudonymServiceGetRequest.newBuilder()
                        .setNamespace("study")
                        .setPseudonymValue(pseudonym)
                        .build())
                .getPseudonym()
                .getOriginalValue())
        .isEqualTo("patient-0");
    PseudonymServiceListResponse page =
        client.ok(
            PseudonymServiceGrpcClient.List,
            PseudonymServiceListRequest.newBuilder()
                .setNamespace("study")
                .setPageSize(5)
                .setIncludeTotalSize(true)
                .build());
    assertThat(page.getTotalSize()).isEqualTo(20);
    assertThat(
            client
                .ok(
                    PseudonymServiceGrpcClient.List,
                    PseudonymServiceListRequest.newBuilder()
                        .setNamespace("study")
                        .setPageSize(5)
                        .setPageToken(page.getNextPageToken())
                        .build())
                .getPseudonymsCount())
        .isEqualTo(5);

    // consent withdrawal deletes and updates rows
    client.ok(
        WithdrawalServiceGrpcClient.DeletePseudonyms,
        DeletePseudonymsRequest.newBuilder()
            .setNamespace("study")
            .setOriginalValue("patient-1")
            .build());
    client.ok(
        WithdrawalServiceGrpcClient.AnonymizeOriginal,
        AnonymizeOriginalRequest.newBuilder()
            .setNamespace("study")
            .setOriginalValue("patient-2")
            .build());
    // a CSV job: its row, its run and checkpoint, its pending output
    CsvJob export =
        client.ok(
            CsvJobServiceGrpcClient.CreateCsvJob,
            CreateCsvJobRequest.newBuilder()
                .setDirection(CsvJobDirection.CSV_JOB_DIRECTION_EXPORT)
                .addColumnMappings(
                    ColumnMapping.newBuilder()
                        .setSourceColumn("original")
                        .setTargetColumn("pseudonym")
                        .setNamespace("study"))
                .build());
    CsvJob ended = export;
    for (int i = 0;
        i < 300 && ended.getStatusValue() < CsvJobStatus.CSV_JOB_STATUS_COMPLETED_VALUE;
        i++) {
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
      ended =
          client.ok(
              CsvJobServiceGrpcClient.GetCsvJob,
              GetCsvJobRequest.newBuilder().setId(export.getId()).build());
    }
    assertThat(ended.getStatus())
        .as(ended.toString())
        .isEqualTo(CsvJobStatus.CSV_JOB_STATUS_COMPLETED);
    assertThat(ended.getRowsProcessed()).isEqualTo(18);

    // an alphabet namespace: its format is a row of vfps_namespace_formats, deleted with it
    client.ok(
        NamespaceServiceGrpcClient.Create,
        NamespaceServiceCreateRequest.newBuilder()
            .setName("digits")
            .setPseudonymGenerationMethod(
                PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_X_SECURE_RANDOM_ALPHABET)
            .setPseudonymLength(12)
            .setXFormat(
                PseudonymFormat.newBuilder()
                    .setAlphabet("0123456789")
                    .setCheckDigit(CheckDigit.CHECK_DIGIT_VERHOEFF))
            .build());
    String digits =
        client
            .ok(
                PseudonymServiceGrpcClient.Create,
                PseudonymServiceCreateRequest.newBuilder()
                    .setNamespace("digits")
                    .setOriginalValue("patient-1")
                    .build())
            .getPseudonym()
            .getPseudonymValue();
    assertThat(digits).hasSize(13);
    client.ok(
        NamespaceServiceGrpcClient.Delete,
        NamespaceServiceDeleteRequest.newBuilder().setName("digits").build());
    client.ok(
        NamespaceServiceGrpcClient.Delete,
        NamespaceServiceDeleteRequest.newBuilder().setName("study").build());
    assertThat(
            client
                .ok(
                    NamespaceServiceGrpcClient.GetAll,
                    NamespaceServiceGetAllRequest.newBuilder().build())
                .getNamespacesCount())
        .isZero();
  }
}
