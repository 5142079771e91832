package org.vfps.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import io.vertx.grpc.common.GrpcStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.GrpcTestClient;
import org.vfps.GrpcTestClient.Reply;
import org.vfps.LogCapture;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceDeleteRequest;
import org.vfps.api.v1.NamespaceServiceGetRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.PseudonymGenerationMethod;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.api.v1.PseudonymServiceListRequest;
import org.vfps.server.VfpsServer;

/**
 * Three replicas with caches on, clustered on 127.0.0.1 and sharing one PostgreSQL: a namespace
 * deleted through one is gone on all the moment the delete returns, and a re-created one is served
 * with its new settings everywhere. {@code -Dvfps.cluster.cycles=1000} runs the long count.
 */
class ClusterIT {

  private static final Logger LOG = LoggerFactory.getLogger(ClusterIT.class);
  private static final int CYCLES = Integer.getInteger("vfps.cluster.cycles", 25);

  private final String clusterName = "vfps-it-" + UUID.randomUUID();
  private final List<Integer> clusterPorts =
      List.of(TestService.freePort(), TestService.freePort(), TestService.freePort());
  private final List<VfpsServer> replicas = new ArrayList<>();
  private final List<GrpcTestClient> clients = new ArrayList<>();

  /**
   * Hazelcast warns when members leave (lost connections, suspected members, a new master): kept
   * off the build's output; an error would fail the test.
   */
  @RegisterExtension final LogCapture hazelcast = LogCapture.of("com.hazelcast");

  @AfterEach
  void stop() {
    clients.forEach(GrpcTestClient::close);
    replicas.forEach(VfpsServer::close);
    assertThat(hazelcast.atLeast(Level.ERROR)).isEmpty();
  }

  private void startReplica(int index) {
    Map<String, String> env = new HashMap<>();
    env.put("ConnectionStrings__PostgreSQL", TestPostgres.uri());
    env.put("Pseudonymization__Caching__Namespaces__IsEnabled", "true");
    env.put("Pseudonymization__Caching__Pseudonyms__IsEnabled", "true");
    env.put("Cluster__IsEnabled", "true");
    env.put("Cluster__Name", clusterName);
    env.put("Cluster__Host", "127.0.0.1");
    env.put("Cluster__Port", Integer.toString(clusterPorts.get(index)));
    env.put(
        "Cluster__Members",
        clusterPorts.stream().map(port -> "127.0.0.1:" + port).collect(Collectors.joining(",")));
    VfpsServer server = TestService.start(env);
    GrpcTestClient client = new GrpcTestClient(server.grpcPort());
    if (index < replicas.size()) {
      replicas.set(index, server);
      clients.set(index, client);
    } else {
      replicas.add(server);
      clients.add(client);
    }
  }

  /** The settings of cycle {@code n}: they change every cycle. */
  private record Settings(PseudonymGenerationMethod method, int length, String pattern) {
    static Settings of(int cycle) {
      return cycle % 2 == 0
          ? new Settings(
              PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_FULL_RANDOM_HEX_ENCODED,
              10 + cycle % 7,
              "[0-9a-f]{" + (10 + cycle % 7) + "}")
          : new Settings(
              PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_UUID4, 36, "[0-9a-f-]{36}");
    }
  }

  @Test
  void aDeleteOnOneReplicaIsSeenByAllAtOnceAndReCreatedSettingsApplyEverywhere() {
    for (int i = 0; i < 3; i++) {
      startReplica(i);
    }
    String namespace = "cluster-" + UUID.randomUUID();
    int staleReads = cycles(namespace, CYCLES);
    LOG.info("{} delete/re-create cycles across 3 replicas: {} stale reads", CYCLES, staleReads);
    assertThat(staleReads).isZero();
  }

  @Test
  void aRestartedReplicaRejoinsAndServesCorrectly() {
    for (int i = 0; i < 3; i++) {
      startReplica(i);
    }
    String namespace = "rejoin-" + UUID.randomUUID();
    assertThat(cycles(namespace, 2)).isZero();

    clients.get(2).close();
    replicas.get(2).close();
    startReplica(2);

    assertThat(cycles(namespace, 4)).isZero();
  }

  /** Runs delete/re-create cycles and counts the reads that saw a deleted namespace. */
  private int cycles(String namespace, int count) {
    int staleReads = 0;
    for (int cycle = 0; cycle < count; cycle++) {
      Settings settings = Settings.of(cycle);
      clients
          .get(cycle % 3)
          .ok(
              NamespaceServiceGrpcClient.Create,
              NamespaceServiceCreateRequest.newBuilder()
                  .setName(namespace)
                  .setPseudonymGenerationMethod(settings.method())
                  .setPseudonymLength(settings.length())
                  .build());
      for (GrpcTestClient client : clients) {
        String value = create(client, namespace, "warm").body().getPseudonym().getPseudonymValue();
        assertThat(value).as("cycle %d", cycle).matches(settings.pattern());
        assertThat(create(client, namespace, "warm").body().getPseudonym().getPseudonymValue())
            .isEqualTo(value);
        client.ok(
            NamespaceServiceGrpcClient.Get,
            NamespaceServiceGetRequest.newBuilder().setName(namespace).build());
      }

      clients
          .get((cycle + 1) % 3)
          .ok(
              NamespaceServiceGrpcClient.Delete,
              NamespaceServiceDeleteRequest.newBuilder().setName(namespace).build());

      for (GrpcTestClient client : clients) {
        List<GrpcStatus> answers =
            List.of(
                create(client, namespace, "warm").status(),
                client
                    .call(
                        NamespaceServiceGrpcClient.Get,
                        NamespaceServiceGetRequest.newBuilder().setName(namespace).build())
                    .status(),
                client
                    .call(
                        PseudonymServiceGrpcClient.List,
                        PseudonymServiceListRequest.newBuilder().setNamespace(namespace).build())
                    .status());
        staleReads +=
            (int) answers.stream().filter(status -> status != GrpcStatus.NOT_FOUND).count();
      }
    }
    return staleReads;
  }

  private static Reply<org.vfps.api.v1.PseudonymServiceCreateResponse> create(
      GrpcTestClient client, String namespace, String original) {
    return client.call(
        PseudonymServiceGrpcClient.Create,
        PseudonymServiceCreateRequest.newBuilder()
            .setNamespace(namespace)
            .setOriginalValue(original)
            .build());
  }
}
