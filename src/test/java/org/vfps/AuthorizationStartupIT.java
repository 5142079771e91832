package org.vfps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.health.v1.HealthCheckRequest;
import io.vertx.grpc.health.v1.HealthCheckResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceGetRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.auth.TestOidcProvider;
import org.vfps.server.VfpsServer;

/**
 * Authorization at start: the provider down at start and up later, the settings that stop the start
 * (exit code 2 naming the key), the warnings about keys nobody reads and {@code hash-secret}, the
 * last three through the packaged jar.
 */
class AuthorizationStartupIT {

  @Test
  void withTheProviderDownTheServiceStartsUnreadyAndBecomesReadyWhenItIsUp() {
    String namespace = "auth-down-" + UUID.randomUUID();
    try (TestOidcProvider provider = new TestOidcProvider()) {
      Map<String, String> env = new HashMap<>();
      env.put("ConnectionStrings__PostgreSQL", TestPostgres.uri());
      env.putAll(AuthorizationIT.authorization(provider, namespace));
      try (VfpsServer server = TestService.start(env);
          GrpcTestClient grpc = new GrpcTestClient(server.grpcPort());
          HttpTestClient http = new HttpTestClient(server.httpPort())) {
        String token = "Bearer " + provider.token("alice", "vfps-admin");
        HttpTestClient.Response unready = http.get("/readyz");
        assertThat(unready.status()).isEqualTo(503);
        assertThat(unready.body()).contains("\"id\":\"authorization\",\"status\":\"DOWN\"");
        assertThat(health(grpc)).isEqualTo(HealthCheckResponse.ServingStatus.NOT_SERVING);
        assertThat(create(grpc, namespace, token)).isEqualTo(GrpcStatus.UNAVAILABLE);
        assertThat(create(grpc, namespace, "Bearer garbage")).isEqualTo(GrpcStatus.UNAUTHENTICATED);
        // client accounts need no provider
        String basic =
            "Basic "
                + Base64.getEncoder()
                    .encodeToString(
                        "pseudonymizer:correct horse battery staple"
                            .getBytes(StandardCharsets.UTF_8));
        assertThat(
                grpc.call(
                        NamespaceServiceGrpcClient.Get,
                        NamespaceServiceGetRequest.newBuilder().setName(namespace).build(),
                        Map.of("authorization", basic))
                    .status())
            .isEqualTo(GrpcStatus.NOT_FOUND);

        provider.start();

        await("/readyz UP once the provider answers")
            .atMost(Duration.ofSeconds(60))
            .until(() -> http.get("/readyz").status(), status -> status == 200);
        assertThat(create(grpc, namespace, token)).isEqualTo(GrpcStatus.OK);
        assertThat(health(grpc)).isEqualTo(HealthCheckResponse.ServingStatus.SERVING);
      }
    }
  }

  private static HealthCheckResponse.ServingStatus health(GrpcTestClient grpc) {
    return grpc.ok(GrpcTestClient.HEALTH_CHECK, HealthCheckRequest.getDefaultInstance())
        .getStatus();
  }

  private static GrpcStatus create(GrpcTestClient grpc, String namespace, String authorization) {
    return grpc.call(
            NamespaceServiceGrpcClient.Create,
            NamespaceServiceCreateRequest.newBuilder()
                .setName(namespace)
                .setPseudonymLength(16)
                .build(),
            Map.of("authorization", authorization))
        .status();
  }

  @Test
  void settingsThatCannotBeHonouredStopTheStartNamingTheKey() throws Exception {
    Map<String, String> problems = new HashMap<>();
    problems.put("Authorization__IsEnabled=true", "Authorization__Authority: missing");
    problems.put(
        "Authorization__IsEnabled=true Authorization__Authority=http://idp.example/realms/x"
            + " Authorization__Audience=vfps",
        "Authorization__Authority: 'http://idp.example/realms/x' is not https");
    problems.put(
        "Authorization__IsEnabled=true Authorization__Authority=https://idp.example/realms/x",
        "Authorization__Audience: missing");
    problems.put(
        "Authorization__IsEnabled=true Authorization__Authority=idp.example"
            + " Authorization__Audience=vfps",
        "Authorization__Authority: 'idp.example' is not an http or https URL");
    problems.put(
        "Authorization__IsEnabled=true Authorization__Clients__0__Id=fhir"
            + " Authorization__Clients__0__SecretHash=plain-secret",
        "Authorization__Clients__0__SecretHash: is not pbkdf2-sha256");
    problems.put(
        "Authorization__NamespaceRules__0__ReadRoles__0=reader",
        "Authorization__NamespaceRules__0__Namespace: missing");
    List<String> wrong = new ArrayList<>();
    for (Map.Entry<String, String> problem : problems.entrySet()) {
      Map<String, String> env = new HashMap<>();
      for (String setting : problem.getKey().split(" ")) {
        String[] pair = setting.split("=", 2);
        env.put(pair[0], pair[1]);
      }
      CommandLineIT.Run run = CommandLineIT.run(env, "serve");
      if (run.exitCode() != 2 || !run.output().contains(problem.getValue())) {
        wrong.add(problem.getKey() + " -> exit " + run.exitCode() + ": " + run.output());
      }
      assertThat(run.output()).doesNotContain("plain-secret");
    }
    assertThat(wrong).isEmpty();
  }

  @Test
  void keysNobodyReadsAreWarnedAboutByNameOnly() throws Exception {
    CommandLineIT.Run run =
        CommandLineIT.run(
            Map.of(
                "Authorization__Authorty", "https://typo.example",
                "Pseudonymization__Cachng__SizeLimit", "5",
                "Kestrel__Endpoints__Http__Url", "http://0.0.0.0:9999",
                "Authorization__AdminRoles__0__Name", "s3cr3t-role",
                "UNRELATED_VARIABLE", "x"),
            "migrate");

    assertThat(run.output())
        .contains("Authorization__Authorty is not a setting of vfps and is ignored")
        .contains("Pseudonymization__Cachng__SizeLimit is not a setting of vfps")
        .contains("Kestrel__Endpoints__Http__Url is not a setting of vfps")
        .contains("Authorization__AdminRoles__0__Name is not a setting of vfps")
        .doesNotContain("UNRELATED_VARIABLE")
        .doesNotContain("typo.example")
        .doesNotContain("s3cr3t-role");
    assertThat(run.output().lines().filter(line -> line.contains("is not a setting of vfps")))
        .hasSize(4);
  }

  @Test
  void hashSecretPrintsAHashTheServiceAccepts() throws Exception {
    Process process = CommandLineIT.jarCommand("hash-secret").redirectErrorStream(true).start();
    process.getOutputStream().write("s3cret-of-the-client\n".getBytes(StandardCharsets.UTF_8));
    process.getOutputStream().close();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();

    assertThat(process.exitValue()).as(output).isZero();
    String hash = output.strip();
    assertThat(hash).matches("pbkdf2-sha256:600000:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]{43}");
    assertThat(hash).doesNotContain("s3cret");

    CommandLineIT.Run run =
        CommandLineIT.run(
            Map.of(
                "Authorization__IsEnabled", "true",
                "Authorization__Clients__0__Id", "fhir",
                "Authorization__Clients__0__SecretHash", hash),
            "migrate");
    // past the configuration (migrate then asks for a database): the hash was accepted
    assertThat(run.output()).doesNotContain("Invalid configuration").contains("migrate needs");
  }
}
