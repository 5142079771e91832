package org.vfps.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import ch.qos.logback.classic.Level;
import io.vertx.grpc.common.GrpcStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.ClassResources;
import org.vfps.GrpcTestClient;
import org.vfps.LogCapture;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.api.x.access.v1.AccessServiceGrpcClient;
import org.vfps.api.x.access.v1.CreateAccessTokenRequest;
import org.vfps.api.x.access.v1.CreateAccessTokenResponse;
import org.vfps.api.x.access.v1.CreateGrantRequest;
import org.vfps.api.x.access.v1.CreateServiceAccountRequest;
import org.vfps.api.x.access.v1.DeleteGrantRequest;
import org.vfps.api.x.access.v1.GranteeType;
import org.vfps.api.x.access.v1.RevokeAccessTokenRequest;
import org.vfps.auth.TestOidcProvider;
import org.vfps.server.VfpsServer;

/**
 * A change of access made through one replica, seen by another: at once with the cluster on (the
 * replicas keep their copies for the default 30 s, so only the event can explain it), and without
 * it within two seconds through the database's invalidation log, or within {@code
 * Authorization__GrantCacheDuration} when that is shorter.
 */
class AccessCoherenceIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  @RegisterExtension final LogCapture hazelcast = LogCapture.of("com.hazelcast");

  private final List<VfpsServer> replicas = new ArrayList<>();
  private final List<GrpcTestClient> clients = new ArrayList<>();
  private TestOidcProvider provider;
  private String admin;

  @AfterEach
  void stop() {
    clients.forEach(GrpcTestClient::close);
    replicas.forEach(VfpsServer::close);
    if (provider != null) {
      provider.close();
    }
    assertThat(hazelcast.atLeast(Level.ERROR)).isEmpty();
  }

  private void start(int count, boolean cluster, String grantCacheDuration) {
    provider = new TestOidcProvider().start();
    admin = "Bearer " + provider.token("alice", "vfps-admin");
    String clusterName = "vfps-access-" + UUID.randomUUID();
    List<Integer> ports = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      ports.add(TestService.freePort());
    }
    for (int i = 0; i < count; i++) {
      Map<String, String> env = new HashMap<>();
      env.put("ConnectionStrings__PostgreSQL", TestPostgres.uri());
      env.put("Authorization__IsEnabled", "true");
      env.put("Authorization__Authority", provider.issuer());
      env.put("Authorization__Audience", TestOidcProvider.AUDIENCE);
      env.put("Authorization__RequireHttpsMetadata", "false");
      env.put("Authorization__AdminRoles__0", "vfps-admin");
      env.put("Authorization__AccessTokens__IsEnabled", "true");
      env.put("Authorization__GrantCacheDuration", grantCacheDuration);
      if (cluster) {
        env.put("Cluster__IsEnabled", "true");
        env.put("Cluster__Name", clusterName);
        env.put("Cluster__Host", "127.0.0.1");
        env.put("Cluster__Port", Integer.toString(ports.get(i)));
        env.put(
            "Cluster__Members",
            ports.stream().map(port -> "127.0.0.1:" + port).collect(Collectors.joining(",")));
      }
      VfpsServer server = TestService.start(env);
      replicas.add(server);
      clients.add(new GrpcTestClient(server.grpcPort()));
    }
  }

  private static Map<String, String> auth(String authorization) {
    return Map.of("authorization", authorization);
  }

  private GrpcStatus create(int replica, String authorization, String namespace) {
    return clients
        .get(replica)
        .call(
            PseudonymServiceGrpcClient.Create,
            PseudonymServiceCreateRequest.newBuilder()
                .setNamespace(namespace)
                .setOriginalValue("v-" + UUID.randomUUID())
                .build(),
            auth(authorization))
        .status();
  }

  /** A namespace, a service account with write on it and a token of it, made on replica 0. */
  private record Setup(String namespace, String grantId, CreateAccessTokenResponse token) {}

  private Setup setUp() {
    GrpcTestClient first = clients.get(0);
    String namespace = "coherent-" + UUID.randomUUID();
    first.ok(
        NamespaceServiceGrpcClient.Create,
        NamespaceServiceCreateRequest.newBuilder()
            .setName(namespace)
            .setPseudonymLength(16)
            .build(),
        auth(admin));
    String account = "coherent-" + UUID.randomUUID().toString().substring(0, 8);
    first.ok(
        AccessServiceGrpcClient.CreateServiceAccount,
        CreateServiceAccountRequest.newBuilder().setName(account).build(),
        auth(admin));
    String grantId =
        first
            .ok(
                AccessServiceGrpcClient.CreateGrant,
                CreateGrantRequest.newBuilder()
                    .setNamespace(namespace)
                    .setGranteeType(GranteeType.GRANTEE_TYPE_SERVICE_ACCOUNT)
                    .setGrantee(account)
                    .setCanWrite(true)
                    .build(),
                auth(admin))
            .getGrant()
            .getId();
    CreateAccessTokenResponse token =
        first.ok(
            AccessServiceGrpcClient.CreateAccessToken,
            CreateAccessTokenRequest.newBuilder()
                .setName("coherence")
                .setServiceAccount(account)
                .build(),
            auth(admin));
    return new Setup(namespace, grantId, token);
  }

  @Test
  void withTheClusterAChangeOnOneReplicaHoldsOnEveryReplicaWhenItReturns() {
    start(2, true, "0.00:00:30");
    Setup setup = setUp();
    String token = "Bearer " + setup.token().getSecret();
    // a new token and grant work on the other replica at once, within its 30 s copy
    assertThat(create(1, token, setup.namespace())).isEqualTo(GrpcStatus.OK);

    clients
        .get(0)
        .ok(
            AccessServiceGrpcClient.DeleteGrant,
            DeleteGrantRequest.newBuilder().setId(setup.grantId()).build(),
            auth(admin));
    assertThat(create(1, token, setup.namespace())).isEqualTo(GrpcStatus.PERMISSION_DENIED);

    clients
        .get(0)
        .ok(
            AccessServiceGrpcClient.RevokeAccessToken,
            RevokeAccessTokenRequest.newBuilder()
                .setId(setup.token().getAccessToken().getId())
                .build(),
            auth(admin));
    assertThat(create(1, token, setup.namespace())).isEqualTo(GrpcStatus.UNAUTHENTICATED);
  }

  @Test
  void withoutTheClusterTheGrantCacheDurationBoundsHowLongARevokedTokenWorks() {
    Duration duration = Duration.ofSeconds(2);
    start(2, false, "0.00:00:02");
    Setup setup = setUp();
    String token = "Bearer " + setup.token().getSecret();
    awaitStatus(1, token, setup.namespace(), GrpcStatus.OK, duration);

    clients
        .get(0)
        .ok(
            AccessServiceGrpcClient.RevokeAccessToken,
            RevokeAccessTokenRequest.newBuilder()
                .setId(setup.token().getAccessToken().getId())
                .build(),
            auth(admin));

    // at once on the replica that revoked it, and within the duration on the other
    assertThat(create(0, token, setup.namespace())).isEqualTo(GrpcStatus.UNAUTHENTICATED);
    awaitStatus(1, token, setup.namespace(), GrpcStatus.UNAUTHENTICATED, duration);
  }

  @Test
  void withoutTheClusterARevocationReachesEveryReplicaThroughTheDatabaseWithinTwoSeconds() {
    // copies kept for the default 30 s: only the database's invalidation log can explain it
    start(2, false, "0.00:00:30");
    Setup setup = setUp();
    String token = "Bearer " + setup.token().getSecret();
    awaitStatus(1, token, setup.namespace(), GrpcStatus.OK, Duration.ofSeconds(2));

    clients
        .get(0)
        .ok(
            AccessServiceGrpcClient.DeleteGrant,
            DeleteGrantRequest.newBuilder().setId(setup.grantId()).build(),
            auth(admin));
    awaitStatus(1, token, setup.namespace(), GrpcStatus.PERMISSION_DENIED, Duration.ofSeconds(2));

    clients
        .get(0)
        .ok(
            AccessServiceGrpcClient.RevokeAccessToken,
            RevokeAccessTokenRequest.newBuilder()
                .setId(setup.token().getAccessToken().getId())
                .build(),
            auth(admin));
    awaitStatus(1, token, setup.namespace(), GrpcStatus.UNAUTHENTICATED, Duration.ofSeconds(2));
  }

  /**
   * Waits until the replica answers the status, failing after five times the duration (generous for
   * a slow machine; a replica that kept its copy past its age would never answer it).
   */
  private void awaitStatus(
      int replica, String token, String namespace, GrpcStatus expected, Duration duration) {
    long deadline = System.nanoTime() + duration.multipliedBy(5).toNanos();
    GrpcStatus last = null;
    while (System.nanoTime() < deadline) {
      last = create(replica, token, namespace);
      if (last == expected) {
        return;
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    fail("replica " + replica + " still answered " + last + " after " + duration.multipliedBy(5));
  }
}
