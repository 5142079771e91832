package org.vfps.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.grpc.common.GrpcStatus;
import java.util.List;
import java.util.Map;
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
import org.vfps.api.v1.NamespaceServiceListChildrenRequest;
import org.vfps.api.v1.ParentValidationMode;
import org.vfps.api.v1.PseudonymGenerationMethod;
import org.vfps.api.v1.PseudonymServiceBatchCreateRequest;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.server.VfpsServer;

class NamespaceServiceIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static final String WITHOUT_VOPRF_SERVER =
      "The pseudonym generation method 'Voprf' makes no new pseudonyms here: the setting"
          + " Voprf__Address (the VOPRF server) is missing.";

  private static final PseudonymGenerationMethod VOPRF =
      PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_VOPRF;
  private static final ParentValidationMode ENSURE_EXISTS =
      ParentValidationMode.PARENT_VALIDATION_MODE_ENSURE_EXISTS;

  private static GrpcTestClient client;

  @BeforeAll
  static void start() {
    VfpsServer server = resources.own(TestService.start());
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
    // Get alone counts the namespace's pseudonyms: none yet
    assertThat(read.getNamespace().getXCapacity().getUsedPseudonyms()).isZero();
    assertThat(read.getNamespace().toBuilder().clearXCapacity().build()).isEqualTo(namespace);
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
  void anUnknownNameLongerThanAnyNamespacesIsDescribedNotRepeated() {
    String name = "n".repeat(300);
    Reply<?> reply =
        client.call(
            NamespaceServiceGrpcClient.Get,
            NamespaceServiceGetRequest.newBuilder().setName(name).build());

    assertThat(reply.status()).isEqualTo(GrpcStatus.NOT_FOUND);
    assertThat(reply.message())
        .isEqualTo(
            "The requested pseudonym namespace (a name longer than 256 bytes) does not exist.");
  }

  @Test
  void getOfUnknownNamespaceIsNotFoundWithTrailer() {
    String name = uniqueName();
    Reply<?> reply =
        client.call(
            NamespaceServiceGrpcClient.Get,
            NamespaceServiceGetRequest.newBuilder().setName(name).build());

    assertThat(reply.status()).isEqualTo(GrpcStatus.NOT_FOUND);
    assertThat(reply.message())
        .isEqualTo("The requested pseudonym namespace '" + name + "' does not exist.");
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

  /** One request and the status and message of the check it fails first. */
  private record Broken(
      String why, NamespaceServiceCreateRequest request, GrpcStatus status, String message) {}

  @Test
  void createChecksRunInTheOrderOfTheDotnetServiceAndTheFirstBrokenRuleAnswers() {
    String existing = uniqueName();
    client.ok(NamespaceServiceGrpcClient.Create, request(existing).build());
    String missingParent = uniqueName();
    List<Broken> requests =
        List.of(
            new Broken(
                "blank name, length 0",
                request(" ").setPseudonymLength(0).build(),
                GrpcStatus.INVALID_ARGUMENT,
                "A namespace name is required."),
            new Broken(
                "length 0, unknown method",
                request(uniqueName())
                    .setPseudonymLength(0)
                    .setPseudonymGenerationMethodValue(99)
                    .build(),
                GrpcStatus.OUT_OF_RANGE,
                "Pseudonym length must be larger than 0."),
            new Broken(
                "length 0, VOPRF",
                request(uniqueName())
                    .setPseudonymLength(0)
                    .setPseudonymGenerationMethod(VOPRF)
                    .build(),
                GrpcStatus.OUT_OF_RANGE,
                "Pseudonym length must be larger than 0."),
            new Broken(
                "unknown method, bad regex",
                request(uniqueName())
                    .setPseudonymGenerationMethodValue(99)
                    .setOriginalValueValidationRegex("(")
                    .build(),
                GrpcStatus.INVALID_ARGUMENT,
                "Unknown pseudonym generation method 99."),
            new Broken(
                "VOPRF without a VOPRF server, with multiple pseudonyms",
                request(uniqueName())
                    .setPseudonymGenerationMethod(VOPRF)
                    .setPseudonymLength(86)
                    .setAllowsMultiplePseudonyms(true)
                    .build(),
                GrpcStatus.FAILED_PRECONDITION,
                WITHOUT_VOPRF_SERVER),
            new Broken(
                "UUID4 of length 16, bad regex",
                request(uniqueName())
                    .setPseudonymGenerationMethod(
                        PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_UUID4)
                    .setOriginalValueValidationRegex("(")
                    .build(),
                GrpcStatus.OUT_OF_RANGE,
                "The 'Uuid4' pseudonym generation method requires a pseudonym length of exactly"
                    + " 36."),
            new Broken(
                "bad regex, mode without parent",
                request(uniqueName())
                    .setOriginalValueValidationRegex("(")
                    .setParentValidationMode(ENSURE_EXISTS)
                    .build(),
                GrpcStatus.INVALID_ARGUMENT,
                "The original value validation regex '(' is not a valid regular expression:"
                    + " missing closing ): `(`."),
            new Broken(
                "mode without parent, an existing name",
                request(existing).setParentValidationMode(ENSURE_EXISTS).build(),
                GrpcStatus.INVALID_ARGUMENT,
                "A parent validation mode requires a parent namespace to validate against."),
            new Broken(
                "its own parent, an existing name",
                request(existing).setParentName(existing).build(),
                GrpcStatus.INVALID_ARGUMENT,
                "A namespace cannot be its own parent."),
            new Broken(
                "a missing parent, an existing name",
                request(existing).setParentName(missingParent).build(),
                GrpcStatus.NOT_FOUND,
                "The requested pseudonym namespace '" + missingParent + "' does not exist."));

    for (Broken broken : requests) {
      Reply<?> reply = client.call(NamespaceServiceGrpcClient.Create, broken.request());
      assertThat(reply.status()).as(broken.why()).isEqualTo(broken.status());
      assertThat(reply.message()).as(broken.why()).isEqualTo(broken.message());
    }
    Reply<?> missing =
        client.call(
            NamespaceServiceGrpcClient.Create,
            request(uniqueName()).setParentName(missingParent).build());
    assertThat(missing.trailers().get("namespace")).isEqualTo(missingParent);
  }

  @Test
  void base32NamespacesMakePseudonymsOfTheRfc4648Alphabet() {
    String name = uniqueName();
    Namespace created =
        client
            .ok(
                NamespaceServiceGrpcClient.Create,
                request(name)
                    .setPseudonymGenerationMethod(
                        PseudonymGenerationMethod
                            .PSEUDONYM_GENERATION_METHOD_FULL_RANDOM_BASE32_ENCODED)
                    .setPseudonymLength(26)
                    .setPseudonymPrefix("b32-")
                    .build())
            .getNamespace();
    assertThat(created.getPseudonymGenerationMethod())
        .isEqualTo(
            PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_FULL_RANDOM_BASE32_ENCODED);

    String pseudonym = createPseudonym(name, "value-1");

    assertThat(pseudonym).matches("b32-[A-Z2-7]{26}");
    assertThat(createPseudonym(name, "value-1")).isEqualTo(pseudonym);
  }

  @Test
  void theNewFieldsAreStoredAndReadBack() {
    String parent = uniqueName();
    client.ok(NamespaceServiceGrpcClient.Create, request(parent).build());
    String name = uniqueName();
    Namespace created =
        client
            .ok(
                NamespaceServiceGrpcClient.Create,
                request(name)
                    .setOriginalValueValidationRegex("^[0-9]{4}$")
                    .setAllowsMultiplePseudonyms(true)
                    .setParentName(parent)
                    .setParentValidationMode(ENSURE_EXISTS)
                    .build())
            .getNamespace();

    assertThat(created.getOriginalValueValidationRegex()).isEqualTo("^[0-9]{4}$");
    assertThat(created.getAllowsMultiplePseudonyms()).isTrue();
    assertThat(created.getParentName()).isEqualTo(parent);
    assertThat(created.getParentValidationMode()).isEqualTo(ENSURE_EXISTS);
    assertThat(get(name)).isEqualTo(created);
    assertThat(getAll()).contains(created);
  }

  @Test
  void anAbsentDescriptionReadsBackAbsentAndAnEmptyOneEmpty() {
    String absent = uniqueName();
    String empty = uniqueName();
    client.ok(NamespaceServiceGrpcClient.Create, request(absent).build());
    client.ok(NamespaceServiceGrpcClient.Create, request(empty).setDescription("").build());

    assertThat(get(absent).hasDescription()).isFalse();
    assertThat(get(empty).hasDescription()).isTrue();
    assertThat(get(empty).getDescription()).isEmpty();
    assertThat(
            TestPostgres.queryLong(
                TestPostgres.database(),
                "SELECT count(*) FROM namespaces WHERE name = ? AND description IS NULL",
                absent))
        .isEqualTo(1);
  }

  @Test
  void withoutARegexOrParentTheNamespaceHasAnEmptyRegexAndNoParent() {
    Namespace created =
        client.ok(NamespaceServiceGrpcClient.Create, request(uniqueName()).build()).getNamespace();

    // as the .NET service stores the getter's value of an unset optional string
    assertThat(created.hasOriginalValueValidationRegex()).isTrue();
    assertThat(created.getOriginalValueValidationRegex()).isEmpty();
    assertThat(created.getAllowsMultiplePseudonyms()).isFalse();
    assertThat(created.hasParentName()).isFalse();
    assertThat(created.getParentValidationMode())
        .isEqualTo(ParentValidationMode.PARENT_VALIDATION_MODE_UNSPECIFIED);
  }

  @Test
  void regexesThatRe2CannotMatchAreRefusedNamingWhy() {
    for (String pattern : List.of("(a)\\1", "foo(?=bar)", "(?<!x)y", "((a{100}){100}){100}")) {
      Reply<?> reply =
          client.call(
              NamespaceServiceGrpcClient.Create,
              request(uniqueName()).setOriginalValueValidationRegex(pattern).build());

      assertThat(reply.status()).as(pattern).isEqualTo(GrpcStatus.INVALID_ARGUMENT);
      assertThat(reply.message())
          .as(pattern)
          .startsWith(
              "The original value validation regex '"
                  + pattern
                  + "' is not a valid regular expression: ")
          .containsAnyOf("not supported", "expand to more than 2000");
    }
  }

  @Test
  void listChildrenAnswersTheDirectChildrenSortedByName() {
    String parent = uniqueName();
    client.ok(NamespaceServiceGrpcClient.Create, request(parent).build());
    String second = parent + "-b";
    String first = parent + "-a";
    client.ok(NamespaceServiceGrpcClient.Create, request(second).setParentName(parent).build());
    client.ok(NamespaceServiceGrpcClient.Create, request(first).setParentName(parent).build());
    client.ok(
        NamespaceServiceGrpcClient.Create,
        request(first + "-grandchild").setParentName(first).build());

    assertThat(listChildren(parent)).extracting(Namespace::getName).containsExactly(first, second);
    assertThat(listChildren(parent).getFirst()).isEqualTo(get(first));
    assertThat(listChildren(second)).isEmpty();
    assertThat(listChildren(first))
        .extracting(Namespace::getName)
        .containsExactly(first + "-grandchild");
  }

  @Test
  void listChildrenOfAMissingNamespaceIsNotFoundWithTrailer() {
    String name = uniqueName();
    Reply<?> reply =
        client.call(
            NamespaceServiceGrpcClient.ListChildren,
            NamespaceServiceListChildrenRequest.newBuilder().setName(name).build());

    assertThat(reply.status()).isEqualTo(GrpcStatus.NOT_FOUND);
    assertThat(reply.message())
        .isEqualTo("The requested pseudonym namespace '" + name + "' does not exist.");
    assertThat(reply.trailers().get("namespace")).isEqualTo(name);
  }

  @Test
  void aNamespaceWithChildrenIsNotDeletedUntilTheyAre() {
    String parent = uniqueName();
    String child = uniqueName();
    client.ok(NamespaceServiceGrpcClient.Create, request(parent).build());
    client.ok(NamespaceServiceGrpcClient.Create, request(child).setParentName(parent).build());
    createPseudonym(parent, "kept");

    Reply<?> refused = delete(parent);

    assertThat(refused.status()).isEqualTo(GrpcStatus.FAILED_PRECONDITION);
    assertThat(refused.message())
        .isEqualTo(
            "The namespace '"
                + parent
                + "' still has child namespaces and cannot be deleted. Delete its children"
                + " first.");
    assertThat(refused.trailers().get("namespace")).isEqualTo(parent);
    assertThat(countPseudonyms(parent)).isEqualTo(1);
    assertThat(get(parent).getName()).isEqualTo(parent);

    assertThat(delete(child).status()).isEqualTo(GrpcStatus.OK);
    assertThat(delete(parent).status()).isEqualTo(GrpcStatus.OK);
    assertThat(countPseudonyms(parent)).isZero();
  }

  @Test
  void withSha256TurnedOffNoNewSha256NamespaceOrValueIsMadeButStoredValuesAreAnswered() {
    String name = uniqueName();
    client.ok(
        NamespaceServiceGrpcClient.Create,
        request(name)
            .setPseudonymGenerationMethod(
                PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_SHA256_HEX_ENCODED)
            .setPseudonymLength(64)
            .build());
    String known = createPseudonym(name, "known");
    VfpsServer off =
        resources.own(
            TestService.start(
                Map.of(
                    "ConnectionStrings__PostgreSQL",
                    TestPostgres.uri(),
                    "Pseudonymization__Sha256__IsEnabled",
                    "false")));
    GrpcTestClient offClient = resources.own(new GrpcTestClient(off.grpcPort()));
    String refusal =
        "The pseudonym generation method '2' is no longer supported for creating new pseudonyms:"
            + " Pseudonymization__Sha256__IsEnabled is false.";

    Reply<?> created =
        offClient.call(
            NamespaceServiceGrpcClient.Create,
            request(uniqueName())
                .setPseudonymGenerationMethod(
                    PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_SHA256_HEX_ENCODED)
                .setPseudonymLength(64)
                .build());
    assertThat(created.status()).isEqualTo(GrpcStatus.FAILED_PRECONDITION);
    assertThat(created.message()).isEqualTo(refusal);

    assertThat(
            offClient
                .ok(
                    PseudonymServiceGrpcClient.Create,
                    PseudonymServiceCreateRequest.newBuilder()
                        .setNamespace(name)
                        .setOriginalValue("known")
                        .build())
                .getPseudonym()
                .getPseudonymValue())
        .isEqualTo(known);
    Reply<?> fresh =
        offClient.call(
            PseudonymServiceGrpcClient.Create,
            PseudonymServiceCreateRequest.newBuilder()
                .setNamespace(name)
                .setOriginalValue("new")
                .build());
    assertThat(fresh.status()).isEqualTo(GrpcStatus.FAILED_PRECONDITION);
    assertThat(fresh.message()).isEqualTo(refusal);
    Reply<?> batch =
        offClient.call(
            PseudonymServiceGrpcClient.BatchCreate,
            PseudonymServiceBatchCreateRequest.newBuilder()
                .setNamespace(name)
                .addOriginalValues("known")
                .addOriginalValues("new")
                .build());
    assertThat(batch.status()).isEqualTo(GrpcStatus.FAILED_PRECONDITION);
    assertThat(countPseudonyms(name)).isEqualTo(1);
  }

  @Test
  void aVoprfNamespaceOfTheDotnetServiceIsReadButMakesNoPseudonym() {
    String name = uniqueName();
    // as the .NET service 1.22 with a VOPRF server stores one; the regex is one RE2 lacks
    TestPostgres.execute(
        TestPostgres.database(),
        "INSERT INTO namespaces (name, pseudonym_generation_method, pseudonym_length,"
            + " original_value_validation_regex, created_at, last_updated_at)"
            + " VALUES ('"
            + name
            + "', 8, 86, '(a)\\1', now(), now())");

    Namespace read = get(name);
    assertThat(read.getPseudonymGenerationMethod()).isEqualTo(VOPRF);
    assertThat(read.getOriginalValueValidationRegex()).isEqualTo("(a)\\1");
    assertThat(read.hasDescription()).isFalse();
    Reply<?> created =
        client.call(
            PseudonymServiceGrpcClient.Create,
            PseudonymServiceCreateRequest.newBuilder()
                .setNamespace(name)
                .setOriginalValue("value")
                .build());
    // the regex is checked before the method, as 1.22 orders its checks
    assertThat(created.status()).isEqualTo(GrpcStatus.FAILED_PRECONDITION);
    assertThat(created.message())
        .startsWith("The namespace's original value validation regex cannot be used");
    assertThat(delete(name).status()).isEqualTo(GrpcStatus.OK);

    String plain = uniqueName();
    TestPostgres.execute(
        TestPostgres.database(),
        "INSERT INTO namespaces (name, pseudonym_generation_method, pseudonym_length,"
            + " created_at, last_updated_at) VALUES ('"
            + plain
            + "', 8, 86, now(), now())");
    Reply<?> withoutRegex =
        client.call(
            PseudonymServiceGrpcClient.Create,
            PseudonymServiceCreateRequest.newBuilder()
                .setNamespace(plain)
                .setOriginalValue("value")
                .build());
    assertThat(withoutRegex.status()).isEqualTo(GrpcStatus.FAILED_PRECONDITION);
    assertThat(withoutRegex.message()).isEqualTo(WITHOUT_VOPRF_SERVER);
    assertThat(delete(plain).status()).isEqualTo(GrpcStatus.OK);
  }

  /** The namespace as Get reads it, without the capacity that Get alone adds. */
  private static Namespace get(String name) {
    return client
        .ok(
            NamespaceServiceGrpcClient.Get,
            NamespaceServiceGetRequest.newBuilder().setName(name).build())
        .getNamespace()
        .toBuilder()
        .clearXCapacity()
        .build();
  }

  private static List<Namespace> getAll() {
    return client
        .ok(NamespaceServiceGrpcClient.GetAll, NamespaceServiceGetAllRequest.getDefaultInstance())
        .getNamespacesList();
  }

  private static List<Namespace> listChildren(String name) {
    return client
        .ok(
            NamespaceServiceGrpcClient.ListChildren,
            NamespaceServiceListChildrenRequest.newBuilder().setName(name).build())
        .getNamespacesList();
  }

  private static Reply<?> delete(String name) {
    return client.call(
        NamespaceServiceGrpcClient.Delete,
        NamespaceServiceDeleteRequest.newBuilder().setName(name).build());
  }

  private static String createPseudonym(String namespace, String originalValue) {
    return client
        .ok(
            PseudonymServiceGrpcClient.Create,
            PseudonymServiceCreateRequest.newBuilder()
                .setNamespace(namespace)
                .setOriginalValue(originalValue)
                .build())
        .getPseudonym()
        .getPseudonymValue();
  }

  private static long countPseudonyms(String namespace) {
    return TestPostgres.pseudonymCount(namespace);
  }
}
