package org.vfps.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.grpc.common.GrpcStatus;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.ClassResources;
import org.vfps.GrpcTestClient;
import org.vfps.GrpcTestClient.Reply;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.Pseudonym;
import org.vfps.api.v1.PseudonymGenerationMethod;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceCreateResponse;
import org.vfps.api.v1.PseudonymServiceGetRequest;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.api.v1.PseudonymServiceListRequest;
import org.vfps.api.v1.PseudonymServiceListResponse;
import org.vfps.namespace.TextLimits;
import org.vfps.server.VfpsServer;

class PseudonymServiceIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static VfpsServer server;
  private static GrpcTestClient client;

  @BeforeAll
  static void start() {
    server = resources.own(TestService.start());
    client = resources.own(new GrpcTestClient(server.grpcPort()));
  }

  private static String namespace(PseudonymGenerationMethod method, int length) {
    return namespace(method, length, "", "");
  }

  private static String namespace(
      PseudonymGenerationMethod method, int length, String prefix, String suffix) {
    String name = "pseudonyms-" + UUID.randomUUID();
    client.ok(
        NamespaceServiceGrpcClient.Create,
        NamespaceServiceCreateRequest.newBuilder()
            .setName(name)
            .setPseudonymGenerationMethod(method)
            .setPseudonymLength(length)
            .setPseudonymPrefix(prefix)
            .setPseudonymSuffix(suffix)
            .build());
    return name;
  }

  private static String randomNamespace() {
    return namespace(
        PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_SECURE_RANDOM_BASE64URL_ENCODED, 16);
  }

  private static PseudonymServiceCreateRequest create(String namespace, String original) {
    return PseudonymServiceCreateRequest.newBuilder()
        .setNamespace(namespace)
        .setOriginalValue(original)
        .build();
  }

  private static Pseudonym createOk(String namespace, String original) {
    return client.ok(PseudonymServiceGrpcClient.Create, create(namespace, original)).getPseudonym();
  }

  @Test
  void createReturnsTheSameStoredPseudonymEveryTime() {
    String namespace = randomNamespace();

    Pseudonym first = createOk(namespace, "patient-1");
    Pseudonym second = createOk(namespace, "patient-1");
    Pseudonym third = createOk(namespace, "patient-1");

    assertThat(first.getNamespace()).isEqualTo(namespace);
    assertThat(first.getOriginalValue()).isEqualTo("patient-1");
    assertThat(first.getPseudonymValue()).isNotEqualTo("patient-1").hasSize(32);
    assertThat(second).isEqualTo(first);
    assertThat(third).isEqualTo(first);
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(1);
  }

  @Test
  void differentOriginalsGetDifferentPseudonyms() {
    String namespace = randomNamespace();
    assertThat(createOk(namespace, "a").getPseudonymValue())
        .isNotEqualTo(createOk(namespace, "b").getPseudonymValue());
  }

  @Test
  void everyMethodWrapsItsCoreInPrefixAndSuffix() {
    record Case(PseudonymGenerationMethod method, int length, String core) {}
    List<Case> cases =
        List.of(
            new Case(
                PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_UNSPECIFIED,
                32,
                "[A-Za-z0-9_-]{54}"),
            new Case(
                PseudonymGenerationMethod
                    .PSEUDONYM_GENERATION_METHOD_SECURE_RANDOM_BASE64URL_ENCODED,
                8,
                "[A-Za-z0-9_-]{22}"),
            new Case(
                PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_SHA256_HEX_ENCODED,
                64,
                "9F86D081884C7D659A2FEAA0C55AD015A3BF4F1B2B0B822CD15D6C15B0F00A08"),
            new Case(
                PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_UUID4,
                36,
                "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"),
            new Case(
                PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_UUID7,
                36,
                "[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"),
            new Case(
                PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_FULL_RANDOM_HEX_ENCODED,
                17,
                "[0-9a-f]{17}"),
            new Case(
                PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_FULL_RANDOM_BASE62_ENCODED,
                20,
                "[0-9A-Za-z]{20}"));
    for (Case c : cases) {
      String namespace = namespace(c.method(), c.length(), "pre-", "-suf");
      assertThat(createOk(namespace, "test").getPseudonymValue())
          .as(c.method().name())
          .matches("pre-" + c.core() + "-suf");
    }
  }

  @Test
  void createInUnknownNamespaceIsNotFoundWithTrailer() {
    String namespace = "missing-" + UUID.randomUUID();
    Reply<?> reply = client.call(PseudonymServiceGrpcClient.Create, create(namespace, "x"));

    assertThat(reply.status()).isEqualTo(GrpcStatus.NOT_FOUND);
    assertThat(reply.trailers().get("namespace")).isEqualTo(namespace);
  }

  @Test
  void blankOriginalValuesAreInvalidArgument() {
    String namespace = randomNamespace();
    for (String blank : new String[] {"", "   ", "\t\n"}) {
      Reply<?> reply = client.call(PseudonymServiceGrpcClient.Create, create(namespace, blank));
      assertThat(reply.status()).isEqualTo(GrpcStatus.INVALID_ARGUMENT);
      assertThat(reply.message()).isEqualTo("The original value must not be blank.");
    }
    assertThat(TestPostgres.pseudonymCount(namespace)).isZero();
  }

  @Test
  void originalValuesAreLimitedTo2048Utf8Bytes() {
    String namespace = randomNamespace();
    String atLimit = "€".repeat(682) + "ab"; // 682 * 3 + 2 = 2048 bytes
    String overLimit = atLimit + "c";

    assertThat(createOk(namespace, atLimit).getOriginalValue()).isEqualTo(atLimit);
    Reply<?> reply = client.call(PseudonymServiceGrpcClient.Create, create(namespace, overLimit));
    assertThat(reply.status()).isEqualTo(GrpcStatus.INVALID_ARGUMENT);
    assertThat(reply.message()).contains("2048").doesNotContain("€");
    Reply<?> nul = client.call(PseudonymServiceGrpcClient.Create, create(namespace, "a\0b"));
    assertThat(nul.status()).isEqualTo(GrpcStatus.INVALID_ARGUMENT);
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(1);
  }

  @Test
  void unicodeOriginalsRoundTripThroughReverseLookup() {
    String namespace = randomNamespace();
    String original = "Müller, Zoë 👷‍♂️ 患者 \u00a0";
    Pseudonym created = createOk(namespace, original);

    Pseudonym found =
        client
            .ok(
                PseudonymServiceGrpcClient.Get,
                PseudonymServiceGetRequest.newBuilder()
                    .setNamespace(namespace)
                    .setPseudonymValue(created.getPseudonymValue())
                    .build())
            .getPseudonym();

    assertThat(found.getOriginalValue()).isEqualTo(original);
    assertThat(found.getPseudonymValue()).isEqualTo(created.getPseudonymValue());
    assertThat(found.getMeta()).isEqualTo(created.getMeta());
  }

  @Test
  void getOfUnknownPseudonymIsNotFoundWithTrailers() {
    String namespace = randomNamespace();
    Reply<?> reply =
        client.call(
            PseudonymServiceGrpcClient.Get,
            PseudonymServiceGetRequest.newBuilder()
                .setNamespace(namespace)
                .setPseudonymValue("nope")
                .build());

    assertThat(reply.status()).isEqualTo(GrpcStatus.NOT_FOUND);
    assertThat(reply.message())
        .isEqualTo("The requested pseudonym does not exist in the namespace.");
    assertThat(reply.trailers().get("namespace")).isEqualTo(namespace);
    assertThat(reply.trailers().get("pseudonym")).isEqualTo("nope");
  }

  @Test
  void fiftyConcurrentCreatesOfOneValueStoreOneRowAndAgree() {
    String namespace = randomNamespace();
    List<Future<Reply<PseudonymServiceCreateResponse>>> calls = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      calls.add(client.callAsync(PseudonymServiceGrpcClient.Create, create(namespace, "same")));
    }
    Future.all(calls).await();

    Set<String> values = new HashSet<>();
    for (Future<Reply<PseudonymServiceCreateResponse>> call : calls) {
      assertThat(call.result().status()).isEqualTo(GrpcStatus.OK);
      values.add(call.result().body().getPseudonym().getPseudonymValue());
    }
    assertThat(values).hasSize(1);
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(1);
  }

  @Test
  void listPagesThroughEveryPseudonymOnceWithoutOriginals() {
    String namespace = randomNamespace();
    Set<String> created = createMany(namespace, 250);

    List<Pseudonym> seen = new ArrayList<>();
    String token = "";
    int pages = 0;
    do {
      PseudonymServiceListResponse page =
          client.ok(
              PseudonymServiceGrpcClient.List,
              PseudonymServiceListRequest.newBuilder()
                  .setNamespace(namespace)
                  .setPageSize(7)
                  .setPageToken(token)
                  .setIncludeTotalSize(true)
                  .build());
      assertThat(page.getNamespace()).isEqualTo(namespace);
      assertThat(page.getTotalSize()).isEqualTo(250);
      assertThat(page.getPseudonymsCount()).isLessThanOrEqualTo(7);
      seen.addAll(page.getPseudonymsList());
      token = page.getNextPageToken();
      pages++;
    } while (!token.isEmpty());

    assertThat(pages).isEqualTo(36); // 35 full pages and one of 5, no empty page at the end
    assertThat(seen).noneMatch(Pseudonym::hasOriginalValue);
    assertThat(seen).extracting(Pseudonym::getPseudonymValue).doesNotHaveDuplicates();
    assertThat(seen)
        .extracting(Pseudonym::getPseudonymValue)
        .containsExactlyInAnyOrderElementsOf(created);
    assertThat(seen)
        .extracting(
            p ->
                p.getMeta().getCreatedAt().getSeconds() * 1_000_000_000L
                    + p.getMeta().getCreatedAt().getNanos())
        .isSortedAccordingTo((a, b) -> Long.compare(b, a));
  }

  @Test
  void listWithoutPageSizeServes25AndCapsAt1000() {
    String namespace = randomNamespace();
    createMany(namespace, 1001);

    assertThat(list(namespace, 0, "").getPseudonymsCount()).isEqualTo(25);
    assertThat(list(namespace, -3, "").getPseudonymsCount()).isEqualTo(25);
    PseudonymServiceListResponse capped = list(namespace, 5000, "");
    assertThat(capped.getPseudonymsCount()).isEqualTo(1000);
    assertThat(capped.getNextPageToken()).isNotEmpty();
    assertThat(capped.hasTotalSize()).isFalse();
    assertThat(list(namespace, 5000, capped.getNextPageToken()).getPseudonymsCount()).isEqualTo(1);
  }

  @Test
  void pageTokensRevealNoOriginalValueAndRejectTampering() {
    String namespace = randomNamespace();
    String secret = "very-secret-original-" + UUID.randomUUID();
    createOk(namespace, secret);
    createOk(namespace, secret + "-2");
    String token = list(namespace, 1, "").getNextPageToken();
    assertThat(token).isNotEmpty();

    String decoded = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.ISO_8859_1);
    assertThat(decoded).doesNotContain("very-secret").doesNotContain(secret);

    char last = token.charAt(token.length() / 2);
    String tampered =
        token.substring(0, token.length() / 2)
            + (last == 'A' ? 'B' : 'A')
            + token.substring(token.length() / 2 + 1);
    for (String bad : new String[] {tampered, "not a token!", token.substring(0, 10), "AAAA"}) {
      Reply<?> reply = client.call(PseudonymServiceGrpcClient.List, listRequest(namespace, 1, bad));
      assertThat(reply.status()).as(bad).isEqualTo(GrpcStatus.INVALID_ARGUMENT);
    }
    String other = randomNamespace();
    assertThat(client.call(PseudonymServiceGrpcClient.List, listRequest(other, 1, token)).status())
        .isEqualTo(GrpcStatus.INVALID_ARGUMENT);
    assertThat(list(namespace, 1, token).getPseudonymsCount()).isEqualTo(1);
  }

  /**
   * SHA-256 hashes the value's UTF-8 bytes as they are, as the .NET vfps does: the composed and the
   * decomposed "José" are two values with two pseudonyms (VOPRF normalizes, see VoprfPseudonymsIT).
   */
  @Test
  void sha256HashesTheBytesAsTheyAreSoTwoSpellingsAreTwoValues() throws Exception {
    String namespace =
        namespace(PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_SHA256_HEX_ENCODED, 64);
    List<String> spellings = List.of("Jos\u00e9", "Jose\u0301");

    for (String spelling : spellings) {
      byte[] hash =
          java.security.MessageDigest.getInstance("SHA-256")
              .digest(spelling.getBytes(StandardCharsets.UTF_8));
      assertThat(createOk(namespace, spelling).getPseudonymValue())
          .isEqualTo(java.util.HexFormat.of().withUpperCase().formatHex(hash));
    }
    List<Pseudonym> batch =
        client
            .ok(
                PseudonymServiceGrpcClient.BatchCreate,
                org.vfps.api.v1.PseudonymServiceBatchCreateRequest.newBuilder()
                    .setNamespace(namespace)
                    .addAllOriginalValues(spellings)
                    .build())
            .getPseudonymsList();
    assertThat(batch).extracting(Pseudonym::getPseudonymValue).doesNotHaveDuplicates();
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(2);
  }

  @Test
  void pageTokensHaveOneLengthWhateverTheLengthsOfTheValues() {
    String namespace = randomNamespace();
    int max = TextLimits.MAX_ORIGINAL_VALUE_BYTES;
    Set<String> created = new HashSet<>();
    for (String original :
        List.of("a", "bc", "patient-4711", "d".repeat(300), "e".repeat(max), "é".repeat(max / 2))) {
      created.add(createOk(namespace, original).getPseudonymValue());
    }

    Set<Integer> lengths = new HashSet<>();
    List<String> seen = new ArrayList<>();
    String token = "";
    do {
      PseudonymServiceListResponse page = list(namespace, 1, token);
      page.getPseudonymsList().forEach(p -> seen.add(p.getPseudonymValue()));
      token = page.getNextPageToken();
      if (!token.isEmpty()) {
        lengths.add(token.length());
      }
    } while (!token.isEmpty() && seen.size() <= created.size());

    assertThat(seen).containsExactlyInAnyOrderElementsOf(created);
    assertThat(lengths).as("page token lengths").hasSize(1);
  }

  @Test
  void pageTokensStayValidAcrossRestarts() {
    String namespace = randomNamespace();
    createMany(namespace, 3);
    String token = list(namespace, 2, "").getNextPageToken();

    try (VfpsServer other = TestService.start();
        GrpcTestClient otherClient = new GrpcTestClient(other.grpcPort())) {
      PseudonymServiceListResponse rest =
          otherClient.ok(PseudonymServiceGrpcClient.List, listRequest(namespace, 2, token));
      assertThat(rest.getPseudonymsCount()).isEqualTo(1);
      assertThat(rest.getNextPageToken()).isEmpty();
    }
  }

  @Test
  void listOfUnknownNamespaceIsNotFound() {
    Reply<?> reply =
        client.call(
            PseudonymServiceGrpcClient.List, listRequest("missing-" + UUID.randomUUID(), 5, ""));
    assertThat(reply.status()).isEqualTo(GrpcStatus.NOT_FOUND);
  }

  private static PseudonymServiceListRequest listRequest(String namespace, int size, String token) {
    return PseudonymServiceListRequest.newBuilder()
        .setNamespace(namespace)
        .setPageSize(size)
        .setPageToken(token)
        .build();
  }

  private static PseudonymServiceListResponse list(String namespace, int size, String token) {
    return client.ok(PseudonymServiceGrpcClient.List, listRequest(namespace, size, token));
  }

  private static Set<String> createMany(String namespace, int count) {
    List<Future<Reply<PseudonymServiceCreateResponse>>> calls =
        IntStream.range(0, count)
            .mapToObj(
                i ->
                    client.callAsync(
                        PseudonymServiceGrpcClient.Create, create(namespace, "original-" + i)))
            .toList();
    Future.all(calls).await();
    Set<String> values = new HashSet<>();
    calls.forEach(call -> values.add(call.result().body().getPseudonym().getPseudonymValue()));
    assertThat(values).hasSize(count);
    return values;
  }
}
