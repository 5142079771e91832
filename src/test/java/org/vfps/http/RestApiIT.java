package org.vfps.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.ClassResources;
import org.vfps.GrpcTestClient;
import org.vfps.HttpTestClient;
import org.vfps.HttpTestClient.Response;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.api.v1.NamespaceServiceGetRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.PseudonymServiceGetRequest;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.namespace.TextLimits;
import org.vfps.server.VfpsServer;

/** The REST routes against the real service and PostgreSQL, compared field by field. */
class RestApiIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static final String SECURE_RANDOM =
      "PSEUDONYM_GENERATION_METHOD_SECURE_RANDOM_BASE64URL_ENCODED";
  private static final String UNSPECIFIED_MODE = "PARENT_VALIDATION_MODE_UNSPECIFIED";

  private static VfpsServer server;
  private static HttpTestClient http;

  @BeforeAll
  static void start() {
    server = resources.own(TestService.start());
    http = resources.own(new HttpTestClient(server.httpPort()));
  }

  static String uniqueName() {
    return "rest-" + UUID.randomUUID();
  }

  static String path(String segment) {
    return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static JsonObject createNamespace(String name, int length) {
    Response created =
        http.postJson(
            "/v1/namespaces",
            new JsonObject()
                .put("name", name)
                .put("pseudonymGenerationMethod", SECURE_RANDOM)
                .put("pseudonymLength", length)
                .encode());
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    return created.json().getJsonObject("namespace");
  }

  private static JsonObject createPseudonym(String namespace, String originalValue) {
    Response created =
        http.postJson(
            "/v1/namespaces/" + path(namespace) + "/pseudonyms",
            new JsonObject().put("originalValue", originalValue).encode());
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    return created.json().getJsonObject("pseudonym");
  }

  /** An RFC 3339 UTC timestamp of the last minute. */
  private static void assertRecentTimestamp(String text) {
    assertThat(text).endsWith("Z");
    assertThat(Instant.parse(text)).isBetween(Instant.now().minusSeconds(60), Instant.now());
  }

  @Test
  void createNamespaceAnswersTheNamespaceWithEveryFieldWritten() {
    String name = uniqueName();
    Response created =
        http.postJson(
            "/v1/namespaces",
            new JsonObject()
                .put("name", name)
                .put("pseudonymGenerationMethod", SECURE_RANDOM)
                .put("pseudonymLength", 32)
                .put("pseudonymPrefix", "stud-")
                .encode());

    assertThat(created.status()).isEqualTo(200);
    assertThat(created.contentType()).isEqualTo("application/json; charset=utf-8");
    JsonObject namespace = created.json().getJsonObject("namespace");
    JsonObject meta = namespace.getJsonObject("meta");
    assertRecentTimestamp(meta.getString("createdAt"));
    assertThat(meta.getString("lastUpdatedAt")).isEqualTo(meta.getString("createdAt"));
    assertThat(created.json())
        .isEqualTo(
            new JsonObject()
                .put(
                    "namespace",
                    new JsonObject()
                        .put("meta", meta)
                        .put("name", name)
                        .put("pseudonymGenerationMethod", SECURE_RANDOM)
                        .put("pseudonymLength", 32)
                        .put("pseudonymPrefix", "stud-")
                        .put("pseudonymSuffix", "")
                        .put("originalValueValidationRegex", "")
                        .put("allowsMultiplePseudonyms", false)
                        .put("parentValidationMode", UNSPECIFIED_MODE)));
    // an absent description and parent stay absent; the rest is written, defaults included
    assertThat(namespace.fieldNames())
        .containsExactly(
            "meta",
            "name",
            "pseudonymGenerationMethod",
            "pseudonymLength",
            "pseudonymPrefix",
            "pseudonymSuffix",
            "originalValueValidationRegex",
            "allowsMultiplePseudonyms",
            "parentValidationMode");
    assertThat(created.body()).contains("\"pseudonymLength\":32");
  }

  @Test
  void restAndGrpcSeeTheSameNamespace() {
    String name = uniqueName();
    JsonObject created = createNamespace(name, 16);

    Response read = http.get("/v1/namespaces/" + path(name));

    assertThat(read.status()).isEqualTo(200);
    JsonObject readNamespace = read.json().getJsonObject("namespace");
    // Get alone adds the capacity, counted now: no pseudonyms yet
    assertThat(withoutCapacity(readNamespace).getJsonObject("xCapacity").getLong("usedPseudonyms"))
        .isZero();
    assertThat(readNamespace).isEqualTo(created);
    try (GrpcTestClient grpc = new GrpcTestClient(server.grpcPort())) {
      org.vfps.api.v1.Namespace viaGrpc =
          grpc.ok(
                  NamespaceServiceGrpcClient.Get,
                  NamespaceServiceGetRequest.newBuilder().setName(name).build())
              .getNamespace();
      assertThat(ProtoJson.write(viaGrpc.toBuilder().clearXCapacity().build())).isEqualTo(created);
    }
  }

  @Test
  void createAcceptsProtoNamesEnumNumbersNullsAndUnknownFields() {
    String name = uniqueName();
    Response created =
        http.postJson(
            "/v1/namespaces",
            """
            {"name": "%s", "pseudonym_generation_method": 5, "pseudonym_length": 12,
             "pseudonym_prefix": "p-", "description": null, "comment": "not a field"}
            """
                .formatted(name));

    assertThat(created.status()).as(created.body()).isEqualTo(200);
    JsonObject namespace = created.json().getJsonObject("namespace");
    assertThat(namespace.getString("pseudonymGenerationMethod"))
        .isEqualTo("PSEUDONYM_GENERATION_METHOD_FULL_RANDOM_HEX_ENCODED");
    assertThat(namespace.getInteger("pseudonymLength")).isEqualTo(12);
    assertThat(namespace.getString("pseudonymPrefix")).isEqualTo("p-");
    assertThat(namespace.containsKey("description")).as("null is no description").isFalse();
  }

  @Test
  void createTakesAndAnswersTheFieldsOf122() {
    String parent = uniqueName();
    createNamespace(parent, 16);
    String name = uniqueName();
    Response created =
        http.postJson(
            "/v1/namespaces",
            new JsonObject()
                .put("name", name)
                .put(
                    "pseudonymGenerationMethod",
                    "PSEUDONYM_GENERATION_METHOD_FULL_RANDOM_BASE32_ENCODED")
                .put("pseudonymLength", 10)
                .put("description", "")
                .put("original_value_validation_regex", "^P[0-9]+$")
                .put("allowsMultiplePseudonyms", true)
                .put("parentName", parent)
                .put("parent_validation_mode", 1)
                .encode());

    assertThat(created.status()).as(created.body()).isEqualTo(200);
    JsonObject namespace = created.json().getJsonObject("namespace");
    assertThat(namespace.getString("description")).isEmpty();
    assertThat(namespace.getString("pseudonymGenerationMethod"))
        .isEqualTo("PSEUDONYM_GENERATION_METHOD_FULL_RANDOM_BASE32_ENCODED");
    assertThat(namespace.getString("originalValueValidationRegex")).isEqualTo("^P[0-9]+$");
    assertThat(namespace.getBoolean("allowsMultiplePseudonyms")).isTrue();
    assertThat(namespace.getString("parentName")).isEqualTo(parent);
    assertThat(namespace.getString("parentValidationMode"))
        .isEqualTo("PARENT_VALIDATION_MODE_ENSURE_EXISTS");
    JsonObject read = http.get("/v1/namespaces/" + path(name)).json().getJsonObject("namespace");
    withoutCapacity(read);
    assertThat(read).isEqualTo(namespace);
  }

  @Test
  void listChildrenAnswersTheDirectChildrenSortedByName() {
    String parent = uniqueName() + "/with a slash";
    createNamespace(parent, 16);
    JsonObject[] children = new JsonObject[2];
    for (int i = 1; i >= 0; i--) {
      Response created =
          http.postJson(
              "/v1/namespaces",
              new JsonObject()
                  .put("name", parent + "/child-" + i)
                  .put("pseudonymLength", 8)
                  .put("parentName", parent)
                  .encode());
      assertThat(created.status()).as(created.body()).isEqualTo(200);
      children[i] = created.json().getJsonObject("namespace");
    }

    Response listed = http.get("/v1/namespaces/" + path(parent) + "/children");

    assertThat(listed.status()).as(listed.body()).isEqualTo(200);
    assertThat(listed.json())
        .isEqualTo(
            new JsonObject().put("namespaces", new JsonArray().add(children[0]).add(children[1])));
    Response none = http.get("/v1/namespaces/" + path(parent + "/child-0") + "/children");
    assertThat(none.json()).isEqualTo(new JsonObject().put("namespaces", new JsonArray()));
    Response missing = http.get("/v1/namespaces/" + path(uniqueName()) + "/children");
    assertThat(missing.status()).isEqualTo(404);
    assertThat(missing.json().getInteger("code")).isEqualTo(5);
  }

  @Test
  void deletingANamespaceWithChildrenIsABadRequestWithTheErrorBody() {
    String parent = uniqueName();
    createNamespace(parent, 16);
    Response child =
        http.postJson(
            "/v1/namespaces",
            new JsonObject()
                .put("name", uniqueName())
                .put("pseudonymLength", 8)
                .put("parent_name", parent)
                .encode());
    assertThat(child.status()).as(child.body()).isEqualTo(200);

    Response refused = http.delete("/v1/namespaces/" + path(parent));

    assertThat(refused.status()).isEqualTo(400);
    assertThat(refused.json())
        .isEqualTo(
            new JsonObject()
                .put("code", 9)
                .put(
                    "message",
                    "The namespace '"
                        + parent
                        + "' still has child namespaces and cannot be deleted. Delete its"
                        + " children first.")
                .put("details", new JsonArray()));
  }

  @Test
  void getAllListsTheNamespace() {
    String name = uniqueName();
    JsonObject created = createNamespace(name, 16);

    Response all = http.get("/v1/namespaces");

    assertThat(all.status()).isEqualTo(200);
    assertThat(all.json().fieldNames()).containsExactly("namespaces");
    assertThat(all.json().getJsonArray("namespaces")).contains(created);
  }

  @Test
  void deleteAnswersAnEmptyObjectAndTheNamespaceIsGone() {
    String name = uniqueName();
    createNamespace(name, 16);
    createPseudonym(name, "to be deleted");

    Response deleted = http.delete("/v1/namespaces/" + path(name));

    assertThat(deleted.status()).isEqualTo(200);
    assertThat(deleted.body()).isEqualTo("{}");
    assertThat(http.get("/v1/namespaces/" + path(name)).status()).isEqualTo(404);
    assertThat(TestPostgres.pseudonymCount(name)).isZero();
  }

  @Test
  void missingNamespaceIsNotFoundWithTheErrorBody() {
    String name = uniqueName();

    for (Response response :
        List.of(
            http.get("/v1/namespaces/" + path(name)),
            http.delete("/v1/namespaces/" + path(name)),
            http.get("/v1/namespaces/" + path(name) + "/pseudonyms"),
            http.postJson(
                "/v1/namespaces/" + path(name) + "/pseudonyms", "{\"originalValue\": \"x\"}"))) {
      assertThat(response.status()).isEqualTo(404);
      assertThat(response.contentType()).isEqualTo("application/json; charset=utf-8");
      assertThat(response.json())
          .isEqualTo(
              new JsonObject()
                  .put("code", 5)
                  .put(
                      "message", "The requested pseudonym namespace '" + name + "' does not exist.")
                  .put("details", new JsonArray()));
    }
  }

  @Test
  void duplicateNamespaceIsAConflictWithCodeAlreadyExists() {
    String name = uniqueName();
    createNamespace(name, 16);

    Response again =
        http.postJson(
            "/v1/namespaces",
            new JsonObject().put("name", name).put("pseudonymLength", 8).encode());

    assertThat(again.status()).isEqualTo(409);
    assertThat(again.json().getInteger("code")).isEqualTo(6);
    assertThat(again.json().getJsonArray("details")).isEmpty();
  }

  @Test
  void badLengthsAreOutOfRangeAnswered400() {
    for (String body :
        List.of(
            "{\"name\": \"%s\", \"pseudonymLength\": 0}",
            "{\"name\": \"%s\", \"pseudonymLength\": 16,"
                + " \"pseudonymGenerationMethod\": \"PSEUDONYM_GENERATION_METHOD_UUID4\"}")) {
      String name = uniqueName();
      Response rejected = http.postJson("/v1/namespaces", body.formatted(name));

      assertThat(rejected.status()).as(body).isEqualTo(400);
      assertThat(rejected.json().getInteger("code")).isEqualTo(11);
      assertThat(http.get("/v1/namespaces/" + path(name)).status()).isEqualTo(404);
    }
  }

  @Test
  void pseudonymCreateIsIdempotentAndGetReturnsTheOriginalValue() {
    String name = uniqueName();
    createNamespace(name, 32);

    JsonObject first = createPseudonym(name, "hello world");
    JsonObject second = createPseudonym(name, "hello world");

    assertThat(second).isEqualTo(first);
    assertThat(first.fieldNames())
        .containsExactly("meta", "namespace", "originalValue", "pseudonymValue", "sequenceNumber");
    assertThat(first.getValue("sequenceNumber")).isEqualTo(0);
    assertRecentTimestamp(first.getJsonObject("meta").getString("createdAt"));
    assertThat(first.getString("namespace")).isEqualTo(name);
    assertThat(first.getString("originalValue")).isEqualTo("hello world");
    assertThat(first.getString("pseudonymValue")).hasSize(54);
    assertThat(TestPostgres.pseudonymCount(name)).isEqualTo(1);

    Response read =
        http.get(
            "/v1/namespaces/"
                + path(name)
                + "/pseudonyms/"
                + path(first.getString("pseudonymValue")));
    assertThat(read.status()).isEqualTo(200);
    assertThat(read.json()).isEqualTo(new JsonObject().put("pseudonym", first));
    try (GrpcTestClient grpc = new GrpcTestClient(server.grpcPort())) {
      assertThat(
              ProtoJson.write(
                  grpc.ok(
                          PseudonymServiceGrpcClient.Get,
                          PseudonymServiceGetRequest.newBuilder()
                              .setNamespace(name)
                              .setPseudonymValue(first.getString("pseudonymValue"))
                              .build())
                      .getPseudonym()))
          .isEqualTo(first);
    }
  }

  @Test
  void theNamespaceInThePathWinsOverOneInTheBody() {
    String name = uniqueName();
    String other = uniqueName();
    createNamespace(name, 16);
    createNamespace(other, 16);

    Response created =
        http.postJson(
            "/v1/namespaces/" + path(name) + "/pseudonyms",
            new JsonObject().put("namespace", other).put("originalValue", "x").encode());

    assertThat(created.status()).isEqualTo(200);
    assertThat(created.json().getJsonObject("pseudonym").getString("namespace")).isEqualTo(name);
    assertThat(TestPostgres.pseudonymCount(other)).isZero();
  }

  @Test
  void unknownPseudonymIsNotFound() {
    String name = uniqueName();
    createNamespace(name, 16);

    Response missing = http.get("/v1/namespaces/" + path(name) + "/pseudonyms/nothing-here");

    assertThat(missing.status()).isEqualTo(404);
    assertThat(missing.json().getInteger("code")).isEqualTo(5);
    assertThat(missing.json().getString("message"))
        .isEqualTo("The requested pseudonym does not exist in the namespace.");
  }

  private static Response batch(
      String namespace, String method, String field, List<String> values) {
    return http.postJson(
        "/v1/namespaces/" + path(namespace) + "/pseudonyms:" + method,
        new JsonObject().put(field, new JsonArray(new ArrayList<>(values))).encode());
  }

  private static List<String> fieldOfEach(Response response, String field) {
    return response.json().getJsonArray("pseudonyms").stream()
        .map(pseudonym -> ((JsonObject) pseudonym).getString(field))
        .toList();
  }

  @Test
  void batchCreateAndBatchGetAnswerInRequestOrderWithTheSinglePseudonyms() {
    String name = uniqueName();
    createNamespace(name, 16);
    JsonObject single = createPseudonym(name, "a");

    Response created = batch(name, "batchCreate", "originalValues", List.of("b", "a", "b"));
    List<String> pseudonyms = fieldOfEach(created, "pseudonymValue");
    Response found =
        batch(name, "batchGet", "pseudonymValues", List.of(pseudonyms.get(1), pseudonyms.get(0)));

    assertThat(created.status()).as(created.body()).isEqualTo(200);
    assertThat(created.json().fieldNames()).containsExactly("namespace", "pseudonyms");
    assertThat(created.json().getString("namespace")).isEqualTo(name);
    assertThat(fieldOfEach(created, "originalValue")).containsExactly("b", "a", "b");
    assertThat(pseudonyms.get(1)).isEqualTo(single.getString("pseudonymValue"));
    assertThat(pseudonyms.get(2)).isEqualTo(pseudonyms.get(0)).isNotEqualTo(pseudonyms.get(1));
    assertThat(found.status()).as(found.body()).isEqualTo(200);
    assertThat(found.json().getString("namespace")).isEqualTo(name);
    assertThat(fieldOfEach(found, "originalValue")).containsExactly("a", "b");
    assertThat(fieldOfEach(found, "pseudonymValue"))
        .containsExactly(pseudonyms.get(1), pseudonyms.get(0));
    assertThat(TestPostgres.pseudonymCount(name)).isEqualTo(2);
  }

  @Test
  void badBatchesAreRejectedWithTheErrorBodyAndStoreNothing() {
    String name = uniqueName();
    createNamespace(name, 16);
    List<String> tooMany = new ArrayList<>();
    for (int i = 0; i <= 10_000; i++) {
      tooMany.add("v" + i);
    }

    Response blank = batch(name, "batchCreate", "originalValues", List.of("fine", "", "fine"));
    Response over = batch(name, "batchCreate", "originalValues", tooMany);
    String unknownName = uniqueName();
    Response unknown = batch(unknownName, "batchCreate", "originalValues", List.of("x"));
    Response missing = batch(name, "batchGet", "pseudonymValues", List.of("nothing-here"));
    Response notAMethod = batch(name, "batchCreateX", "originalValues", List.of("x"));

    assertThat(blank.status()).isEqualTo(400);
    assertThat(blank.json())
        .isEqualTo(
            new JsonObject()
                .put("code", 3)
                .put("message", "The original value 2 of 3 must not be blank.")
                .put("details", new JsonArray()));
    assertThat(over.status()).isEqualTo(400);
    assertThat(over.json().getString("message"))
        .isEqualTo(
            "A batch holds at most 10000 values (Pseudonymization__Batch__MaxSize), not 10001.");
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.json().getInteger("code")).isEqualTo(5);
    assertThat(unknown.json().getString("message"))
        .isEqualTo("The requested pseudonym namespace '" + unknownName + "' does not exist.");
    assertThat(missing.status()).isEqualTo(404);
    assertThat(missing.json().getString("message"))
        .isEqualTo("The pseudonym 1 of 1 does not exist in the namespace '" + name + "'.");
    assertThat(notAMethod.status()).isEqualTo(404);
    assertThat(TestPostgres.pseudonymCount(name)).isZero();
  }

  @Test
  void namesWithSlashesPlusSignsAndUnicodeTravelPercentEncoded() {
    String name = "https://example.org/fhir/a+b ü-" + UUID.randomUUID();
    createNamespace(name, 16);
    JsonObject pseudonym = createPseudonym(name, "value");

    Response read = http.get("/v1/namespaces/" + path(name));
    assertThat(read.json().getJsonObject("namespace").getString("name")).isEqualTo(name);
    assertThat(pseudonym.getString("namespace")).isEqualTo(name);
    assertThat(http.get("/v1/namespaces/" + path(name) + "/pseudonyms").status()).isEqualTo(200);
    assertThat(http.delete("/v1/namespaces/" + path(name)).status()).isEqualTo(200);
  }

  @Test
  void listNeverCarriesOriginalValuesAndWritesTotalSizeAsANumber() {
    String name = uniqueName();
    createNamespace(name, 16);
    createPseudonym(name, "one");
    createPseudonym(name, "two");

    Response listed =
        http.get("/v1/namespaces/" + path(name) + "/pseudonyms?include_total_size=true");

    assertThat(listed.status()).isEqualTo(200);
    assertThat(listed.body()).contains("\"totalSize\":2").doesNotContain("originalValue");
    JsonObject page = listed.json();
    assertThat(page.fieldNames())
        .containsExactly("namespace", "totalSize", "nextPageToken", "pseudonyms");
    assertThat(page.getString("namespace")).isEqualTo(name);
    assertThat(page.getValue("totalSize")).isInstanceOf(Number.class);
    assertThat(page.getString("nextPageToken")).isEmpty();
    assertThat(page.getJsonArray("pseudonyms")).hasSize(2);
    JsonObject item = page.getJsonArray("pseudonyms").getJsonObject(0);
    assertThat(item.fieldNames())
        .containsExactly("meta", "namespace", "pseudonymValue", "sequenceNumber");

    Response withoutTotal = http.get("/v1/namespaces/" + path(name) + "/pseudonyms");
    assertThat(withoutTotal.json().fieldNames())
        .containsExactly("namespace", "nextPageToken", "pseudonyms");
  }

  @Test
  void listPagesThroughEveryPseudonymWithEitherParameterSpelling() {
    String name = uniqueName();
    createNamespace(name, 16);
    Set<String> created = new HashSet<>();
    for (int i = 0; i < 7; i++) {
      created.add(createPseudonym(name, "value-" + i).getString("pseudonymValue"));
    }

    for (String[] spelling :
        List.of(
            new String[] {"page_size", "page_token", "include_total_size"},
            new String[] {"pageSize", "pageToken", "includeTotalSize"})) {
      List<String> seen = new ArrayList<>();
      String token = "";
      int pages = 0;
      do {
        Response page =
            http.get(
                "/v1/namespaces/"
                    + path(name)
                    + "/pseudonyms?"
                    + spelling[0]
                    + "=3&"
                    + spelling[2]
                    + "=true"
                    + (token.isEmpty() ? "" : "&" + spelling[1] + "=" + path(token)));
        assertThat(page.status()).as(page.body()).isEqualTo(200);
        assertThat(page.json().getLong("totalSize")).isEqualTo(7);
        page.json()
            .getJsonArray("pseudonyms")
            .forEach(item -> seen.add(((JsonObject) item).getString("pseudonymValue")));
        token = page.json().getString("nextPageToken");
        pages++;
      } while (!token.isEmpty() && pages < 10);

      assertThat(pages).as(spelling[0]).isEqualTo(3);
      assertThat(seen).hasSize(7).containsExactlyInAnyOrderElementsOf(created);
    }
  }

  /**
   * Page tokens are padded to one length; the longest request line, a namespace name of 256 bytes
   * that all need escaping and such a token, still fits what the server reads.
   */
  @Test
  void pageTokensHaveOneLengthAndFitTheLongestNamespaceName() {
    StringBuilder unique = new StringBuilder();
    for (char digit : UUID.randomUUID().toString().replace("-", "").toCharArray()) {
      unique.append((char) ('À' + Character.digit(digit, 16)));
    }
    String name = unique + "é".repeat(TextLimits.MAX_NAME_BYTES / 2 - unique.length());
    createNamespace(name, 16);
    int max = TextLimits.MAX_ORIGINAL_VALUE_BYTES;
    Set<String> created = new HashSet<>();
    for (String original : List.of("a", "b".repeat(max), "👷".repeat(max / 4), "patient-4711")) {
      created.add(createPseudonym(name, original).getString("pseudonymValue"));
    }

    Set<Integer> lengths = new HashSet<>();
    List<String> seen = new ArrayList<>();
    String token = "";
    do {
      Response page =
          http.get(
              "/v1/namespaces/"
                  + path(name)
                  + "/pseudonyms?pageSize=1&includeTotalSize=true"
                  + (token.isEmpty() ? "" : "&pageToken=" + token));
      assertThat(page.status()).as(page.body()).isEqualTo(200);
      page.json()
          .getJsonArray("pseudonyms")
          .forEach(item -> seen.add(((JsonObject) item).getString("pseudonymValue")));
      token = page.json().getString("nextPageToken");
      if (!token.isEmpty()) {
        lengths.add(token.length());
      }
    } while (!token.isEmpty() && seen.size() <= created.size());

    assertThat(seen).containsExactlyInAnyOrderElementsOf(created);
    assertThat(lengths).as("page token lengths").hasSize(1);
    assertThat(http.delete("/v1/namespaces/" + path(name)).status()).isEqualTo(200);
  }

  @Test
  void aTamperedPageTokenIsInvalidArgument() {
    String name = uniqueName();
    createNamespace(name, 16);

    Response listed = http.get("/v1/namespaces/" + path(name) + "/pseudonyms?pageToken=abc_def");

    assertThat(listed.status()).isEqualTo(400);
    assertThat(listed.json().getInteger("code")).isEqualTo(3);
  }

  @Test
  void aFailedRequestNamesTheUnknownBodyFieldsAMisspellingLeftBehind() {
    String name = uniqueName();

    Response misspeltLength =
        http.postJson(
            "/v1/namespaces",
            new JsonObject()
                .put("name", name)
                .put("pseudonymLenght", 16)
                .put("pseudonymGenerationMethod", "PSEUDONYM_GENERATION_METHOD_UUID4")
                .encode());
    Response fine =
        http.postJson(
            "/v1/namespaces",
            new JsonObject()
                .put("name", name)
                .put("pseudonymLength", 16)
                .put("comment", "ignored, as the .NET service ignores it")
                .encode());
    Response misspeltValue =
        http.postJson(
            "/v1/namespaces/" + path(name) + "/pseudonyms",
            new JsonObject().put("orignalValue", "x").put("originalvalue", "y").encode());
    Response misspeltAndMissing =
        http.postJson(
            "/v1/namespaces/" + path(uniqueName()) + "/pseudonyms:batchCreate",
            new JsonObject().put("originalValues", new JsonArray().add("a")).put("x", 1).encode());

    assertThat(misspeltLength.status()).isEqualTo(400);
    assertThat(misspeltLength.json().getString("message"))
        .endsWith(" The request body's field 'pseudonymLenght' is unknown and was ignored.");
    assertThat(misspeltValue.status()).isEqualTo(400);
    assertThat(misspeltValue.json().getString("message"))
        .endsWith(
            " The request body's fields 'orignalValue', 'originalvalue' are unknown and were"
                + " ignored.");
    assertThat(fine.status()).as(fine.body()).isEqualTo(200);
    assertThat(misspeltAndMissing.status()).isEqualTo(404);
    assertThat(misspeltAndMissing.json().getString("message"))
        .startsWith("The requested pseudonym namespace '")
        .endsWith("' does not exist. The request body's field 'x' is unknown and was ignored.");
  }

  @Test
  void unknownPathsAndMethodsAnswerWithTheErrorBody() {
    Response unknown = http.get("/v2/nothing");
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.contentType()).isEqualTo("application/json; charset=utf-8");
    assertThat(unknown.json().getInteger("code")).isEqualTo(5);
    assertThat(unknown.json().getJsonArray("details")).isEmpty();

    Response wrongMethod = http.method("PUT", "/v1/namespaces");
    assertThat(wrongMethod.status()).isEqualTo(405);
    assertThat(wrongMethod.json().getInteger("code")).isEqualTo(12);
  }

  /**
   * Takes the capacity that Get alone adds out of {@code namespace}; returns what it took, as
   * {@code {"xCapacity": ...}}.
   */
  private static JsonObject withoutCapacity(JsonObject namespace) {
    Object capacity = namespace.remove("xCapacity");
    assertThat(capacity).isInstanceOf(JsonObject.class);
    return new JsonObject().put("xCapacity", capacity);
  }
}
