package org.vfps.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.grpc.common.GrpcStatus;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.ClassResources;
import org.vfps.GrpcTestClient;
import org.vfps.GrpcTestClient.Reply;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.ParentValidationMode;
import org.vfps.api.v1.Pseudonym;
import org.vfps.api.v1.PseudonymGenerationMethod;
import org.vfps.api.v1.PseudonymServiceBatchCreateRequest;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceCreateResponse;
import org.vfps.api.v1.PseudonymServiceGetRequest;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.api.v1.PseudonymServiceResolveRequest;
import org.vfps.api.v1.PseudonymServiceResolveResponse;
import org.vfps.server.VfpsServer;

/**
 * The pseudonym calls of the .NET vfps 1.22 through generated stubs: {@code count}, several
 * pseudonyms per value, {@code Resolve}, the namespace's regex and its parent, in upstream's order
 * of checks and with its status codes.
 */
class MultiplePseudonymsIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static VfpsServer server;
  private static GrpcTestClient client;

  @BeforeAll
  static void start() {
    server = resources.own(TestService.start());
    client = resources.own(new GrpcTestClient(server.grpcPort()));
  }

  private static String namespace(NamespaceServiceCreateRequest.Builder settings) {
    String name = "multi-" + UUID.randomUUID();
    client.ok(
        NamespaceServiceGrpcClient.Create,
        settings
            .setName(name)
            .setPseudonymGenerationMethod(
                PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_FULL_RANDOM_HEX_ENCODED)
            .setPseudonymLength(16)
            .build());
    return name;
  }

  private static String multiple() {
    return namespace(NamespaceServiceCreateRequest.newBuilder().setAllowsMultiplePseudonyms(true));
  }

  private static PseudonymServiceCreateRequest create(String namespace, String original) {
    return PseudonymServiceCreateRequest.newBuilder()
        .setNamespace(namespace)
        .setOriginalValue(original)
        .build();
  }

  private static PseudonymServiceCreateRequest create(
      String namespace, String original, long count) {
    return create(namespace, original).toBuilder().setCount(count).build();
  }

  private static Reply<PseudonymServiceCreateResponse> call(PseudonymServiceCreateRequest request) {
    return client.call(PseudonymServiceGrpcClient.Create, request);
  }

  private static Reply<PseudonymServiceResolveResponse> resolve(String namespace, String original) {
    return client.call(
        PseudonymServiceGrpcClient.Resolve,
        PseudonymServiceResolveRequest.newBuilder()
            .setNamespace(namespace)
            .setOriginalValue(original)
            .build());
  }

  private static List<String> values(List<Pseudonym> pseudonyms) {
    return pseudonyms.stream().map(Pseudonym::getPseudonymValue).toList();
  }

  private static List<Long> sequenceNumbers(List<Pseudonym> pseudonyms) {
    return pseudonyms.stream().map(Pseudonym::getSequenceNumber).toList();
  }

  @Test
  void countGrowsTheSetAndNeverShrinksOrRegeneratesIt() {
    String namespace = multiple();

    PseudonymServiceCreateResponse three =
        client.ok(PseudonymServiceGrpcClient.Create, create(namespace, "patient-1", 3));
    assertThat(sequenceNumbers(three.getPseudonymsList())).containsExactly(0L, 1L, 2L);
    assertThat(three.getPseudonym()).isEqualTo(three.getPseudonyms(0));
    assertThat(new HashSet<>(values(three.getPseudonymsList()))).hasSize(3);
    assertThat(three.getPseudonymsList())
        .allSatisfy(p -> assertThat(p.getOriginalValue()).isEqualTo("patient-1"));

    PseudonymServiceCreateResponse fewer =
        client.ok(PseudonymServiceGrpcClient.Create, create(namespace, "patient-1", 2));
    PseudonymServiceCreateResponse absent =
        client.ok(PseudonymServiceGrpcClient.Create, create(namespace, "patient-1"));
    assertThat(values(fewer.getPseudonymsList())).isEqualTo(values(three.getPseudonymsList()));
    assertThat(values(absent.getPseudonymsList())).isEqualTo(values(three.getPseudonymsList()));

    PseudonymServiceCreateResponse five =
        client.ok(PseudonymServiceGrpcClient.Create, create(namespace, "patient-1", 5));
    assertThat(sequenceNumbers(five.getPseudonymsList())).containsExactly(0L, 1L, 2L, 3L, 4L);
    assertThat(values(five.getPseudonymsList()).subList(0, 3))
        .isEqualTo(values(three.getPseudonymsList()));
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(5);
  }

  @Test
  void aNamespaceOfOnePseudonymPerValueAnswersItsOneAndRefusesMore() {
    String namespace = namespace(NamespaceServiceCreateRequest.newBuilder());

    PseudonymServiceCreateResponse one =
        client.ok(PseudonymServiceGrpcClient.Create, create(namespace, "patient-1", 1));
    assertThat(one.getPseudonymsList()).containsExactly(one.getPseudonym());
    assertThat(one.getPseudonym().getSequenceNumber()).isZero();

    Reply<PseudonymServiceCreateResponse> more = call(create(namespace, "patient-1", 2));
    assertThat(more.status()).isEqualTo(GrpcStatus.FAILED_PRECONDITION);
    assertThat(more.message())
        .isEqualTo(
            "Namespace '"
                + namespace
                + "' does not allow storing multiple pseudonyms per original value.");
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(1);
  }

  @Test
  void countOutsideOneToTenThousandIsInvalidArgumentAndStoresNothing() {
    String namespace = multiple();
    for (long count : new long[] {0, -1, 10_001}) {
      Reply<PseudonymServiceCreateResponse> reply = call(create(namespace, "patient-1", count));
      assertThat(reply.status()).as("count %d", count).isEqualTo(GrpcStatus.INVALID_ARGUMENT);
      assertThat(reply.message()).startsWith("count must be at");
    }
    assertThat(TestPostgres.pseudonymCount(namespace)).isZero();
  }

  @Test
  void batchCallsAndSingleCreatesGetSequenceNumberZero() {
    String namespace = multiple();
    PseudonymServiceCreateResponse three =
        client.ok(PseudonymServiceGrpcClient.Create, create(namespace, "patient-1", 3));

    List<Pseudonym> batch =
        client
            .ok(
                PseudonymServiceGrpcClient.BatchCreate,
                PseudonymServiceBatchCreateRequest.newBuilder()
                    .setNamespace(namespace)
                    .addOriginalValues("patient-1")
                    .addOriginalValues("patient-2")
                    .build())
            .getPseudonymsList();

    assertThat(batch.get(0).getPseudonymValue())
        .isEqualTo(three.getPseudonym().getPseudonymValue());
    assertThat(batch.get(1).getSequenceNumber()).isZero();
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(4);
  }

  @Test
  void getOfALaterSequenceNumberFindsItsOriginalValue() {
    String namespace = multiple();
    Pseudonym third =
        client
            .ok(PseudonymServiceGrpcClient.Create, create(namespace, "patient-1", 3))
            .getPseudonyms(2);

    Pseudonym found =
        client
            .ok(
                PseudonymServiceGrpcClient.Get,
                PseudonymServiceGetRequest.newBuilder()
                    .setNamespace(namespace)
                    .setPseudonymValue(third.getPseudonymValue())
                    .build())
            .getPseudonym();

    assertThat(found.getOriginalValue()).isEqualTo("patient-1");
    assertThat(found.getSequenceNumber()).isEqualTo(2);
  }

  @Test
  void concurrentCountCreatesOnTwoReplicasEndWithOneSet() {
    String namespace = multiple();
    try (VfpsServer other = TestService.start();
        GrpcTestClient second = new GrpcTestClient(other.grpcPort())) {
      List<Future<Reply<PseudonymServiceCreateResponse>>> calls = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        GrpcTestClient replica = i % 2 == 0 ? client : second;
        calls.add(
            replica.callAsync(PseudonymServiceGrpcClient.Create, create(namespace, "shared", 4)));
      }
      Set<List<String>> answered = new HashSet<>();
      for (Future<Reply<PseudonymServiceCreateResponse>> call : calls) {
        Reply<PseudonymServiceCreateResponse> reply = call.await();
        assertThat(reply.status()).isEqualTo(GrpcStatus.OK);
        assertThat(sequenceNumbers(reply.body().getPseudonymsList()))
            .containsExactly(0L, 1L, 2L, 3L);
        answered.add(values(reply.body().getPseudonymsList()));
      }
      assertThat(answered).hasSize(1);
      assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(4);
    }
  }

  @Test
  void resolveFindsEveryPseudonymAndCreatesNone() {
    String namespace = multiple();
    PseudonymServiceCreateResponse created =
        client.ok(PseudonymServiceGrpcClient.Create, create(namespace, "patient-1", 2));

    PseudonymServiceResolveResponse resolved = resolve(namespace, "patient-1").body();
    assertThat(resolved.getPseudonymsList()).isEqualTo(created.getPseudonymsList());
    assertThat(resolved.getPseudonym()).isEqualTo(created.getPseudonym());

    Reply<PseudonymServiceResolveResponse> unknown = resolve(namespace, "patient-unknown");
    assertThat(unknown.status()).isEqualTo(GrpcStatus.NOT_FOUND);
    assertThat(unknown.message())
        .isEqualTo("No pseudonym exists in the namespace for the requested original value.");
    assertThat(unknown.trailers().get("namespace")).isEqualTo(namespace);
    assertThat(unknown.trailers().names()).noneMatch(name -> name.contains("pseudonym"));
    assertThat(unknown.trailers().toString()).doesNotContain("patient-unknown");
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(2);

    assertThat(resolve(namespace, " ").status()).isEqualTo(GrpcStatus.INVALID_ARGUMENT);
    Reply<PseudonymServiceResolveResponse> missing = resolve("no-such-" + UUID.randomUUID(), "x");
    assertThat(missing.status()).isEqualTo(GrpcStatus.NOT_FOUND);
  }

  @Test
  void theRegexIsCheckedUnanchoredOnEveryCreateAndResolveBeforeAnythingIsStored() {
    String namespace =
        namespace(
            NamespaceServiceCreateRequest.newBuilder()
                .setOriginalValueValidationRegex("[0-9]{4}")
                .setAllowsMultiplePseudonyms(true));

    // unanchored: a match anywhere in the value counts
    client.ok(PseudonymServiceGrpcClient.Create, create(namespace, "id-1234-x"));

    String refused =
        "The original value does not match the required pattern '[0-9]{4}' for namespace '"
            + namespace
            + "'.";
    Reply<PseudonymServiceCreateResponse> single = call(create(namespace, "id-12"));
    assertThat(single.status()).isEqualTo(GrpcStatus.INVALID_ARGUMENT);
    assertThat(single.message()).isEqualTo(refused).doesNotContain("id-12");
    assertThat(call(create(namespace, "id-12", 3)).message()).isEqualTo(refused);
    assertThat(resolve(namespace, "id-12").message()).isEqualTo(refused);
    // checked before the short cut of a value that has a pseudonym: a count below 1 first
    assertThat(call(create(namespace, "id-12", 0)).message()).startsWith("count must be");

    Reply<?> batch =
        client.call(
            PseudonymServiceGrpcClient.BatchCreate,
            PseudonymServiceBatchCreateRequest.newBuilder()
                .setNamespace(namespace)
                .addOriginalValues("id-5678")
                .addOriginalValues("nope")
                .build());
    assertThat(batch.status()).isEqualTo(GrpcStatus.INVALID_ARGUMENT);
    assertThat(batch.message()).startsWith("The original value 2 of 2 does not match");
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(1);
  }

  @Test
  // a backtracking engine would take longer than the age of the universe for this value
  @Timeout(60)
  void aPathologicalPatternMatchesALongValueInLinearTime() {
    String namespace =
        namespace(
            NamespaceServiceCreateRequest.newBuilder().setOriginalValueValidationRegex("^(a+)+$"));
    String value = "a".repeat(2000) + "!";

    Reply<PseudonymServiceCreateResponse> reply = call(create(namespace, value));

    assertThat(reply.status()).isEqualTo(GrpcStatus.INVALID_ARGUMENT);
    assertThat(call(create(namespace, "a".repeat(2000))).status()).isEqualTo(GrpcStatus.OK);
  }

  @Test
  void ensureExistsTakesOnlyValuesThatArePseudonymsOfTheParent() {
    String parent = namespace(NamespaceServiceCreateRequest.newBuilder());
    String parentPseudonym =
        client
            .ok(PseudonymServiceGrpcClient.Create, create(parent, "patient-1"))
            .getPseudonym()
            .getPseudonymValue();
    String child =
        namespace(
            NamespaceServiceCreateRequest.newBuilder()
                .setParentName(parent)
                .setParentValidationMode(
                    ParentValidationMode.PARENT_VALIDATION_MODE_ENSURE_EXISTS));

    assertThat(call(create(child, parentPseudonym)).status()).isEqualTo(GrpcStatus.OK);
    Reply<PseudonymServiceCreateResponse> orphan = call(create(child, "patient-1"));
    assertThat(orphan.status()).isEqualTo(GrpcStatus.FAILED_PRECONDITION);
    assertThat(orphan.message())
        .isEqualTo(
            "The original value does not exist as a pseudonym in the parent namespace '"
                + parent
                + "' required by namespace '"
                + child
                + "'.");
    Reply<?> batch =
        client.call(
            PseudonymServiceGrpcClient.BatchCreate,
            PseudonymServiceBatchCreateRequest.newBuilder()
                .setNamespace(child)
                .addOriginalValues(parentPseudonym)
                .addOriginalValues("patient-1")
                .build());
    assertThat(batch.status()).isEqualTo(GrpcStatus.FAILED_PRECONDITION);
    // Resolve does not check the parent
    assertThat(resolve(child, "patient-1").status()).isEqualTo(GrpcStatus.NOT_FOUND);
    assertThat(TestPostgres.pseudonymCount(child)).isEqualTo(1);
  }

  @Test
  void theOrderOfChecksIsUpstreams() {
    String namespace =
        namespace(NamespaceServiceCreateRequest.newBuilder().setOriginalValueValidationRegex("^x"));
    // blank before count, count before the single-pseudonym rule, that before the regex
    assertThat(call(create(namespace, " ", 0)).message())
        .isEqualTo("The original value must not be blank.");
    assertThat(call(create(namespace, "y", 0)).message()).startsWith("count must be at least 1");
    assertThat(call(create(namespace, "y", 2)).status()).isEqualTo(GrpcStatus.FAILED_PRECONDITION);
    assertThat(call(create(namespace, "y", 1)).status()).isEqualTo(GrpcStatus.INVALID_ARGUMENT);
    assertThat(call(create("no-such-" + UUID.randomUUID(), " ", 0)).status())
        .isEqualTo(GrpcStatus.NOT_FOUND);
  }
}
