package org.vfps.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import io.vertx.core.Future;
import io.vertx.grpc.common.GrpcStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.GrpcTestClient;
import org.vfps.GrpcTestClient.Reply;
import org.vfps.LogCapture;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.api.v1.Pseudonym;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceGetRequest;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.api.v1.PseudonymServiceResolveRequest;
import org.vfps.api.v1.PseudonymServiceResolveResponse;
import org.vfps.api.x.withdrawal.v1.AnonymizeOriginalRequest;
import org.vfps.api.x.withdrawal.v1.BatchDeletePseudonymsRequest;
import org.vfps.api.x.withdrawal.v1.DeletePseudonymsRequest;
import org.vfps.api.x.withdrawal.v1.WithdrawalServiceGrpcClient;
import org.vfps.server.VfpsServer;

/**
 * Two clustered replicas with both caches on (entries kept for the default hour, so only the
 * withdrawal's event can explain a fresh answer): a withdrawal through one is true on the other the
 * moment it returns, also while the other creates the same value at the same time.
 */
class WithdrawalCoherenceIT {

  @RegisterExtension final LogCapture hazelcast = LogCapture.of("com.hazelcast");

  private final List<VfpsServer> replicas = new ArrayList<>();
  private final List<GrpcTestClient> clients = new ArrayList<>();
  private String namespace;

  @BeforeEach
  void start() {
    String clusterName = "vfps-withdraw-" + UUID.randomUUID();
    List<Integer> ports = List.of(TestService.freePort(), TestService.freePort());
    for (int port : ports) {
      Map<String, String> env = new HashMap<>();
      env.put("ConnectionStrings__PostgreSQL", TestPostgres.uri());
      env.put("Pseudonymization__Caching__Namespaces__IsEnabled", "true");
      env.put("Pseudonymization__Caching__Pseudonyms__IsEnabled", "true");
      env.put("Cluster__IsEnabled", "true");
      env.put("Cluster__Name", clusterName);
      env.put("Cluster__Host", "127.0.0.1");
      env.put("Cluster__Port", Integer.toString(port));
      env.put(
          "Cluster__Members",
          ports.stream().map(p -> "127.0.0.1:" + p).collect(Collectors.joining(",")));
      VfpsServer server = TestService.start(env);
      replicas.add(server);
      clients.add(new GrpcTestClient(server.grpcPort()));
    }
    namespace = clients.getFirst().createNamespace("withdraw-cluster-");
  }

  @AfterEach
  void stop() {
    clients.forEach(GrpcTestClient::close);
    replicas.forEach(VfpsServer::close);
    assertThat(hazelcast.atLeast(Level.ERROR)).isEmpty();
  }

  private static PseudonymServiceCreateRequest createRequest(String namespace, String value) {
    return PseudonymServiceCreateRequest.newBuilder()
        .setNamespace(namespace)
        .setOriginalValue(value)
        .build();
  }

  private String create(int replica, String value) {
    return clients
        .get(replica)
        .ok(PseudonymServiceGrpcClient.Create, createRequest(namespace, value))
        .getPseudonym()
        .getPseudonymValue();
  }

  /** What the database holds for the value, past every cache. */
  private List<String> stored(String value) {
    Reply<PseudonymServiceResolveResponse> reply =
        clients
            .getFirst()
            .call(
                PseudonymServiceGrpcClient.Resolve,
                PseudonymServiceResolveRequest.newBuilder()
                    .setNamespace(namespace)
                    .setOriginalValue(value)
                    .build());
    if (reply.status() == GrpcStatus.NOT_FOUND) {
      return List.of();
    }
    return reply.body().getPseudonymsList().stream().map(Pseudonym::getPseudonymValue).toList();
  }

  @Test
  void aWithdrawalThroughOneReplicaEmptiesTheOthersCacheBeforeItReturns() {
    String deleted = create(1, "deleted");
    String anonymized = create(1, "anonymized");
    List<String> batch = List.of("batch-a", "batch-b");
    batch.forEach(value -> create(1, value));
    // served from replica 1's cache from now on
    assertThat(create(1, "deleted")).isEqualTo(deleted);

    clients
        .getFirst()
        .ok(
            WithdrawalServiceGrpcClient.DeletePseudonyms,
            DeletePseudonymsRequest.newBuilder()
                .setNamespace(namespace)
                .setOriginalValue("deleted")
                .build());
    clients
        .getFirst()
        .ok(
            WithdrawalServiceGrpcClient.AnonymizeOriginal,
            AnonymizeOriginalRequest.newBuilder()
                .setNamespace(namespace)
                .setOriginalValue("anonymized")
                .build());
    clients
        .getFirst()
        .ok(
            WithdrawalServiceGrpcClient.BatchDeletePseudonyms,
            BatchDeletePseudonymsRequest.newBuilder()
                .setNamespace(namespace)
                .addAllOriginalValues(batch)
                .build());

    String renewed = create(1, "deleted");
    assertThat(renewed).isNotEqualTo(deleted);
    assertThat(stored("deleted")).containsExactly(renewed);
    String reanonymized = create(1, "anonymized");
    assertThat(reanonymized).isNotEqualTo(anonymized);
    assertThat(stored("anonymized")).containsExactly(reanonymized);
    for (String value : batch) {
      String created = create(1, value);
      assertThat(stored(value)).containsExactly(created);
    }
    Reply<?> lookup =
        clients
            .get(1)
            .call(
                PseudonymServiceGrpcClient.Get,
                PseudonymServiceGetRequest.newBuilder()
                    .setNamespace(namespace)
                    .setPseudonymValue(anonymized)
                    .build());
    assertThat(lookup.status()).isEqualTo(GrpcStatus.NOT_FOUND);
    assertThat(lookup.message()).contains("withdrawn");
  }

  @Test
  void withdrawalsThroughOneReplicaRacingCreatesThroughTheOtherNeverLeaveAStalePair() {
    int stale = 0;
    for (int round = 0; round < 30; round++) {
      String value = "racer-" + round;
      create(1, value);
      Future<? extends Reply<?>> withdrawal =
          round % 2 == 0
              ? clients
                  .getFirst()
                  .callAsync(
                      WithdrawalServiceGrpcClient.DeletePseudonyms,
                      DeletePseudonymsRequest.newBuilder()
                          .setNamespace(namespace)
                          .setOriginalValue(value)
                          .build())
              : clients
                  .getFirst()
                  .callAsync(
                      WithdrawalServiceGrpcClient.AnonymizeOriginal,
                      AnonymizeOriginalRequest.newBuilder()
                          .setNamespace(namespace)
                          .setOriginalValue(value)
                          .build());
      List<Future<?>> calls = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        calls.add(
            clients
                .get(i % 2)
                .callAsync(PseudonymServiceGrpcClient.Create, createRequest(namespace, value)));
      }
      calls.add(withdrawal);
      Future.join(calls).await();
      assertThat(withdrawal.result().status()).isEqualTo(GrpcStatus.OK);

      // whatever the order, both replicas now answer what the database holds
      String first = create(0, value);
      String second = create(1, value);
      if (!first.equals(second) || !stored(value).equals(List.of(first))) {
        stale++;
      }
    }
    assertThat(stale).isZero();
  }
}
