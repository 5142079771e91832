package org.vfps.http;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import io.vertx.core.json.JsonObject;
import io.vertx.core.json.pointer.JsonPointer;
import io.vertx.json.schema.Draft;
import io.vertx.json.schema.JsonSchema;
import io.vertx.json.schema.JsonSchemaOptions;
import io.vertx.json.schema.SchemaRepository;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.vfps.ClassResources;
import org.vfps.HttpTestClient;
import org.vfps.HttpTestClient.Response;
import org.vfps.LogCapture;
import org.vfps.TestService;
import org.vfps.log.EdgeWarnings;
import org.vfps.server.VfpsServer;
import org.vfps.text.MediaType;

/**
 * The service answers as its OpenAPI contract says, in the points schemathesis found: the media
 * types of the FHIR replies, the {@code Allow} header of a 405, path parameters taken as the text
 * they are, query values decoded once, and request bodies the served contract allows exactly when
 * the service accepts them.
 */
class ContractConformanceIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static final String SUFFIX = UUID.randomUUID().toString().substring(0, 8);

  /** Where the served contract is kept in the schema repository. */
  private static final String SERVED = "https://vfps.invalid/openapi.json";

  private static JsonObject served;
  private static SchemaRepository schemas;
  private static VfpsServer server;
  private static HttpTestClient http;

  @RegisterExtension final LogCapture logs = LogCapture.of("org.vfps");

  @BeforeAll
  static void start() {
    server = resources.own(TestService.start());
    http = resources.own(new HttpTestClient(server.httpPort()));
    served = http.get("/openapi.json").json();
    schemas =
        SchemaRepository.create(
                new JsonSchemaOptions().setDraft(Draft.DRAFT202012).setBaseUri(SERVED))
            .dereference(SERVED, JsonSchema.of(served.copy()));
  }

  /** The media types the served contract names for an operation's response of this status. */
  private static List<String> declaredMediaTypes(String path, String method, int status) {
    JsonObject responses =
        http.get("/openapi.json")
            .json()
            .getJsonObject("paths")
            .getJsonObject(path)
            .getJsonObject(method)
            .getJsonObject("responses");
    JsonObject response =
        responses.getJsonObject(Integer.toString(status), responses.getJsonObject("default"));
    return List.copyOf(response.getJsonObject("content").fieldNames());
  }

  @Test
  void fhirRepliesHaveTheMediaTypeTheContractDeclares() {
    Response metadata = http.get("/v1/fhir/metadata");
    assertThat(metadata.status()).isEqualTo(200);
    assertThat(declaredMediaTypes("/v1/fhir/metadata", "get", 200))
        .contains(MediaType.of(metadata.contentType()).type());

    String parameters =
        new JsonObject()
            .put("resourceType", "Parameters")
            .put(
                "parameter",
                List.of(
                    Map.of("name", "namespace", "valueString", "missing-" + SUFFIX),
                    Map.of("name", "originalValue", "valueString", "x")))
            .encode();
    for (String requestType : List.of("application/fhir+json", "application/json")) {
      Response outcome =
          http.post(
              "/v1/fhir/$create-pseudonym",
              requestType,
              parameters.getBytes(StandardCharsets.UTF_8));
      assertThat(outcome.status()).isEqualTo(404);
      assertThat(declaredMediaTypes("/v1/fhir/$create-pseudonym", "post", 404))
          .contains(MediaType.of(outcome.contentType()).type());
    }
  }

  @Test
  void aMethodNotAllowedNamesTheAllowedOnes() {
    Map<String, String> allowed =
        Map.of(
            "/v1/namespaces", "GET, POST",
            "/v1/namespaces/some-name", "DELETE, GET",
            "/v1/namespaces/some-name/children", "GET",
            "/v1/namespaces/some-name/pseudonyms", "GET, POST",
            "/v1/namespaces/some-name/pseudonyms/some-value", "GET",
            "/v1/fhir/metadata", "GET",
            "/livez", "GET");
    allowed.forEach(
        (path, methods) -> {
          Response response = http.method("PUT", path);
          assertThat(response.status()).as(path).isEqualTo(405);
          assertThat(response.headers().firstValue("Allow")).as(path).contains(methods);
          if (path.startsWith("/v1/fhir/")) {
            // a FHIR base answers as FHIR
            assertThat(response.json().getString("resourceType")).isEqualTo("OperationOutcome");
          } else {
            assertThat(response.json().getInteger("code")).isEqualTo(12);
          }
        });
  }

  /** Names the contract allows (any string), some of which look like JSON or hold escapes. */
  @ParameterizedTest
  @ValueSource(strings = {"back\\slash", "a\"quote", "tab\tand\u0001control", "-1", "1.5", "[1]"})
  void pathParametersAreTakenAsTheTextTheyAre(String prefix) {
    String name = prefix + "-" + SUFFIX;
    createNamespace(name);
    String path = "/v1/namespaces/" + URLEncoder.encode(name, StandardCharsets.UTF_8);
    try {
      Response found = http.get(path);
      assertThat(found.status()).as(found.body()).isEqualTo(200);
      assertThat(found.json().getJsonObject("namespace").getString("name")).isEqualTo(name);

      Response pseudonym = http.postJson(path + "/pseudonyms", "{\"originalValue\": \"x\"}");
      assertThat(pseudonym.status()).as(pseudonym.body()).isEqualTo(200);
      String value = pseudonym.json().getJsonObject("pseudonym").getString("pseudonymValue");
      Response byValue =
          http.get(path + "/pseudonyms/" + URLEncoder.encode(value, StandardCharsets.UTF_8));
      assertThat(byValue.status()).as(byValue.body()).isEqualTo(200);
    } finally {
      assertThat(http.delete(path).status()).isEqualTo(200);
    }
  }

  /** A request body, and the HTTP status and gRPC code the service answers it with. */
  private record Sent(String body, int status, int code) {

    static Sent accepted(JsonObject body) {
      return new Sent(body.encode(), 200, 0);
    }

    static Sent rejected(JsonObject body, int code) {
      return new Sent(body.encode(), 400, code);
    }

    @Override
    public String toString() {
      return body;
    }
  }

  /**
   * The served contract allows each body exactly when the service accepts it (schemathesis's
   * positive and negative checks): the service's own rules are in the contract, and where the
   * service checks a rule itself its code stays (11 {@code OUT_OF_RANGE} for a pseudonym length).
   */
  private static void assertAllowedExactlyWhenAccepted(
      String operationId, String path, List<Sent> bodies) {
    for (Sent sent : bodies) {
      assertThat(allowedByContract(operationId, sent.body()))
          .as("the contract allows " + sent)
          .isEqualTo(sent.status() == 200);
      Response response = http.postJson(path, sent.body());
      assertThat(response.status()).as(sent + " -> " + response.body()).isEqualTo(sent.status());
      if (sent.status() != 200 && !path.contains("/fhir/")) {
        assertThat(response.json().getInteger("code")).as(sent.toString()).isEqualTo(sent.code());
      }
    }
  }

  @Test
  void aNamespaceBodyIsAllowedExactlyWhenAccepted() {
    String name = "namespace-body-" + SUFFIX;
    // a name of no-break spaces is not blank (Java's String.isBlank), one of U+001C is
    String noBreakSpaces = "\u00a0\u2007\u202f".repeat(3);
    http.delete("/v1/namespaces/" + URLEncoder.encode(noBreakSpaces, StandardCharsets.UTF_8));
    List<Sent> bodies =
        List.of(
            Sent.accepted(new JsonObject().put("name", name + 1).put("pseudonym_length", 16)),
            Sent.rejected(
                new JsonObject()
                    .put("name", name + 2)
                    .put("pseudonymLength", 16)
                    .put("pseudonym_length", 16),
                3),
            Sent.rejected(new JsonObject().put("", 0.0), 3),
            Sent.rejected(new JsonObject().put("name", " \t\n").put("pseudonymLength", 16), 3),
            Sent.rejected(new JsonObject().put("name", "\u001c").put("pseudonymLength", 16), 3),
            Sent.accepted(new JsonObject().put("name", noBreakSpaces).put("pseudonymLength", 16)),
            Sent.rejected(
                new JsonObject().put("name", name + "\u0000").put("pseudonymLength", 16), 3),
            Sent.rejected(
                new JsonObject().put("name", "n".repeat(257)).put("pseudonymLength", 16), 3),
            Sent.rejected(new JsonObject().put("name", name + 3), 11),
            Sent.rejected(new JsonObject().put("name", name + 3).putNull("pseudonymLength"), 11),
            Sent.rejected(new JsonObject().put("name", name + 3).put("pseudonymLength", 0), 11),
            Sent.rejected(new JsonObject().put("name", name + 3).put("pseudonymLength", 1025), 11),
            Sent.rejected(
                new JsonObject()
                    .put("name", name + 3)
                    .put("pseudonymGenerationMethod", "PSEUDONYM_GENERATION_METHOD_UUID4")
                    .put("pseudonymLength", 16),
                11),
            Sent.accepted(
                new JsonObject()
                    .put("name", name + 4)
                    .put("pseudonym_generation_method", 4)
                    .put("pseudonym_length", 36)),
            Sent.accepted(
                new JsonObject()
                    .put("name", name + 5)
                    .put("pseudonymGenerationMethod", 2)
                    .put("pseudonymLength", 64)),
            Sent.accepted(
                new JsonObject()
                    .put("name", name + 8)
                    .put("pseudonymGenerationMethod", 7)
                    .put("pseudonymLength", 16)
                    .put("originalValueValidationRegex", "^[0-9]+$")
                    .put("allowsMultiplePseudonyms", true)),
            Sent.rejected(
                new JsonObject()
                    .put("name", name + 6)
                    .put("pseudonymGenerationMethod", 9)
                    .put("pseudonymLength", 16),
                3),
            Sent.rejected(
                new JsonObject()
                    .put("name", name + 6)
                    .put("pseudonymGenerationMethod", "PSEUDONYM_GENERATION_METHOD_VOPRF")
                    .put("pseudonymLength", 86),
                9),
            Sent.rejected(
                new JsonObject()
                    .put("name", name + 6)
                    .put("pseudonymLength", 16)
                    .put("parent_validation_mode", 1),
                3),
            Sent.rejected(
                new JsonObject()
                    .put("name", name + 6)
                    .put("pseudonymLength", 16)
                    .put("parentValidationMode", "PARENT_VALIDATION_MODE_ENSURE_EXISTS")
                    .put("parentName", ""),
                3),
            Sent.rejected(
                new JsonObject()
                    .put("name", name + 6)
                    .put("pseudonymLength", 16)
                    .put("parentName", "p")
                    .put("parent_name", "p"),
                3),
            Sent.rejected(
                new JsonObject()
                    .put("name", name + 6)
                    .put("pseudonymLength", 16)
                    .put("originalValueValidationRegex", "x".repeat(1025)),
                3),
            Sent.rejected(
                new JsonObject()
                    .put("name", name + 6)
                    .put("pseudonymLength", 16)
                    .put("pseudonymPrefix", "p\u0000"),
                3),
            Sent.rejected(
                new JsonObject()
                    .put("name", name + 6)
                    .put("pseudonymLength", 16)
                    .put("description", "d".repeat(4097)),
                3),
            Sent.accepted(
                new JsonObject()
                    .put("name", name + 7)
                    .put("pseudonymLength", 1024)
                    .putNull("description")
                    .putNull("pseudonymSuffix")
                    .put("unknown", new JsonObject().put("x", List.of(1)))));
    try {
      assertAllowedExactlyWhenAccepted("NamespaceService_Create", "/v1/namespaces", bodies);
    } finally {
      for (String created :
          List.of(name + 1, noBreakSpaces, name + 4, name + 5, name + 7, name + 8)) {
        http.delete("/v1/namespaces/" + URLEncoder.encode(created, StandardCharsets.UTF_8));
      }
    }
  }

  @Test
  void anAlphabetNamespaceBodyIsAllowedExactlyWhenAccepted() {
    String name = "alphabet-body-" + SUFFIX + "-";
    JsonObject damm =
        new JsonObject()
            .put("alphabet", "0123456789")
            .put("checkDigit", "CHECK_DIGIT_DAMM")
            .put("groupSize", 4)
            .put("groupDelimiter", "-");
    List<Sent> bodies =
        List.of(
            Sent.accepted(alphabetNamespace(name + 1).put("xFormat", damm)),
            Sent.accepted(
                new JsonObject()
                    .put("name", name + 2)
                    .put("pseudonym_generation_method", 1000)
                    .put("pseudonym_length", 12)
                    .put(
                        "x_format",
                        new JsonObject()
                            .put("alphabet", "ACDEFGHJKLMNPQRTUVWXYZ0123456789")
                            .put("check_digit", 1)
                            .put("group_size", 3)
                            .put("group_delimiter", "."))),
            Sent.accepted(
                alphabetNamespace(name + 3)
                    .put(
                        "xFormat",
                        new JsonObject()
                            .put("alphabet", "0123456789ABCDEF")
                            .putNull("checkDigit"))),
            Sent.accepted(
                new JsonObject()
                    .put("name", name + 5)
                    .put("pseudonymLength", 16)
                    .putNull("xFormat")),
            Sent.rejected(
                alphabetNamespace(name + 4).put("xFormat", damm).put("x_format", damm), 3),
            Sent.rejected(
                alphabetNamespace(name + 4).put("xFormat", damm.copy().put("group_size", 4)), 3),
            Sent.rejected(
                alphabetNamespace(name + 4).put("xFormat", new JsonObject().put("alphabet", "0")),
                3),
            Sent.rejected(
                alphabetNamespace(name + 4)
                    .put("xFormat", damm.copy().put("alphabet", "0123456789ABCDEF")),
                3),
            Sent.rejected(
                alphabetNamespace(name + 4).put("xFormat", damm.copy().put("checkDigit", "LUHN")),
                3),
            Sent.rejected(
                alphabetNamespace(name + 4).put("xFormat", damm.copy().put("groupSize", 1025)), 3),
            Sent.rejected(
                alphabetNamespace(name + 4)
                    .put("xFormat", damm.copy().put("groupDelimiter", "-".repeat(9))),
                3));
    try {
      assertAllowedExactlyWhenAccepted("NamespaceService_Create", "/v1/namespaces", bodies);
    } finally {
      for (int created : List.of(1, 2, 3, 5)) {
        http.delete("/v1/namespaces/" + name + created);
      }
    }
  }

  /** A create request of an alphabet namespace of 12 drawn characters, without its format. */
  private static JsonObject alphabetNamespace(String name) {
    return new JsonObject()
        .put("name", name)
        .put("pseudonymGenerationMethod", "PSEUDONYM_GENERATION_METHOD_X_SECURE_RANDOM_ALPHABET")
        .put("pseudonymLength", 12);
  }

  @Test
  void pseudonymBodiesAreAllowedExactlyWhenAccepted() {
    String namespace = "pseudonym-bodies-" + SUFFIX;
    createNamespace(namespace);
    String pseudonyms = "/v1/namespaces/" + namespace + "/pseudonyms";
    try {
      assertAllowedExactlyWhenAccepted(
          "PseudonymService_Create",
          pseudonyms,
          List.of(
              Sent.accepted(new JsonObject().put("original_value", "x")),
              Sent.rejected(
                  new JsonObject().put("originalValue", "x").put("original_value", "x"), 3),
              Sent.rejected(
                  new JsonObject().put("originalValue", "x").putNull("original_value"), 3),
              Sent.rejected(new JsonObject(), 3),
              Sent.rejected(new JsonObject().putNull("originalValue"), 3),
              Sent.rejected(new JsonObject().put("originalValue", " \n"), 3),
              Sent.rejected(new JsonObject().put("originalValue", "a\u0000"), 3),
              Sent.rejected(new JsonObject().put("originalValue", "o".repeat(2049)), 3),
              Sent.accepted(
                  new JsonObject()
                      .put("originalValue", "y")
                      .put("namespace", "elsewhere")
                      .put("&", new JsonObject().put("J", 1)))));
      assertAllowedExactlyWhenAccepted(
          "PseudonymService_BatchCreate",
          pseudonyms + ":batchCreate",
          List.of(
              Sent.rejected(
                  new JsonObject().put("originalValues", List.of("a")).putNull("original_values"),
                  3),
              Sent.rejected(new JsonObject().put("original_values", List.of("a", " ")), 3),
              Sent.rejected(new JsonObject().put("original_values", List.of("a\u0000")), 3),
              Sent.accepted(new JsonObject()),
              Sent.accepted(new JsonObject().putNull("originalValues").putNull("namespace")),
              Sent.accepted(new JsonObject().put("originalValues", List.of("a", "a")))));
      assertAllowedExactlyWhenAccepted(
          "PseudonymService_BatchGet",
          pseudonyms + ":batchGet",
          List.of(
              Sent.rejected(
                  new JsonObject().put("pseudonymValues", List.of()).putNull("pseudonym_values"),
                  3),
              Sent.accepted(new JsonObject().put("pseudonym_values", List.of())),
              Sent.accepted(new JsonObject().putNull("pseudonymValues"))));
      assertAllowedExactlyWhenAccepted(
          "Fhir_CreatePseudonym",
          "/v1/fhir/$create-pseudonym",
          List.of(
              Sent.accepted(fhirParameters(namespace, "x")),
              Sent.rejected(fhirParameters(namespace, "x", namespace), 0),
              Sent.rejected(fhirParameters(namespace, " "), 0),
              Sent.rejected(fhirParameters(namespace, "a\u0000"), 0),
              Sent.rejected(fhirParameters("", "x"), 0)));
    } finally {
      http.delete("/v1/namespaces/" + namespace);
    }
  }

  /**
   * The MII and gPAS operations' bodies: the parameters each takes by name, each as often and of
   * the value type it takes; the contract allows a body exactly when the service accepts it.
   */
  @Test
  void fhirOperationBodiesAreAllowedExactlyWhenAccepted() {
    String namespace = "fhir-bodies-" + SUFFIX;
    createNamespace(namespace);
    Response created =
        http.postJson("/v1/namespaces/" + namespace + "/pseudonyms", "{\"originalValue\": \"x\"}");
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    JsonObject context = identifier(namespace);
    JsonObject original = identifier("x");
    try {
      assertAllowedExactlyWhenAccepted(
          "Fhir_GetPseudonym",
          "/v1/fhir/$get-pseudonym",
          List.of(
              Sent.accepted(parameters("context", context, "original", original)),
              Sent.accepted(parameters("target", namespace, "original", original)),
              Sent.accepted(parameters("original", "x", "target", context)),
              Sent.rejected(
                  parameters("context", context, "target", namespace, "original", "x"), 0),
              Sent.rejected(parameters("context", namespace, "original", original), 0),
              Sent.rejected(parameters("context", context, "original", "x"), 0),
              Sent.rejected(
                  parameters("context", context, "original", original, "original", original), 0),
              Sent.rejected(parameters("original", original), 0),
              Sent.rejected(
                  parameters("context", new JsonObject().put("system", "s"), "original", original),
                  0),
              Sent.rejected(parameters("target", namespace, "original", ""), 0)));
      assertAllowedExactlyWhenAccepted(
          "Fhir_PseudonymizeMultiple",
          "/v1/fhir/$pseudonymize-multiple",
          List.of(
              Sent.accepted(parameters("context", context, "original", original, "count", 0)),
              Sent.accepted(
                  parameters("count", 1, "original", identifier("y"), "context", context)),
              Sent.rejected(parameters("context", context, "original", original), 0),
              Sent.rejected(parameters("context", context, "original", original, "count", -1), 0),
              Sent.rejected(
                  parameters("context", context, "original", original, "count", 10_001), 0),
              Sent.rejected(parameters("context", context, "original", original, "count", "1"), 0),
              Sent.rejected(
                  parameters("context", context, "original", original, "count", 0, "count", 0), 0),
              Sent.rejected(parameters("target", namespace, "original", original, "count", 0), 0),
              Sent.rejected(parameters("original", original, "count", 0), 0)));
      assertAllowedExactlyWhenAccepted(
          "Gpas_Pseudonymize",
          "/ttp-fhir/fhir/gpas/$pseudonymize",
          List.of(
              Sent.accepted(parameters("target", namespace, "original", "x", "original", "y")),
              Sent.rejected(parameters("target", namespace), 0),
              Sent.rejected(
                  parameters("target", namespace, "target", namespace, "original", "x"), 0),
              Sent.rejected(parameters("target", namespace, "original", original), 0),
              Sent.rejected(parameters("target", context, "original", "x"), 0)));
    } finally {
      http.delete("/v1/namespaces/" + namespace);
    }
  }

  /** A FHIR {@code Identifier} with the value. */
  private static JsonObject identifier(String value) {
    return new JsonObject().put("value", value);
  }

  /**
   * A {@code Parameters} resource of name and value pairs: a value that is a {@link JsonObject} is
   * a {@code valueIdentifier}, an {@link Integer} a {@code valueInteger}, any other a {@code
   * valueString}.
   */
  private static JsonObject parameters(Object... namesAndValues) {
    List<JsonObject> parameters = new ArrayList<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      Object value = namesAndValues[i + 1];
      String type =
          value instanceof JsonObject
              ? "valueIdentifier"
              : value instanceof Integer ? "valueInteger" : "valueString";
      parameters.add(new JsonObject().put("name", namesAndValues[i]).put(type, value));
    }
    return new JsonObject().put("resourceType", "Parameters").put("parameter", parameters);
  }

  /**
   * The contract's links (what a fuzzer follows from one response to the next request) name
   * operations and parameters of the contract, and lead from real responses to answers.
   */
  @Test
  void theLinksLeadFromAResponseToTheNextRequest() {
    String namespace = "links-" + SUFFIX;
    Response created = createNamespace(namespace);
    Map<String, String> namespacePath = Map.of();
    try {
      JsonObject links = links("NamespaceService_Create");
      assertThat(links.fieldNames())
          .containsExactlyInAnyOrder(
              "GetNamespace",
              "DeleteNamespace",
              "CreatePseudonym",
              "BatchCreatePseudonyms",
              "ListPseudonyms",
              "ListChildren");
      for (String name :
          List.of("GetNamespace", "BatchCreatePseudonyms", "ListPseudonyms", "ListChildren")) {
        assertThat(follow(links.getJsonObject(name), namespacePath, created).status())
            .as(name)
            .isEqualTo(200);
      }
      Response pseudonym = follow(links.getJsonObject("CreatePseudonym"), namespacePath, created);
      assertThat(pseudonym.status()).isEqualTo(200);

      Map<String, String> pseudonymsPath = Map.of("namespace", namespace);
      Response found =
          follow(
              links("PseudonymService_Create").getJsonObject("GetPseudonym"),
              pseudonymsPath,
              pseudonym);
      assertThat(found.status()).isEqualTo(200);
      assertThat(found.json().getJsonObject("pseudonym").getString("originalValue"))
          .isEqualTo("linked");

      Response page = http.get("/v1/namespaces/" + namespace + "/pseudonyms?page_size=1");
      Response next =
          follow(links("PseudonymService_List").getJsonObject("NextPage"), pseudonymsPath, page);
      assertThat(next.status()).isEqualTo(200);
      assertThat(next.json().getJsonArray("pseudonyms")).hasSize(1);

      assertThat(follow(links.getJsonObject("DeleteNamespace"), namespacePath, created).status())
          .isEqualTo(200);
    } finally {
      http.delete("/v1/namespaces/" + namespace);
    }
  }

  /** Creates a namespace of pseudonym length 16, and answers the reply. */
  private static Response createNamespace(String name) {
    Response created =
        http.postJson(
            "/v1/namespaces",
            new JsonObject().put("name", name).put("pseudonymLength", 16).encode());
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    return created;
  }

  /** The links of an operation's 200 response in the served contract. */
  private static JsonObject links(String operationId) {
    return operation(operationId)
        .getJsonObject("responses")
        .getJsonObject("200")
        .getJsonObject("links");
  }

  /**
   * Sends the request a link leads to, its parameters taken from the response (or the path
   * parameters of its request) as the link's runtime expressions say; a POST gets a body of one
   * original value {@code linked}.
   */
  private static Response follow(
      JsonObject link, Map<String, String> requestPath, Response response) {
    String operationId = link.getString("operationId");
    Located target = locate(operationId);
    String path = target.path();
    StringBuilder query = new StringBuilder();
    for (String parameter : link.getJsonObject("parameters").fieldNames()) {
      String expression = link.getJsonObject("parameters").getString(parameter);
      String value =
          expression.startsWith("$request.path.")
              ? requestPath.get(expression.substring("$request.path.".length()))
              : (String)
                  JsonPointer.from(expression.substring("$response.body#".length()))
                      .queryJson(response.json());
      assertThat(value).as(expression).isNotNull();
      String encoded = URLEncoder.encode(value, StandardCharsets.UTF_8);
      if (path.contains("{" + parameter + "}")) {
        path = path.replace("{" + parameter + "}", encoded);
      } else {
        query.append(query.isEmpty() ? "?" : "&").append(parameter).append('=').append(encoded);
      }
    }
    return switch (target.method()) {
      case "get" -> http.get(path + query);
      case "delete" -> http.delete(path + query);
      case "post" ->
          http.postJson(
              path + query,
              operationId.endsWith("BatchCreate")
                  ? "{\"originalValues\": [\"linked\"]}"
                  : "{\"originalValue\": \"linked\"}");
      default -> throw new AssertionError(target.method());
    };
  }

  /** A {@code $create-pseudonym} request; a third value is another {@code namespace}. */
  private static JsonObject fhirParameters(String namespace, String originalValue, String... more) {
    List<Map<String, String>> parameters = new ArrayList<>();
    parameters.add(Map.of("name", "namespace", "valueString", namespace));
    parameters.add(Map.of("name", "originalValue", "valueString", originalValue));
    for (String another : more) {
      parameters.add(Map.of("name", "namespace", "valueString", another));
    }
    return new JsonObject().put("resourceType", "Parameters").put("parameter", parameters);
  }

  /**
   * A query value is percent-decoded once, on every route: {@code 100%25} is the text {@code 100%}
   * (decoded again it would not decode, which was a 500 with a stack trace), {@code %2531} is the
   * text {@code %31} (not the number 1). A target that does not decode even once is a 400 and one
   * warning without a stack trace.
   */
  @Test
  void queryValuesAreDecodedOnce() {
    String namespace = "decoded-once-" + SUFFIX;
    createNamespace(namespace);
    String pseudonyms = "/v1/namespaces/" + namespace + "/pseudonyms";
    try {
      for (String query :
          List.of("page_token=100%25", "pageToken=%25zz%25", "page_size=%2531", "pageSize=1%25")) {
        Response response = http.get(pseudonyms + "?" + query);
        assertThat(response.status()).as(query).isEqualTo(400);
        assertThat(response.json().getInteger("code")).as(query).isEqualTo(3);
      }
      assertThat(http.get(pseudonyms + "?page_size=%31&include_total_size=%74rue").status())
          .isEqualTo(200);
      for (String target : List.of(pseudonyms + "?page_token=%zz", "/livez?x=%", "/ui/?x=%g0")) {
        Response malformed = http.rawGet(target);
        assertThat(malformed.status()).as(target).isEqualTo(400);
        assertThat(malformed.json().getInteger("code")).as(target).isEqualTo(3);
      }
    } finally {
      http.delete("/v1/namespaces/" + namespace);
    }
    assertThat(logs.atLeast(Level.WARN))
        .allSatisfy(
            event -> {
              assertThat(event.getLevel()).isEqualTo(Level.WARN);
              assertThat(event.getLoggerName()).isEqualTo(EdgeWarnings.class.getName());
              assertThat(event.getThrowableProxy()).isNull();
            });
  }

  /** Whether the served contract (rules included) allows the body of the operation. */
  private static boolean allowedByContract(String operationId, String body) {
    String ref =
        operation(operationId)
            .getJsonObject("requestBody")
            .getJsonObject("content")
            .getJsonObject("application/json")
            .getJsonObject("schema")
            .getString("$ref");
    return schemas.validator(SERVED + ref).validate(new JsonObject(body)).getValid();
  }

  /** An operation of the served contract, with its path and method. */
  private record Located(String path, String method, JsonObject operation) {}

  private static Located locate(String operationId) {
    JsonObject paths = served.getJsonObject("paths");
    for (String path : paths.fieldNames()) {
      for (String method : paths.getJsonObject(path).fieldNames()) {
        if (paths.getJsonObject(path).getValue(method) instanceof JsonObject operation
            && operationId.equals(operation.getString("operationId"))) {
          return new Located(path, method, operation);
        }
      }
    }
    throw new AssertionError("no operation " + operationId);
  }

  private static JsonObject operation(String operationId) {
    return locate(operationId).operation();
  }
}
