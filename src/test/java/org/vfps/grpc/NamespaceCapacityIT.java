package org.vfps.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import io.vertx.grpc.common.GrpcStatus;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.ClassResources;
import org.vfps.GrpcTestClient;
import org.vfps.GrpcTestClient.Reply;
import org.vfps.HttpTestClient;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.api.v1.Namespace;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceGetAllRequest;
import org.vfps.api.v1.NamespaceServiceGetRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.PseudonymGenerationMethod;
import org.vfps.api.v1.PseudonymServiceBatchCreateRequest;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceCreateResponse;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.api.x.formats.v1.CheckDigit;
import org.vfps.api.x.formats.v1.NamespaceCapacity;
import org.vfps.api.x.formats.v1.PseudonymFormat;
import org.vfps.server.VfpsServer;

/**
 * A namespace's capacity through generated stubs and REST: Get says how many pseudonyms its
 * settings make and how many it holds, alphabet settings that make too few are refused with the
 * figure, and a small alphabet namespace is refused as full once it holds 90 % of its pseudonyms,
 * by every replica alike (each with its caches on).
 */
class NamespaceCapacityIT {

  private static final String DIGITS = "0123456789";

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static VfpsServer server;
  private static GrpcTestClient client;
  private static HttpTestClient http;

  /** A replica of its own on the shared test database, with both caches on. */
  private static VfpsServer cachingReplica() {
    return TestService.start(
        Map.of(
            "ConnectionStrings__PostgreSQL", TestPostgres.uri(),
            "Pseudonymization__Caching__Namespaces__IsEnabled", "true",
            "Pseudonymization__Caching__Pseudonyms__IsEnabled", "true"));
  }

  @BeforeAll
  static void start() {
    server = resources.own(cachingReplica());
    client = resources.own(new GrpcTestClient(server.grpcPort()));
    http = resources.own(new HttpTestClient(server.httpPort()));
  }

  private static NamespaceServiceCreateRequest.Builder alphabet(int length, CheckDigit checkDigit) {
    return NamespaceServiceCreateRequest.newBuilder()
        .setName("capacity-" + UUID.randomUUID())
        .setPseudonymGenerationMethod(
            PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_X_SECURE_RANDOM_ALPHABET)
        .setPseudonymLength(length)
        .setXFormat(PseudonymFormat.newBuilder().setAlphabet(DIGITS).setCheckDigit(checkDigit));
  }

  private static NamespaceServiceCreateRequest.Builder upstream(
      PseudonymGenerationMethod method, int length) {
    return NamespaceServiceCreateRequest.newBuilder()
        .setName("capacity-" + UUID.randomUUID())
        .setPseudonymGenerationMethod(method)
        .setPseudonymLength(length);
  }

  private static NamespaceCapacity capacity(String namespace) {
    return capacity(client, namespace);
  }

  private static NamespaceCapacity capacity(GrpcTestClient client, String namespace) {
    Namespace found =
        client
            .ok(
                NamespaceServiceGrpcClient.Get,
                NamespaceServiceGetRequest.newBuilder().setName(namespace).build())
            .getNamespace();
    assertThat(found.hasXCapacity()).isTrue();
    return found.getXCapacity();
  }

  private static Reply<PseudonymServiceCreateResponse> create(String namespace, String value) {
    return create(client, namespace, value);
  }

  private static Reply<PseudonymServiceCreateResponse> create(
      GrpcTestClient client, String namespace, String value) {
    return client.call(
        PseudonymServiceGrpcClient.Create,
        PseudonymServiceCreateRequest.newBuilder()
            .setNamespace(namespace)
            .setOriginalValue(value)
            .build());
  }

  private static void batchCreate(String namespace, int from, int to) {
    client.ok(
        PseudonymServiceGrpcClient.BatchCreate,
        PseudonymServiceBatchCreateRequest.newBuilder()
            .setNamespace(namespace)
            .addAllOriginalValues(IntStream.range(from, to).mapToObj(i -> "value-" + i).toList())
            .build());
  }

  @Test
  void getSaysWhatTheSettingsMakeAndWhatTheNamespaceHolds() {
    NamespaceServiceCreateRequest base32 =
        upstream(
                PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_FULL_RANDOM_BASE32_ENCODED, 6)
            .build();
    client.ok(NamespaceServiceGrpcClient.Create, base32);
    NamespaceServiceCreateRequest digits =
        alphabet(6, CheckDigit.CHECK_DIGIT_DAMM)
            .setXFormat(
                PseudonymFormat.newBuilder()
                    .setAlphabet(DIGITS)
                    .setCheckDigit(CheckDigit.CHECK_DIGIT_DAMM)
                    .setGroupSize(3)
                    .setGroupDelimiter("-"))
            .setPseudonymPrefix("p-")
            .build();
    client.ok(NamespaceServiceGrpcClient.Create, digits);

    assertThat(capacity(base32.getName()))
        .isEqualTo(NamespaceCapacity.newBuilder().setDistinctPseudonyms(Math.pow(32, 6)).build());
    // the check digit, the groups and the prefix add no pseudonyms
    assertThat(capacity(digits.getName()).getDistinctPseudonyms()).isEqualTo(1e6);

    for (String value : List.of("a", "b", "c", "a")) {
      assertThat(create(base32.getName(), value).status()).isEqualTo(GrpcStatus.OK);
    }
    assertThat(create(digits.getName(), "a").status()).isEqualTo(GrpcStatus.OK);
    assertThat(capacity(base32.getName()).getUsedPseudonyms()).isEqualTo(3);
    assertThat(capacity(digits.getName()).getUsedPseudonyms()).isEqualTo(1);

    JsonObject rest =
        http.get("/v1/namespaces/" + digits.getName())
            .json()
            .getJsonObject("namespace")
            .getJsonObject("xCapacity");
    assertThat(rest.getDouble("distinctPseudonyms")).isEqualTo(1e6);
    // a 64-bit integer is a JSON number here, as the .NET service writes them
    assertThat(rest.getValue("usedPseudonyms")).isEqualTo(1);
  }

  @Test
  void aMethodThatDerivesThePseudonymSaysOneAndAHugeSpaceSaysInfinity() {
    NamespaceServiceCreateRequest uuid =
        upstream(PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_UUID4, 36).build();
    NamespaceServiceCreateRequest huge =
        upstream(
                PseudonymGenerationMethod
                    .PSEUDONYM_GENERATION_METHOD_SECURE_RANDOM_BASE64URL_ENCODED,
                200)
            .build();
    client.ok(NamespaceServiceGrpcClient.Create, uuid);
    client.ok(NamespaceServiceGrpcClient.Create, huge);

    assertThat(capacity(uuid.getName()).getDistinctPseudonyms()).isEqualTo(Math.pow(2, 122));
    assertThat(capacity(huge.getName()).getDistinctPseudonyms())
        .isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(
            http.get("/v1/namespaces/" + huge.getName())
                .json()
                .getJsonObject("namespace")
                .getJsonObject("xCapacity")
                .getValue("distinctPseudonyms"))
        .isEqualTo("Infinity");
  }

  @Test
  void getAllDoesNotCountPseudonyms() {
    NamespaceServiceCreateRequest digits = alphabet(5, CheckDigit.CHECK_DIGIT_UNSPECIFIED).build();
    client.ok(NamespaceServiceGrpcClient.Create, digits);

    assertThat(
            client
                .ok(
                    NamespaceServiceGrpcClient.GetAll,
                    NamespaceServiceGetAllRequest.getDefaultInstance())
                .getNamespacesList())
        .filteredOn(namespace -> namespace.getName().equals(digits.getName()))
        .singleElement()
        .satisfies(namespace -> assertThat(namespace.hasXCapacity()).isFalse());
  }

  @Test
  void alphabetSettingsThatMakeTooFewPseudonymsAreRefusedWithTheFigure() {
    Reply<?> refused =
        client.call(
            NamespaceServiceGrpcClient.Create,
            alphabet(3, CheckDigit.CHECK_DIGIT_LUHN_MOD_N).build());

    assertThat(refused.status()).isEqualTo(GrpcStatus.OUT_OF_RANGE);
    assertThat(refused.message())
        .startsWith("These settings make only 1,000 distinct pseudonyms (10 characters, 3 drawn);")
        .contains("at least 10,000 are needed");
    assertThat(
            client
                .call(
                    NamespaceServiceGrpcClient.Create,
                    alphabet(4, CheckDigit.CHECK_DIGIT_LUHN_MOD_N).build())
                .status())
        .isEqualTo(GrpcStatus.OK);
    // the .NET service's own methods keep its rules: any length above 0
    assertThat(
            client
                .call(
                    NamespaceServiceGrpcClient.Create,
                    upstream(
                            PseudonymGenerationMethod
                                .PSEUDONYM_GENERATION_METHOD_FULL_RANDOM_HEX_ENCODED,
                            1)
                        .build())
                .status())
        .isEqualTo(GrpcStatus.OK);
  }

  @Test
  void aSmallAlphabetNamespaceIsRefusedAsFullOnceItHoldsNinetyPercentOnEveryReplica() {
    // 10,000 pseudonyms
    NamespaceServiceCreateRequest digits = alphabet(4, CheckDigit.CHECK_DIGIT_VERHOEFF).build();
    String namespace = digits.getName();
    client.ok(NamespaceServiceGrpcClient.Create, digits);
    try (VfpsServer otherReplica = cachingReplica();
        GrpcTestClient other = new GrpcTestClient(otherReplica.grpcPort())) {
      // the other replica caches the namespace while it is empty
      assertThat(capacity(other, namespace).getUsedPseudonyms()).isZero();
      for (int from = 0; from < 8_500; from += 500) {
        batchCreate(namespace, from, from + 500);
      }
      assertThat(capacity(namespace).getUsedPseudonyms()).isEqualTo(8_500);

      int next = 8_500;
      Reply<PseudonymServiceCreateResponse> reply = create(namespace, "value-" + next);
      while (reply.status() == GrpcStatus.OK) {
        reply = create(namespace, "value-" + ++next);
      }

      long used = TestPostgres.pseudonymCount(namespace);
      assertThat(used).isBetween(9_000L, 10_000L);
      assertThat(capacity(namespace).getUsedPseudonyms()).isEqualTo(used);
      assertThat(reply.status()).isEqualTo(GrpcStatus.RESOURCE_EXHAUSTED);
      assertThat(reply.message())
          .isEqualTo(
              "The namespace '"
                  + namespace
                  + "' is full: it holds "
                  + String.format(Locale.ROOT, "%,d", used)
                  + " of the 10,000 pseudonyms its settings make, and new values are refused"
                  + " from 90 % on. Create a namespace with a longer pseudonym length for further"
                  + " values.");
      assertThat(reply.trailers().get("namespace")).isEqualTo(namespace);
      // a value that has its pseudonym keeps getting it
      assertThat(create(namespace, "value-0").status()).isEqualTo(GrpcStatus.OK);

      // the other replica counts in the same database, whatever its caches hold
      assertThat(capacity(other, namespace).getUsedPseudonyms()).isEqualTo(used);
      Reply<PseudonymServiceCreateResponse> elsewhere = create(other, namespace, "other-0");
      for (int i = 1; elsewhere.status() == GrpcStatus.OK; i++) {
        elsewhere = create(other, namespace, "other-" + i);
      }
      assertThat(elsewhere.status()).isEqualTo(GrpcStatus.RESOURCE_EXHAUSTED);
      assertThat(elsewhere.message())
          .contains(
              "it holds "
                  + String.format(Locale.ROOT, "%,d", TestPostgres.pseudonymCount(namespace))
                  + " of the 10,000");
    }
  }
}
