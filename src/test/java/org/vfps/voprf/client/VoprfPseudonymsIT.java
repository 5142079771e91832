package org.vfps.voprf.client;

import static org.assertj.core.api.Assertions.assertThat;

import ca.uhn.fhir.context.FhirContext;
import ca.uhn.fhir.rest.api.EncodingEnum;
import ca.uhn.fhir.rest.client.api.IGenericClient;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.grpc.common.GrpcStatus;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import org.hl7.fhir.r4.model.Parameters;
import org.hl7.fhir.r4.model.StringType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.ClassResources;
import org.vfps.GrpcTestClient;
import org.vfps.GrpcTestClient.Reply;
import org.vfps.HttpTestClient;
import org.vfps.LogCapture;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.PseudonymGenerationMethod;
import org.vfps.api.v1.PseudonymServiceBatchCreateRequest;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceCreateResponse;
import org.vfps.api.v1.PseudonymServiceGetRequest;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.api.v1.PseudonymServiceResolveRequest;
import org.vfps.api.v1.PseudonymServiceResolveResponse;
import org.vfps.api.x.withdrawal.v1.AnonymizeOriginalRequest;
import org.vfps.api.x.withdrawal.v1.WithdrawalServiceGrpcClient;
import org.vfps.server.VfpsServer;
import org.vfps.voprf.server.TestVoprfServer;

/**
 * VOPRF pseudonyms end to end: vfps against our own VOPRF server in the test JVM, through gRPC, on
 * the shared test database. The server's key is RFC 9497 A.1.2's, so a pseudonym can be checked
 * against the RFC's output for the same input.
 */
class VoprfPseudonymsIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();
  @RegisterExtension final LogCapture audit = LogCapture.of("audit");
  @RegisterExtension final LogCapture vfpsLog = LogCapture.of("org.vfps");

  private static final HexFormat HEX = HexFormat.of();
  // RFC 9497 A.1.2: the key derived from Seed = 0xa3 * 32 and KeyInfo = "test key"
  private static final String RFC_SECRET_KEY =
      "e6f73f344b79b379f1a0dd37e07ff62e38d9f71345ce62ae3a9bc60b04ccd909";
  private static final String RFC_PUBLIC_KEY =
      "c803e2cc6b05fc15064549b5920659ca4a77b2cca6f04f6b357009335476ad4e";
  // test vector 2: Input 0x5a * 17, which is the text "ZZZZZZZZZZZZZZZZZ"
  private static final String RFC_INPUT_2 = "Z".repeat(17);
  private static final String RFC_OUTPUT_2 =
      "8a9a2f3c7f085b65933594309041fc1898d42d0858e59f90814ae90571a6df60"
          + "356f4610bf816f27afdd84f47719e480906d27ecd994985890e5f539e7ea74b6";
  private static final int MAX_BATCH = 16;

  private static TestVoprfServer rfcServer;
  private static VfpsServer vfpsServer;
  private static TestVoprfServer otherKeyServer;
  private static GrpcTestClient vfps;
  private static VfpsServer lastStarted;
  private static GrpcTestClient vfpsHex;

  @BeforeAll
  static void start() {
    rfcServer =
        resources.own(
            TestVoprfServer.start(
                Map.of(
                    "VoprfServer__Key__Source", "Base64",
                    "VoprfServer__Key__Base64",
                        Base64.getEncoder().encodeToString(HEX.parseHex(RFC_SECRET_KEY)),
                    "VoprfServer__Key__KeyId", "rfc")));
    otherKeyServer = resources.own(TestVoprfServer.start());
    vfps = client(rfcServer.port(), Map.of("Voprf__MaxBatchSize", Integer.toString(MAX_BATCH)));
    vfpsServer = lastStarted;
    vfpsHex = client(rfcServer.port(), Map.of("Voprf__Format", "Hex", "Voprf__Length", "32"));
  }

  /** vfps on the shared database, pinned to the RFC key, calling the server on {@code port}. */
  private static GrpcTestClient client(int port, Map<String, String> settings) {
    Map<String, String> environment = new HashMap<>();
    environment.put("ConnectionStrings__PostgreSQL", TestPostgres.uri());
    environment.put("Voprf__Address", "http://127.0.0.1:" + port);
    environment.put("Voprf__PublicKey", RFC_PUBLIC_KEY);
    environment.put("Voprf__Timeout", "0.00:00:02");
    environment.putAll(settings);
    VfpsServer server = resources.own(TestService.start(environment));
    lastStarted = server;
    return resources.own(new GrpcTestClient(server.grpcPort()));
  }

  private static String namespace(GrpcTestClient client, int length, String prefix, String suffix) {
    String name = "voprf-" + UUID.randomUUID();
    client.ok(
        NamespaceServiceGrpcClient.Create,
        NamespaceServiceCreateRequest.newBuilder()
            .setName(name)
            .setPseudonymGenerationMethod(
                PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_VOPRF)
            .setPseudonymLength(length)
            .setPseudonymPrefix(prefix)
            .setPseudonymSuffix(suffix)
            .build());
    return name;
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

  private static String createOk(GrpcTestClient client, String namespace, String value) {
    Reply<PseudonymServiceCreateResponse> reply = create(client, namespace, value);
    assertThat(reply.status()).as(reply.message()).isEqualTo(GrpcStatus.OK);
    return reply.body().getPseudonym().getPseudonymValue();
  }

  /** The element counts of the server's successful BlindEvaluate calls, from its audit lines. */
  private List<Integer> evaluatedBatches() {
    List<Integer> counts = new ArrayList<>();
    for (ILoggingEvent event : audit.atLeast(Level.INFO)) {
      if (event.getFormattedMessage().equals("BlindEvaluate OK")) {
        event.getKeyValuePairs().stream()
            .filter(pair -> pair.key.equals("count"))
            .forEach(pair -> counts.add(((Number) pair.value).intValue()));
      }
    }
    return counts;
  }

  @Test
  void aPseudonymIsTheKeyIdAndTheEncodedOutputOfRfc9497() {
    String namespace = namespace(vfps, 86, "p-", "-s");

    String pseudonym = createOk(vfps, namespace, RFC_INPUT_2);

    String expected =
        "p-rfc."
            + Base64.getUrlEncoder().withoutPadding().encodeToString(HEX.parseHex(RFC_OUTPUT_2))
            + "-s";
    assertThat(pseudonym).isEqualTo(expected);
    assertThat(createOk(vfps, namespace, RFC_INPUT_2)).isEqualTo(expected);
    assertThat(
            vfps.ok(
                    PseudonymServiceGrpcClient.Get,
                    PseudonymServiceGetRequest.newBuilder()
                        .setNamespace(namespace)
                        .setPseudonymValue(expected)
                        .build())
                .getPseudonym()
                .getOriginalValue())
        .isEqualTo(RFC_INPUT_2);
  }

  @Test
  void hexOfTheFirstLengthBytesWhenConfigured() {
    String namespace = namespace(vfpsHex, 64, "", "");

    assertThat(createOk(vfpsHex, namespace, RFC_INPUT_2))
        .isEqualTo("rfc." + RFC_OUTPUT_2.substring(0, 64));
  }

  @Test
  void theSameValueInAnotherNamespaceOfTheSameKeyGetsTheSamePseudonymAndOthersDiffer() {
    String first = namespace(vfps, 86, "", "");
    String second = namespace(vfps, 86, "", "");

    String a = createOk(vfps, first, "patient-1");

    assertThat(createOk(vfps, second, "patient-1")).isEqualTo(a);
    assertThat(createOk(vfps, first, "patient-2")).isNotEqualTo(a);
    // NFC: a precomposed and a decomposed "é" are one value to VOPRF
    assertThat(createOk(vfps, first, "caf\u00e9")).isEqualTo(createOk(vfps, second, "cafe\u0301"));
  }

  @Test
  void aNamespaceTakesOnlyTheLengthTheSettingsFix() {
    Reply<?> reply =
        vfps.call(
            NamespaceServiceGrpcClient.Create,
            NamespaceServiceCreateRequest.newBuilder()
                .setName("voprf-" + UUID.randomUUID())
                .setPseudonymGenerationMethod(
                    PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_VOPRF)
                .setPseudonymLength(64)
                .build());

    assertThat(reply.status()).isEqualTo(GrpcStatus.OUT_OF_RANGE);
    assertThat(reply.message())
        .startsWith(
            "The 'Voprf' pseudonym generation method requires a pseudonym length of"
                + " exactly 86.");
  }

  @Test
  void concurrentCreatesShareTheServersCalls() {
    String namespace = namespace(vfps, 86, "", "");
    int values = 64;

    List<Future<Reply<PseudonymServiceCreateResponse>>> calls =
        IntStream.range(0, values)
            .mapToObj(
                i ->
                    vfps.callAsync(
                        PseudonymServiceGrpcClient.Create,
                        PseudonymServiceCreateRequest.newBuilder()
                            .setNamespace(namespace)
                            .setOriginalValue("concurrent-" + i)
                            .build()))
            .toList();
    Future.all(calls).await();

    HashSet<String> pseudonyms = new HashSet<>();
    for (Future<Reply<PseudonymServiceCreateResponse>> call : calls) {
      assertThat(call.result().status()).isEqualTo(GrpcStatus.OK);
      pseudonyms.add(call.result().body().getPseudonym().getPseudonymValue());
    }
    assertThat(pseudonyms).hasSize(values);
    List<Integer> batches = evaluatedBatches();
    assertThat(batches.stream().mapToInt(Integer::intValue).sum()).isEqualTo(values);
    assertThat(batches).hasSizeLessThan(values).allMatch(count -> count <= MAX_BATCH);
    // the same pseudonyms again, from the database: the server is not asked
    assertThat(createOk(vfps, namespace, "concurrent-7")).isIn(pseudonyms);
    assertThat(evaluatedBatches()).hasSameSizeAs(batches);
  }

  @Test
  void aBatchCreateSendsChunksOfAtMostTheBatchSize() {
    String namespace = namespace(vfps, 86, "", "");
    List<String> values = IntStream.range(0, 40).mapToObj(i -> "batch-" + i).toList();
    String single = createOk(vfps, namespace, "batch-3");
    audit.beforeEach(null);

    List<String> pseudonyms =
        vfps
            .ok(
                PseudonymServiceGrpcClient.BatchCreate,
                PseudonymServiceBatchCreateRequest.newBuilder()
                    .setNamespace(namespace)
                    .addAllOriginalValues(values)
                    .addOriginalValues("batch-5")
                    .build())
            .getPseudonymsList()
            .stream()
            .map(pseudonym -> pseudonym.getPseudonymValue())
            .toList();

    assertThat(pseudonyms).hasSize(41);
    assertThat(pseudonyms.subList(0, 40)).doesNotHaveDuplicates();
    assertThat(pseudonyms.get(3)).isEqualTo(single);
    assertThat(pseudonyms.get(40)).isEqualTo(pseudonyms.get(5));
    // 39 new values (batch-3 was known), in chunks of at most 16
    assertThat(evaluatedBatches()).containsExactlyInAnyOrder(16, 16, 7);
  }

  @Test
  void aStreamOfCreatesSharesTheServersCalls() {
    String namespace = namespace(vfps, 86, "", "");
    List<PseudonymServiceCreateRequest> requests =
        IntStream.range(0, 48)
            .mapToObj(
                i ->
                    PseudonymServiceCreateRequest.newBuilder()
                        .setNamespace(namespace)
                        .setOriginalValue("streamed-" + i)
                        .build())
            .toList();

    GrpcTestClient.StreamReply<PseudonymServiceCreateResponse> reply =
        vfps.stream(PseudonymServiceGrpcClient.CreateStream, requests, Map.of());

    assertThat(reply.status()).as(reply.message()).isEqualTo(GrpcStatus.OK);
    assertThat(reply.bodies()).hasSize(48);
    assertThat(reply.bodies().get(5).getPseudonym().getPseudonymValue())
        .isEqualTo(createOk(vfps, namespace, "streamed-5"));
    List<Integer> batches = evaluatedBatches();
    assertThat(batches.stream().mapToInt(Integer::intValue).sum()).isEqualTo(48);
  }

  @Test
  void restAndFhirCreateTheSamePseudonymAsGrpc() {
    String namespace = namespace(vfps, 86, "", "");
    String grpc = createOk(vfps, namespace, RFC_INPUT_2);
    HttpTestClient http = resources.own(new HttpTestClient(vfpsServer.httpPort()));

    HttpTestClient.Response rest =
        http.postJson(
            "/v1/namespaces/" + namespace + "/pseudonyms",
            new JsonObject().put("originalValue", "rest-value").encode());
    IGenericClient hapi =
        FhirContext.forR4()
            .newRestfulGenericClient("http://127.0.0.1:" + vfpsServer.httpPort() + "/v1/fhir");
    hapi.setEncoding(EncodingEnum.JSON);
    Parameters fhir =
        hapi.operation()
            .onServer()
            .named("$create-pseudonym")
            .withParameters(fhirRequest(namespace, RFC_INPUT_2))
            .execute();

    assertThat(rest.status()).as(rest.body()).isEqualTo(200);
    assertThat(rest.json().getJsonObject("pseudonym").getString("pseudonymValue"))
        .isEqualTo(createOk(vfps, namespace, "rest-value"))
        .startsWith("rfc.");
    assertThat(fhir.getParameter("pseudonymValue").getValue().primitiveValue()).isEqualTo(grpc);
  }

  private static Parameters fhirRequest(String namespace, String originalValue) {
    Parameters parameters = new Parameters();
    parameters.addParameter().setName("namespace").setValue(new StringType(namespace));
    parameters.addParameter().setName("originalValue").setValue(new StringType(originalValue));
    return parameters;
  }

  /** "José" with U+00E9, and with "e" and the combining acute accent U+0301: NFC-equal. */
  private static final String COMPOSED = "Jos\u00e9";

  private static final String DECOMPOSED = "Jose\u0301";

  private static String originalOf(String namespace, String pseudonym) {
    return vfps.ok(
            PseudonymServiceGrpcClient.Get,
            PseudonymServiceGetRequest.newBuilder()
                .setNamespace(namespace)
                .setPseudonymValue(pseudonym)
                .build())
        .getPseudonym()
        .getOriginalValue();
  }

  private static List<String> batchCreate(String namespace, String... values) {
    return vfps
        .ok(
            PseudonymServiceGrpcClient.BatchCreate,
            PseudonymServiceBatchCreateRequest.newBuilder()
                .setNamespace(namespace)
                .addAllOriginalValues(List.of(values))
                .build())
        .getPseudonymsList()
        .stream()
        .map(pseudonym -> pseudonym.getPseudonymValue())
        .toList();
  }

  @Test
  void theSecondSpellingOfAValueGetsThePseudonymOfTheFirstAndStoresNoRow() {
    for (String[] order :
        List.of(new String[] {COMPOSED, DECOMPOSED}, new String[] {DECOMPOSED, COMPOSED})) {
      String namespace = namespace(vfps, 86, "", "");
      String first = createOk(vfps, namespace, order[0]);

      Reply<PseudonymServiceCreateResponse> second = create(vfps, namespace, order[1]);

      assertThat(second.status()).as(second.message()).isEqualTo(GrpcStatus.OK);
      assertThat(second.body().getPseudonym().getPseudonymValue()).isEqualTo(first);
      assertThat(second.body().getPseudonym().getOriginalValue()).isEqualTo(order[1]);
      assertThat(createOk(vfps, namespace, order[1])).as("again").isEqualTo(first);
      GrpcTestClient.StreamReply<PseudonymServiceCreateResponse> streamed =
          vfps.stream(
              PseudonymServiceGrpcClient.CreateStream,
              List.of(
                  PseudonymServiceCreateRequest.newBuilder()
                      .setNamespace(namespace)
                      .setOriginalValue(order[1])
                      .build()),
              Map.of());
      assertThat(streamed.status()).as(streamed.message()).isEqualTo(GrpcStatus.OK);
      assertThat(streamed.bodies().getFirst().getPseudonym().getPseudonymValue()).isEqualTo(first);
      assertThat(batchCreate(namespace, order[1], "other")).first().isEqualTo(first);
      assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(2);
      assertThat(originalOf(namespace, first)).as("the stored spelling").isEqualTo(order[0]);
    }
  }

  @Test
  void aBatchWithBothSpellingsGivesBothOnePseudonymAndStoresOneRow() {
    String namespace = namespace(vfps, 86, "", "");

    List<String> pseudonyms = batchCreate(namespace, COMPOSED, "other", DECOMPOSED, COMPOSED);

    assertThat(pseudonyms).hasSize(4);
    assertThat(pseudonyms.get(2)).isEqualTo(pseudonyms.get(0)).isEqualTo(pseudonyms.get(3));
    assertThat(pseudonyms.get(1)).isNotEqualTo(pseudonyms.get(0));
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(2);
    assertThat(originalOf(namespace, pseudonyms.get(0))).isEqualTo(COMPOSED);
    assertThat(createOk(vfps, namespace, DECOMPOSED)).isEqualTo(pseudonyms.get(0));
  }

  /**
   * Lookups and withdrawals by value find the value in either spelling, as Create does: a
   * withdrawal in the other spelling withdraws the stored pair rather than answering that there is
   * none.
   */
  @Test
  void theOtherSpellingOfAValueResolvesAndWithdrawsTheStoredPair() {
    String namespace = namespace(vfps, 86, "", "");
    String pseudonym = createOk(vfps, namespace, COMPOSED);

    Reply<PseudonymServiceResolveResponse> resolved =
        vfps.call(
            PseudonymServiceGrpcClient.Resolve,
            PseudonymServiceResolveRequest.newBuilder()
                .setNamespace(namespace)
                .setOriginalValue(DECOMPOSED)
                .build());
    assertThat(resolved.status()).as(resolved.message()).isEqualTo(GrpcStatus.OK);
    assertThat(resolved.body().getPseudonymsList())
        .extracting(org.vfps.api.v1.Pseudonym::getPseudonymValue)
        .containsExactly(pseudonym);

    Reply<?> withdrawn =
        vfps.call(
            WithdrawalServiceGrpcClient.DeletePseudonyms,
            org.vfps.api.x.withdrawal.v1.DeletePseudonymsRequest.newBuilder()
                .setNamespace(namespace)
                .setOriginalValue(DECOMPOSED)
                .build());
    assertThat(withdrawn.status()).as(withdrawn.message()).isEqualTo(GrpcStatus.OK);
    assertThat(TestPostgres.pseudonymCount(namespace)).isZero();
  }

  @Test
  void anAnonymizedValueCannotBeCreatedAgainInEitherSpellingAndSaysWhy() {
    String namespace = namespace(vfps, 86, "", "");
    String pseudonym = createOk(vfps, namespace, COMPOSED);
    assertThat(
            vfps.call(
                    WithdrawalServiceGrpcClient.AnonymizeOriginal,
                    AnonymizeOriginalRequest.newBuilder()
                        .setNamespace(namespace)
                        .setOriginalValue(COMPOSED)
                        .build())
                .status())
        .isEqualTo(GrpcStatus.OK);

    for (String spelling : List.of(COMPOSED, DECOMPOSED)) {
      Reply<PseudonymServiceCreateResponse> again = create(vfps, namespace, spelling);
      Reply<?> batch =
          vfps.call(
              PseudonymServiceGrpcClient.BatchCreate,
              PseudonymServiceBatchCreateRequest.newBuilder()
                  .setNamespace(namespace)
                  .addOriginalValues("fresh-" + UUID.randomUUID())
                  .addOriginalValues(spelling)
                  .build());

      for (Reply<?> reply : List.of(again, batch)) {
        assertThat(reply.status()).as(reply.message()).isEqualTo(GrpcStatus.FAILED_PRECONDITION);
        assertThat(reply.message())
            .contains("anonymized")
            .doesNotContain(spelling)
            .doesNotContain(pseudonym);
      }
    }
  }

  @Test
  void aServerWithAnotherKeyBehindThePinnedOneIsRefusedAndNothingIsStored() {
    GrpcTestClient misled = client(otherKeyServer.port(), Map.of());
    String namespace = namespace(vfps, 86, "", "");

    Reply<PseudonymServiceCreateResponse> reply = create(misled, namespace, "patient-9");

    assertThat(reply.status()).isEqualTo(GrpcStatus.INTERNAL);
    assertThat(reply.message())
        .contains("does not verify against the pinned public key")
        .doesNotContain("patient-9");
    assertThat(vfpsLog.atLeast(Level.ERROR))
        .anySatisfy(event -> assertThat(event.getFormattedMessage()).contains("does not verify"))
        .allSatisfy(event -> assertThat(event.getThrowableProxy()).isNull());
    // nothing was stored: the honest server's vfps makes the value's pseudonym now
    assertThat(createOk(vfps, namespace, "patient-9")).startsWith("rfc.");
  }

  @Test
  void anAnswerWithAnotherKeyIdIsRefused() {
    GrpcTestClient expectingOther = client(rfcServer.port(), Map.of("Voprf__ExpectedKeyId", "v2"));
    String namespace = namespace(vfps, 86, "", "");

    Reply<PseudonymServiceCreateResponse> reply = create(expectingOther, namespace, "patient-1");

    assertThat(reply.status()).isEqualTo(GrpcStatus.INTERNAL);
    assertThat(reply.message()).contains("key id 'rfc', not the expected 'v2'");
  }

  @Test
  void aStoppedServerIsUnavailableWhileKnownValuesAreStillAnswered() {
    GrpcTestClient stranded = client(TestService.freePort(), Map.of());
    String namespace = namespace(vfps, 86, "", "");
    String known = createOk(vfps, namespace, "known");

    Reply<PseudonymServiceCreateResponse> reply = create(stranded, namespace, "unknown");

    assertThat(reply.status()).isEqualTo(GrpcStatus.UNAVAILABLE);
    assertThat(reply.message()).isEqualTo("The VOPRF server cannot be reached.");
    assertThat(createOk(stranded, namespace, "known")).isEqualTo(known);
  }
}
