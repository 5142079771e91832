package org.vfps.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
import org.vfps.GrpcTestClient;
import org.vfps.GrpcTestClient.Reply;
import org.vfps.LogCapture;
import org.vfps.TcpProxy;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceDeleteRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.PseudonymGenerationMethod;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceCreateResponse;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.api.x.withdrawal.v1.DeletePseudonymsRequest;
import org.vfps.api.x.withdrawal.v1.WithdrawalServiceGrpcClient;
import org.vfps.config.ConnectionSettings;
import org.vfps.server.VfpsServer;
import org.vfps.tracing.OtlpReceiver;

/**
 * The database's invalidation log brings every change to every replica's caches within two seconds
 * of its commit, without the event bus: to replicas outside the cluster, and to a member whose
 * confirmation the bus did not bring. A replica that cannot read the log stops answering from its
 * caches. Both caches keep entries for the default hour, so only the log can explain a fresh
 * answer.
 */
class InvalidationLogIT {

  /** Five times the bound of two seconds: generous for a slow machine, short of the hour. */
  private static final Duration WITHIN = Duration.ofSeconds(10);

  @RegisterExtension final LogCapture cluster = LogCapture.of("org.vfps.cluster");

  @RegisterExtension final LogCapture hazelcast = LogCapture.of("com.hazelcast");

  private final List<VfpsServer> replicas = new ArrayList<>();
  private final List<GrpcTestClient> clients = new ArrayList<>();
  private final List<AutoCloseable> resources = new ArrayList<>();

  @AfterEach
  void stop() throws Exception {
    clients.forEach(GrpcTestClient::close);
    replicas.forEach(VfpsServer::close);
    for (AutoCloseable resource : resources) {
      resource.close();
    }
    assertThat(hazelcast.atLeast(Level.ERROR)).isEmpty();
  }

  private static Map<String, String> cachesOn(String connectionString) {
    Map<String, String> env = new HashMap<>();
    env.put("ConnectionStrings__PostgreSQL", connectionString);
    env.put("Pseudonymization__Caching__Namespaces__IsEnabled", "true");
    env.put("Pseudonymization__Caching__Pseudonyms__IsEnabled", "true");
    return env;
  }

  private void start(Map<String, String> env) {
    VfpsServer server = TestService.start(env);
    replicas.add(server);
    clients.add(new GrpcTestClient(server.grpcPort()));
  }

  /** Two replicas of one cluster, both caches on, with these settings besides. */
  private void startCluster(Map<String, String> more) {
    String name = "vfps-log-" + UUID.randomUUID();
    List<Integer> ports = List.of(TestService.freePort(), TestService.freePort());
    for (int port : ports) {
      Map<String, String> env = cachesOn(TestPostgres.uri());
      env.put("Cluster__IsEnabled", "true");
      env.put("Cluster__Name", name);
      env.put("Cluster__Host", "127.0.0.1");
      env.put("Cluster__Port", Integer.toString(port));
      env.put(
          "Cluster__Members",
          ports.stream().map(p -> "127.0.0.1:" + p).collect(Collectors.joining(",")));
      env.putAll(more);
      start(env);
    }
  }

  private Reply<PseudonymServiceCreateResponse> create(
      int replica, String namespace, String value) {
    return clients
        .get(replica)
        .call(
            PseudonymServiceGrpcClient.Create,
            PseudonymServiceCreateRequest.newBuilder()
                .setNamespace(namespace)
                .setOriginalValue(value)
                .build());
  }

  private String pseudonym(int replica, String namespace, String value) {
    Reply<PseudonymServiceCreateResponse> reply = create(replica, namespace, value);
    assertThat(reply.status()).as(reply.message()).isEqualTo(GrpcStatus.OK);
    return reply.body().getPseudonym().getPseudonymValue();
  }

  private void withdraw(int replica, String namespace, String value) {
    clients
        .get(replica)
        .ok(
            WithdrawalServiceGrpcClient.DeletePseudonyms,
            DeletePseudonymsRequest.newBuilder()
                .setNamespace(namespace)
                .setOriginalValue(value)
                .build());
  }

  private void createNamespace(int replica, String namespace, String prefix) {
    clients
        .get(replica)
        .ok(
            NamespaceServiceGrpcClient.Create,
            NamespaceServiceCreateRequest.newBuilder()
                .setName(namespace)
                .setPseudonymGenerationMethod(
                    PseudonymGenerationMethod
                        .PSEUDONYM_GENERATION_METHOD_SECURE_RANDOM_BASE64URL_ENCODED)
                .setPseudonymLength(16)
                .setPseudonymPrefix(prefix)
                .build());
  }

  @Test
  void aWithdrawalReachesAReplicaOutsideTheClusterThroughTheDatabase() {
    start(cachesOn(TestPostgres.uri()));
    start(cachesOn(TestPostgres.uri()));
    String namespace = clients.getFirst().createNamespace("log-withdrawal-");
    String before = pseudonym(1, namespace, "patient");
    assertThat(pseudonym(1, namespace, "patient")).as("now from its cache").isEqualTo(before);

    withdraw(0, namespace, "patient");

    await("replica 1 no longer answering the withdrawn pseudonym")
        .atMost(WITHIN)
        .until(() -> pseudonym(1, namespace, "patient"), renewed -> !renewed.equals(before));
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(1);
  }

  @Test
  void aNamespaceDeletedAndCreatedAgainReachesAReplicaOutsideTheClusterThroughTheDatabase() {
    start(cachesOn(TestPostgres.uri()));
    start(cachesOn(TestPostgres.uri()));
    String namespace = "log-namespace-" + UUID.randomUUID();
    createNamespace(0, namespace, "old-");
    assertThat(pseudonym(1, namespace, "first")).startsWith("old-");

    clients
        .getFirst()
        .ok(
            NamespaceServiceGrpcClient.Delete,
            NamespaceServiceDeleteRequest.newBuilder().setName(namespace).build());
    createNamespace(0, namespace, "new-");

    await("replica 1 creating with the new namespace's settings")
        .atMost(WITHIN)
        .until(
            () -> create(1, namespace, "v-" + UUID.randomUUID()),
            reply ->
                reply.status() == GrpcStatus.OK
                    && reply.body().getPseudonym().getPseudonymValue().startsWith("new-"));
    assertThat(pseudonym(1, namespace, "first")).startsWith("new-");
  }

  @Test
  void aReplicaThatCannotReadTheLogStopsAnsweringFromItsCaches() {
    ConnectionSettings database = TestPostgres.database();
    TcpProxy proxy = new TcpProxy(database.host(), database.port());
    resources.add(proxy);
    start(cachesOn(TestPostgres.uri()));
    start(cachesOn(proxy.connectionString(database)));
    String namespace = clients.getFirst().createNamespace("log-cut-");
    String before = pseudonym(1, namespace, "patient");
    assertThat(pseudonym(1, namespace, "patient")).isEqualTo(before);

    // replica 1 cannot learn of this withdrawal: it must not answer the pair from its cache
    proxy.cut();
    withdraw(0, namespace, "patient");
    await("replica 1 refusing to answer from its cache")
        .atMost(WITHIN)
        .until(() -> create(1, namespace, "patient").status(), GrpcStatus.UNAVAILABLE::equals);

    proxy.open();
    await("replica 1 serving again once it reads the log")
        .atMost(Duration.ofSeconds(30))
        .until(() -> create(1, namespace, "patient").status(), GrpcStatus.OK::equals);
    assertThat(pseudonym(1, namespace, "patient")).isNotEqualTo(before);
    assertThat(cluster.atLeast(Level.WARN))
        .anySatisfy(
            event ->
                assertThat(event.getFormattedMessage())
                    .contains("The cache invalidation log has not been read"));
  }

  /**
   * A member that does not confirm within {@code Cluster__EvictionTimeout} (here a millisecond,
   * which the cluster's round trip does not make) may not answer the withdrawn pair once the
   * withdrawal returns: the withdrawal waits until it has applied the change or stopped using its
   * caches.
   */
  @Test
  void aWithdrawalThatAMemberDidNotConfirmInTimeReturnsOnlyWhenNoReplicaAnswersThePair() {
    startCluster(Map.of("Cluster__EvictionTimeout", "00:00:00.001"));
    String namespace = clients.getFirst().createNamespace("log-unconfirmed-");
    for (int round = 0; round < 5; round++) {
      String value = "patient-" + round;
      String before = pseudonym(1, namespace, value);
      assertThat(pseudonym(1, namespace, value)).isEqualTo(before);

      withdraw(0, namespace, value);

      assertThat(pseudonym(1, namespace, value)).as("round %d", round).isNotEqualTo(before);
    }
  }

  /**
   * With tracing on, the event bus's deliveries are traced too: every member confirms a withdrawal
   * before it returns, and none answers the withdrawn pair after it.
   */
  @Test
  void withTracingOnEveryMemberConfirmsAWithdrawalBeforeItReturns() {
    OtlpReceiver receiver = new OtlpReceiver();
    resources.add(receiver);
    startCluster(
        Map.of(
            "Tracing__IsEnabled", "true",
            "Tracing__RootSampler", "AlwaysOnSampler",
            "Tracing__Otlp__Endpoint", receiver.endpoint()));
    String namespace = clients.getFirst().createNamespace("log-traced-");
    String before = pseudonym(1, namespace, "patient");
    assertThat(pseudonym(1, namespace, "patient")).isEqualTo(before);

    withdraw(0, namespace, "patient");

    assertThat(pseudonym(1, namespace, "patient")).isNotEqualTo(before);
    assertThat(cluster.atLeast(Level.WARN)).isEmpty();
  }
}
