package org.vfps.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.ClassResources;
import org.vfps.GrpcTestClient;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.PseudonymGenerationMethod;
import org.vfps.api.v1.PseudonymServiceBatchCreateRequest;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.server.VfpsServer;

/**
 * The pseudonym cache serves namespaces of one pseudonym per value, and no others, as the .NET vfps
 * 1.22 caches. A row removed behind the service's back tells which calls the cache answered: a
 * cached pair keeps its pseudonym, an uncached one is stored anew.
 */
class PseudonymCacheIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static VfpsServer server;
  private static GrpcTestClient client;

  @BeforeAll
  static void start() {
    server =
        resources.own(
            TestService.start(
                Map.of(
                    "ConnectionStrings__PostgreSQL",
                    TestPostgres.uri(),
                    "Pseudonymization__Caching__Pseudonyms__IsEnabled",
                    "true")));
    client = resources.own(new GrpcTestClient(server.grpcPort()));
  }

  private static String namespace(boolean allowsMultiplePseudonyms) {
    String name = "cache-" + UUID.randomUUID();
    client.ok(
        NamespaceServiceGrpcClient.Create,
        NamespaceServiceCreateRequest.newBuilder()
            .setName(name)
            .setPseudonymGenerationMethod(
                PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_FULL_RANDOM_HEX_ENCODED)
            .setPseudonymLength(16)
            .setAllowsMultiplePseudonyms(allowsMultiplePseudonyms)
            .build());
    return name;
  }

  private static String create(String namespace, String original) {
    return client
        .ok(
            PseudonymServiceGrpcClient.Create,
            PseudonymServiceCreateRequest.newBuilder()
                .setNamespace(namespace)
                .setOriginalValue(original)
                .build())
        .getPseudonym()
        .getPseudonymValue();
  }

  private static String batchCreate(String namespace, String original) {
    return client
        .ok(
            PseudonymServiceGrpcClient.BatchCreate,
            PseudonymServiceBatchCreateRequest.newBuilder()
                .setNamespace(namespace)
                .addOriginalValues(original)
                .build())
        .getPseudonyms(0)
        .getPseudonymValue();
  }

  private static void removeRowsBehindTheServicesBack(String namespace) {
    TestPostgres.execute(
        TestPostgres.database(),
        "DELETE FROM pseudonyms WHERE namespace_name = '" + namespace + "'");
  }

  @Test
  void aSinglePseudonymNamespaceIsAnsweredFromTheCache() {
    String namespace = namespace(false);
    String single = create(namespace, "patient-1");
    String batched = batchCreate(namespace, "patient-2");

    removeRowsBehindTheServicesBack(namespace);
    assertThat(TestPostgres.pseudonymCount(namespace)).isZero();

    assertThat(create(namespace, "patient-1")).isEqualTo(single);
    assertThat(batchCreate(namespace, "patient-2")).isEqualTo(batched);
    assertThat(TestPostgres.pseudonymCount(namespace)).isZero();
  }

  @Test
  void aMultiplePseudonymNamespaceAlwaysReachesTheDatabase() {
    String namespace = namespace(true);
    String single = create(namespace, "patient-1");
    String batched = batchCreate(namespace, "patient-2");
    assertThat(batchCreate(namespace, "patient-1")).isEqualTo(single);

    removeRowsBehindTheServicesBack(namespace);
    assertThat(TestPostgres.pseudonymCount(namespace)).isZero();

    assertThat(create(namespace, "patient-1")).isNotEqualTo(single);
    assertThat(batchCreate(namespace, "patient-2")).isNotEqualTo(batched);
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(2);
  }
}
