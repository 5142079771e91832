package org.vfps.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.grpc.common.GrpcStatus;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.ClassResources;
import org.vfps.GrpcTestClient;
import org.vfps.GrpcTestClient.Reply;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.api.v1.Namespace;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceCreateResponse;
import org.vfps.api.v1.NamespaceServiceDeleteRequest;
import org.vfps.api.v1.NamespaceServiceGetAllRequest;
import org.vfps.api.v1.NamespaceServiceGetRequest;
import org.vfps.api.v1.NamespaceServiceGetResponse;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.PseudonymGenerationMethod;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.server.VfpsServer;

class NamespaceServiceIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static VfpsServer server;
  private static GrpcTestClient client;

  @BeforeAll
  static void start() {
    server = resources.own(TestService.start());
    client = resources.own(new GrpcTestClient(server.grpcPort()));
  }

  static String uniqueName() {
    return "ns-" + UUID.randomUUID();
  }

  static NamespaceServiceCreateRequest.Builder request(String name) {
    return NamespaceServiceCreateRequest.newBuilder()
        .setName(name)
        .setPseudonymGenerationMethod(
            PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_SECURE_RANDOM_BASE64URL_ENCODED)
        .setPseudonymLength(16);
  }

  @Test
  void createReturnsTheNamespaceWithPrefixAndSuffixAlwaysSet() {
    String name = uniqueName();
    NamespaceServiceCreateResponse created =
        client.ok(
            NamespaceServiceGrpcClient.Create, request(name).setDescription("for tests").build());

    Namespace namespace = created.getNamespace();
    assertThat(namespace.getName()).isEqualTo(name);
    assertThat(namespace.getDescription()).isEqualTo("for tests");
    assertThat(namespace.getPseudonymLength()).isEqualTo(16);
    assertThat(namespace.hasPseudonymPrefix()).isTrue();
    assertThat(namespace.getPseudonymPrefix()).isEmpty();
    assertThat(namespace.hasPseudonymSuffix()).isTrue();
    assertThat(namespace.getMeta().getCreatedAt())
        .isEqualTo(namespace.getMeta().getLastUpdatedAt());
    assertThat(namespace.getMeta().getCreatedAt().getSeconds())
        .isBetween(System.currentTimeMillis() / 1000 - 60, System.currentTimeMillis() / 1000 + 60);

    NamespaceServiceGetResponse read =
        client.ok(
            NamespaceServiceGrpcClient.Get,
            NamespaceServiceGetRequest.newBuilder().setName(name).build());
    assertThat(read.getNamespace()).isEqualTo(namespace);
  }

  @Test
  void createStoresPrefixSuffixAndMethod() {
    String name = uniqueName();
    client.ok(
        NamespaceServiceGrpcClient.Create,
        request(name)
            .setPseudonymGenerationMethod(
                PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_UUID4)
            .setPseudonymLength(36)
            .setPseudonymPrefix("pre-")
            .setPseudonymSuffix("-suf")
            .build());

    Namespace read =
        client
            .ok(
                NamespaceServiceGrpcClient.Get,
                NamespaceServiceGetRequest.newBuilder().setName(name).build())
            .getNamespace();
    assertThat(read.getPseudonymGenerationMethod())
        .isEqualTo(PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_UUID4);
    assertThat(read.getPseudonymPrefix()).isEqualTo("pre-");
    assertThat(read.getPseudonymSuffix()).isEqualTo("-suf");
  }

  @Test
  void duplicateNameIsAlreadyExistsWithNamespaceTrailer() {
    String name = uniqueName();
    client.ok(NamespaceServiceGrpcClient.Create, request(name).build());

    Reply<?> reply = client.call(NamespaceServiceGrpcClient.Create, request(name).build());

    assertThat(reply.status()).isEqualTo(GrpcStatus.ALREADY_EXISTS);
    assertThat(reply.message()).contains(name).contains("immutable");
    assertThat(reply.trailers().get("namespace")).isEqualTo(name);
  }

  @Test
  void lengthZeroIsOutOfRange() {
    Reply<?> reply =
        client.call(
            NamespaceServiceGrpcClient.Create, request(uniqueName()).setPseudonymLength(0).build());

    assertThat(reply.status()).isEqualTo(GrpcStatus.OUT_OF_RANGE);
    assertThat(reply.message()).isEqualTo("Pseudonym length must be larger than 0.");
  }

  @Test
  void fixedLengthMethodsRejectOtherLengthsAsOutOfRange() {
    for (PseudonymGenerationMethod method :
        new PseudonymGenerationMethod[] {
          PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_UUID4,
          PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_UUID7,
          PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_SHA256_HEX_ENCODED
        }) {
      Reply<?> reply =
          client.call(
              NamespaceServiceGrpcClient.Create,
              request(uniqueName())
                  .setPseudonymGenerationMethod(method)
                  .setPseudonymLength(16)
                  .build());
      assertThat(reply.status()).as(method.name()).isEqualTo(GrpcStatus.OUT_OF_RANGE);
      assertThat(reply.message()).contains("exactly");
    }
  }

  @Test
  void lengthAboveTheLimitIsOutOfRange() {
    Reply<?> reply =
        client.call(
            NamespaceServiceGrpcClient.Create,
            request(uniqueName()).setPseudonymLength(1025).build());
    assertThat(reply.status()).isEqualTo(GrpcStatus.OUT_OF_RANGE);

    Reply<?> atLimit =
        client.call(
            NamespaceServiceGrpcClient.Create,
            request(uniqueName()).setPseudonymLength(1024).build());
    assertThat(atLimit.status()).isEqualTo(GrpcStatus.OK);
  }

  @Test
  void unknownMethodNumberIsInvalidArgument() {
    Reply<?> reply =
        client.call(
            NamespaceServiceGrpcClient.Create,
            request(uniqueName()).setPseudonymGenerationMethodValue(99).build());

    assertThat(reply.status()).isEqualTo(GrpcStatus.INVALID_ARGUMENT);
    assertThat(reply.message()).contains("99");
  }

  @Test
  void blankOrOversizedNamesAreInvalidArgument() {
    for (String name : new String[] {"", "   ", "x".repeat(257), "a\0b"}) {
      Reply<?> reply = client.call(NamespaceServiceGrpcClient.Create, request(name).build());
      assertThat(reply.status())
          .as("name of length %d", name.length())
          .isEqualTo(GrpcStatus.INVALID_ARGUMENT);
    }
    assertThat(
            client
                .call(NamespaceServiceGrpcClient.Create, request("y".repeat(256)).build())
                .status())
        .isIn(GrpcStatus.OK, GrpcStatus.ALREADY_EXISTS);
  }

  @Test
  void unicodeAndUrlNamesWork() {
    String name = "https://example.org/fhir/" + UUID.randomUUID() + "/Ärztin-👷";
    client.ok(NamespaceServiceGrpcClient.Create, request(name).build());

    assertThat(
            client
                .ok(
                    NamespaceServiceGrpcClient.Get,
                    NamespaceServiceGetRequest.newBuilder().setName(name).build())
                .getNamespace()
                .getName())
        .isEqualTo(name);
    Reply<?> duplicate = client.call(NamespaceServiceGrpcClient.Create, request(name).build());
    assertThat(duplicate.status()).isEqualTo(GrpcStatus.ALREADY_EXISTS);
    assertThat(duplicate.trailers().get("namespace")).contains("%F0%9F%91%B7");
  }

  @Test
  void getOfUnknownNamespaceIsNotFoundWithTrailer() {
    String name = uniqueName();
    Reply<?> reply =
        client.call(
            NamespaceServiceGrpcClient.Get,
            NamespaceServiceGetRequest.newBuilder().setName(name).build());

    assertThat(reply.status()).isEqualTo(GrpcStatus.NOT_FOUND);
    assertThat(reply.message()).isEqualTo("The requested pseudonym namespace does not exist.");
    assertThat(reply.trailers().get("namespace")).isEqualTo(name);
  }

  @Test
  void getAllListsCreatedNamespaces() {
    String first = uniqueName();
    String second = uniqueName();
    client.ok(NamespaceServiceGrpcClient.Create, request(first).build());
    client.ok(NamespaceServiceGrpcClient.Create, request(second).build());

    assertThat(
            client
                .ok(
                    NamespaceServiceGrpcClient.GetAll,
                    NamespaceServiceGetAllRequest.getDefaultInstance())
                .getNamespacesList())
        .extracting(Namespace::getName)
        .contains(first, second);
  }

  @Test
  void deleteRemovesTheNamespaceAndAllItsPseudonyms() {
    String name = uniqueName();
    client.ok(NamespaceServiceGrpcClient.Create, request(name).build());
    for (int i = 0; i < 100; i++) {
      client.ok(
          PseudonymServiceGrpcClient.Create,
          PseudonymServiceCreateRequest.newBuilder()
              .setNamespace(name)
              .setOriginalValue("value-" + i)
              .build());
    }
    assertThat(countPseudonyms(name)).isEqualTo(100);

    client.ok(
        NamespaceServiceGrpcClient.Delete,
        NamespaceServiceDeleteRequest.newBuilder().setName(name).build());

    assertThat(countPseudonyms(name)).isZero();
    assertThat(
            client
                .call(
                    NamespaceServiceGrpcClient.Get,
                    NamespaceServiceGetRequest.newBuilder().setName(name).build())
                .status())
        .isEqualTo(GrpcStatus.NOT_FOUND);
  }

  @Test
  void deleteOfUnknownNamespaceIsNotFoundWithTrailer() {
    String name = uniqueName();
    Reply<?> reply =
        client.call(
            NamespaceServiceGrpcClient.Delete,
            NamespaceServiceDeleteRequest.newBuilder().setName(name).build());

    assertThat(reply.status()).isEqualTo(GrpcStatus.NOT_FOUND);
    assertThat(reply.trailers().get("namespace")).isEqualTo(name);
  }

  private static long countPseudonyms(String namespace) {
    return TestPostgres.pseudonymCount(namespace);
  }
}
