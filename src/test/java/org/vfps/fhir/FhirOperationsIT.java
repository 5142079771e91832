package org.vfps.fhir;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import ca.uhn.fhir.context.FhirContext;
import ca.uhn.fhir.rest.api.EncodingEnum;
import ca.uhn.fhir.rest.client.api.IGenericClient;
import ca.uhn.fhir.rest.server.exceptions.InvalidRequestException;
import ca.uhn.fhir.rest.server.exceptions.ResourceNotFoundException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.hl7.fhir.r4.model.CapabilityStatement;
import org.hl7.fhir.r4.model.Enumerations.FHIRVersion;
import org.hl7.fhir.r4.model.OperationOutcome;
import org.hl7.fhir.r4.model.Parameters;
import org.hl7.fhir.r4.model.StringType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.vfps.ClassResources;
import org.vfps.HttpTestClient;
import org.vfps.HttpTestClient.Response;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.server.VfpsServer;

/** {@code $create-pseudonym} and {@code metadata} through HAPI's own client and as raw JSON. */
class FhirOperationsIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static final String CREATE = "/v1/fhir/$create-pseudonym";
  private static final String FHIR_JSON = "application/fhir+json; charset=utf-8";
  private static final String MII =
      "https://www.medizininformatik-initiative.de/fhir/ext/mii-interface-module-pseudonymization"
          + "/OperationDefinition/";

  private static VfpsServer server;
  private static HttpTestClient http;
  private static IGenericClient fhir;
  private static String namespace;

  @BeforeAll
  static void start() {
    server = resources.own(TestService.start());
    http = resources.own(new HttpTestClient(server.httpPort()));
    FhirContext context = FhirContext.forR4();
    fhir = context.newRestfulGenericClient("http://127.0.0.1:" + server.httpPort() + "/v1/fhir");
    fhir.setEncoding(EncodingEnum.JSON);
    namespace = "fhir-" + UUID.randomUUID();
    Response created =
        http.postJson(
            "/v1/namespaces",
            new JsonObject().put("name", namespace).put("pseudonymLength", 32).encode());
    assertThat(created.status()).isEqualTo(200);
  }

  private static Parameters request(String namespace, String originalValue) {
    Parameters parameters = new Parameters();
    parameters.addParameter().setName("namespace").setValue(new StringType(namespace));
    parameters.addParameter().setName("originalValue").setValue(new StringType(originalValue));
    return parameters;
  }

  private static Parameters createThroughHapi(Parameters parameters) {
    return fhir.operation()
        .onServer()
        .named("$create-pseudonym")
        .withParameters(parameters)
        .execute();
  }

  private static String rawRequest(String namespace, String originalValue) {
    return new JsonObject()
        .put("resourceType", "Parameters")
        .put(
            "parameter",
            new JsonArray()
                .add(new JsonObject().put("name", "namespace").put("valueString", namespace))
                .add(
                    new JsonObject()
                        .put("name", "originalValue")
                        .put("valueString", originalValue)))
        .encode();
  }

  /** The single issue of an OperationOutcome answer, after checking status and content type. */
  private static JsonObject issue(Response response, int status) {
    assertThat(response.status()).as(response.body()).isEqualTo(status);
    assertThat(response.contentType()).isEqualTo(FHIR_JSON);
    JsonObject outcome = response.json();
    assertThat(outcome.getString("resourceType")).isEqualTo("OperationOutcome");
    assertThat(outcome.getJsonArray("issue")).hasSize(1);
    JsonObject issue = outcome.getJsonArray("issue").getJsonObject(0);
    assertThat(issue.getString("severity")).isEqualTo("error");
    return issue;
  }

  @Test
  void hapisGenericClientCreatesTheSamePseudonymEveryTime() {
    Parameters first = createThroughHapi(request(namespace, "test"));
    Parameters second = createThroughHapi(request(namespace, "test"));

    assertThat(first.getParameter())
        .extracting(Parameters.ParametersParameterComponent::getName)
        .containsExactly("namespace", "originalValue", "pseudonymValue");
    assertThat(first.getParameter("namespace").getValue().primitiveValue()).isEqualTo(namespace);
    assertThat(first.getParameter("originalValue").getValue().primitiveValue()).isEqualTo("test");
    String pseudonym = first.getParameter("pseudonymValue").getValue().primitiveValue();
    assertThat(pseudonym).isNotNull().isNotEqualToIgnoringCase("test").hasSize(54);
    assertThat(second.getParameter("pseudonymValue").getValue().primitiveValue())
        .isEqualTo(pseudonym);
    assertThat(
            TestPostgres.queryLong(
                TestPostgres.database(),
                "SELECT count(*) FROM pseudonyms WHERE namespace_name = ? AND pseudonym_value = ?",
                namespace,
                pseudonym))
        .isEqualTo(1);
  }

  @Test
  void hapisGenericClientSeesNotFoundAndInvalidRequests() {
    assertThatExceptionOfType(ResourceNotFoundException.class)
        .isThrownBy(() -> createThroughHapi(request("fhir-missing-" + UUID.randomUUID(), "x")))
        .satisfies(
            e ->
                assertThat(((OperationOutcome) e.getOperationOutcome()).getIssueFirstRep())
                    .extracting(issue -> issue.getCode().toCode())
                    .isEqualTo("processing"));
    assertThatExceptionOfType(InvalidRequestException.class)
        .isThrownBy(() -> createThroughHapi(request(namespace, "   ")));
    assertThatExceptionOfType(InvalidRequestException.class)
        .isThrownBy(() -> createThroughHapi(new Parameters()));
  }

  @Test
  void hapisGenericClientReadsTheCapabilityStatement() {
    CapabilityStatement statement = fhir.capabilities().ofType(CapabilityStatement.class).execute();

    assertThat(statement.getStatus().toCode()).isEqualTo("active");
    assertThat(statement.getKind().toCode()).isEqualTo("instance");
    assertThat(statement.getSoftware().getName()).isEqualTo("VFPS FHIR API");
    assertThat(statement.getFhirVersion()).isEqualTo(FHIRVersion._4_0_1);
    assertThat(statement.getDate()).isNotNull();
  }

  @Test
  void rawJsonCreatesAPseudonymAnsweredAsFhirJson() {
    for (String contentType : List.of("application/fhir+json", "application/json")) {
      Response response =
          http.post(
              CREATE, contentType, rawRequest(namespace, "raw").getBytes(StandardCharsets.UTF_8));

      assertThat(response.status()).as(response.body()).isEqualTo(200);
      assertThat(response.contentType()).isEqualTo(FHIR_JSON);
      JsonObject parameters = response.json();
      assertThat(parameters.fieldNames()).containsExactly("resourceType", "parameter");
      assertThat(parameters.getString("resourceType")).isEqualTo("Parameters");
      JsonArray items = parameters.getJsonArray("parameter");
      assertThat(items).hasSize(3);
      assertThat(items.getJsonObject(0))
          .isEqualTo(new JsonObject().put("name", "namespace").put("valueString", namespace));
      assertThat(items.getJsonObject(1))
          .isEqualTo(new JsonObject().put("name", "originalValue").put("valueString", "raw"));
      assertThat(items.getJsonObject(2).fieldNames()).containsExactly("name", "valueString");
      assertThat(items.getJsonObject(2).getString("name")).isEqualTo("pseudonymValue");
      assertThat(items.getJsonObject(2).getString("valueString")).hasSize(54);
    }
  }

  @Test
  void utf16BodiesAreRead() {
    Response response =
        http.post(
            CREATE,
            "application/fhir+json; charset=utf-16",
            rawRequest(namespace, "h\u00e9llo").getBytes(StandardCharsets.UTF_16));

    assertThat(response.status()).as(response.body()).isEqualTo(200);
    assertThat(response.json().getJsonArray("parameter").getJsonObject(1).getString("valueString"))
        .isEqualTo("h\u00e9llo");
  }

  @Test
  void unknownNamespaceIsNotFound() {
    String missing = "fhir-missing-" + UUID.randomUUID();

    JsonObject issue =
        issue(
            http.post(
                CREATE,
                "application/json",
                rawRequest(missing, "x").getBytes(StandardCharsets.UTF_8)),
            404);

    assertThat(issue.getString("code")).isEqualTo("processing");
    assertThat(issue.getString("diagnostics"))
        .isEqualTo("the namespace '" + missing + "' could not be found.");
  }

  @Test
  void aMistypedOperationOrPathIsAnOperationOutcomeNamingTheOperations() {
    byte[] body = rawRequest(namespace, "x").getBytes(StandardCharsets.UTF_8);
    long before = TestPostgres.pseudonymCount(namespace);

    JsonObject vfps =
        issue(http.post("/v1/fhir/$create-pseudonyms", "application/fhir+json", body), 404);
    JsonObject mii = issue(http.post("/v1/fhir/$pseudonymise", "application/fhir+json", body), 404);
    JsonObject resource = issue(http.get("/v1/fhir/Patient/1"), 404);
    JsonObject wrongMethod = issue(http.get(CREATE), 405);

    assertThat(vfps.getString("code")).isEqualTo("not-found");
    assertThat(vfps.getString("diagnostics"))
        .isEqualTo(
            "The FHIR base /v1/fhir has no operation '$create-pseudonyms' (names are"
                + " case-sensitive). Its operations: $create-pseudonym, $resolve-pseudonym,"
                + " $pseudonymize, $get-pseudonym, $pseudonymize-multiple, $de-pseudonymize,"
                + " $delete-pseudonym, $anonymize-original; a batch or transaction Bundle is POSTed"
                + " to the base; GET /v1/fhir/metadata lists them.");
    assertThat(mii.getString("diagnostics"))
        .startsWith("The FHIR base /v1/fhir has no operation '$pseudonymise'");
    assertThat(resource.getString("diagnostics"))
        .startsWith("The FHIR base /v1/fhir has nothing at this path.");
    assertThat(wrongMethod.getString("code")).isEqualTo("not-supported");
    assertThat(wrongMethod.getString("diagnostics"))
        .isEqualTo("This path of the FHIR base takes POST, not GET.");
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(before);
    // the REST API's own paths keep the REST error body
    Response rest = http.get("/v1/nothing");
    assertThat(rest.status()).isEqualTo(404);
    assertThat(rest.json().getInteger("code")).isEqualTo(5);
  }

  @Test
  void badBodiesAreOperationOutcomesAndStoreNothing() {
    long before = TestPostgres.pseudonymCount(namespace);
    List<String> badBodies =
        List.of(
            "",
            "{\"resourceType\": \"Parameters\"}",
            "{\"resourceType\": \"Patient\", \"id\": \"p1\"}",
            "{\"resourceType\": \"Parameters\", \"parameter\": [",
            "not json at all",
            "{\"resourceType\": \"Parameters\", \"unknownElement\": 1}",
            rawRequest(namespace, "   "),
            rawRequest(namespace, "dup")
                .replace("]", ", {\"name\": \"namespace\", \"valueString\": \"x\"}]"),
            "{\"resourceType\": \"Parameters\", \"parameter\": [{\"name\": \"namespace\","
                + " \"valueString\": \""
                + namespace
                + "\"}, {\"name\": \"originalValue\","
                + " \"valueInteger\": 5}]}");

    for (String body : badBodies) {
      JsonObject issue =
          issue(
              http.post(CREATE, "application/fhir+json", body.getBytes(StandardCharsets.UTF_8)),
              400);
      assertThat(issue.getString("code")).as(body).isEqualTo("processing");
      assertThat(issue.getString("diagnostics")).as(body).isNotBlank();
    }
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(before);
  }

  @Test
  void otherContentTypesAreUnsupported() {
    byte[] body = rawRequest(namespace, "x").getBytes(StandardCharsets.UTF_8);
    for (String contentType :
        List.of("application/fhir+xml", "text/plain", "application/json; charset=latin1")) {
      JsonObject issue = issue(http.post(CREATE, contentType, body), 415);
      assertThat(issue.getString("code")).as(contentType).isEqualTo("not-supported");
    }
    assertThat(issue(http.post(CREATE, null, body), 415).getString("code"))
        .isEqualTo("not-supported");
  }

  @Test
  void invalidUtf8IsMalformed() {
    byte[] body = rawRequest(namespace, "xx").getBytes(StandardCharsets.UTF_8);
    int at = new String(body, StandardCharsets.UTF_8).indexOf("\"xx\"") + 1;
    body[at] = (byte) 0xC0;
    body[at + 1] = (byte) 0xAF;

    assertThat(issue(http.post(CREATE, "application/fhir+json", body), 400).getString("code"))
        .isEqualTo("processing");
  }

  @Test
  void metadataIsTheDotnetCapabilityStatementListingEveryOperation() {
    Response response = http.get("/v1/fhir/metadata");

    assertThat(response.status()).isEqualTo(200);
    assertThat(response.contentType()).isEqualTo(FHIR_JSON);
    JsonObject statement = response.json();
    assertThat(statement.getString("date")).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d");
    JsonObject rest = statement.getJsonArray("rest").getJsonObject(0);
    statement.remove("date");
    statement.remove("rest");
    assertThat(statement)
        .isEqualTo(
            new JsonObject()
                .put("resourceType", "CapabilityStatement")
                .put("status", "active")
                .put("kind", "instance")
                .put("software", new JsonObject().put("name", "VFPS FHIR API"))
                .put("fhirVersion", "4.0.1")
                .put("format", new JsonArray().add("application/fhir+json")));
    assertThat(rest.getString("mode")).isEqualTo("server");
    assertThat(
            rest.getJsonArray("interaction").stream().map(i -> ((JsonObject) i).getString("code")))
        .containsExactly("batch", "transaction");
    assertThat(
            rest.getJsonArray("operation").stream()
                .map(
                    o ->
                        ((JsonObject) o).getString("name")
                            + " "
                            + ((JsonObject) o).getString("definition")))
        .containsExactly(
            "create-pseudonym urn:vfps:OperationDefinition:create-pseudonym",
            "resolve-pseudonym urn:vfps:OperationDefinition:resolve-pseudonym",
            "pseudonymize " + MII + "Pseudonymize",
            "get-pseudonym " + MII + "GetPseudonym",
            "pseudonymize-multiple " + MII + "PseudonymizeMultiple",
            "de-pseudonymize " + MII + "DePseudonymize",
            "delete-pseudonym " + MII + "DeletePseudonym",
            "anonymize-original " + MII + "AnonymizeOriginal");
  }

  /** What FTS-next asks for at start: only the operations, which must include create-pseudonym. */
  @Test
  void metadataHonoursElementsAsFtsNextAsksForThem() {
    Response response = http.get("/v1/fhir/metadata?_elements=rest.operation");

    assertThat(response.status()).isEqualTo(200);
    JsonObject statement = response.json();
    assertThat(statement.fieldNames())
        .containsExactlyInAnyOrder(
            "resourceType", "meta", "status", "date", "kind", "fhirVersion", "format", "rest");
    assertThat(
            statement.getJsonObject("meta").getJsonArray("tag").getJsonObject(0).getString("code"))
        .isEqualTo("SUBSETTED");
    assertThat(statement.getJsonArray("rest").getJsonObject(0).fieldNames())
        .containsExactlyInAnyOrder("mode", "operation");
    CapabilityStatement parsed =
        FhirContext.forR4Cached()
            .newJsonParser()
            .parseResource(CapabilityStatement.class, response.body());
    assertThat(parsed.getRest().getFirst().getOperation())
        .extracting(CapabilityStatement.CapabilityStatementRestResourceOperationComponent::getName)
        .contains("create-pseudonym");
    for (String elements : List.of("", "nonsense", "rest.nothing,,", "software")) {
      Response other = http.get("/v1/fhir/metadata?_elements=" + elements);
      assertThat(other.status()).as(elements).isEqualTo(200);
      assertThat(other.json().getString("resourceType")).isEqualTo("CapabilityStatement");
    }
  }

  /** Bodies that made HAPI's parser throw something else than its DataFormatException. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"resourceType\":\"Parameters\",\"\":\"x\"}",
        "{\"resourceType\":\"Parameters\",\"parameter\":[{\"name\":\"namespace\",\"\":1}]}",
        "{\"resourceType\":\"Parameters\",\"parameter\":[{\"name\":\"x\","
            + "\"resource\":{\"resourceType\":\"Parameters\",\"\":\"x\"}}]}",
        "{\"resourceType\":\"Parameters\",\"_id\":{\"\":[]}}",
        "{\"resourceType\":\"\"}",
        "{\"resourceType\":null}",
        "{\"resourceType\":7}",
        "{\"resourceType\":\"Parameters\",\"meta\":[]}",
        "{\"resourceType\":\"Parameters\",\"id\":{}}",
        "{\"resourceType\":\"Parameters\",\"contained\":[{}]}",
        "{\"resourceType\":\"Parameters\",\"parameter\":[{\"name\":\"x\","
            + "\"valueDecimal\":1e999999}]}",
        "{\"resourceType\":\"Parameters\",\"parameter\":[{\"name\":\"x\","
            + "\"valueString\":\"\\ud800\"}]}",
        "[{\"resourceType\":\"Parameters\"}]",
        "\"Parameters\"",
        "{\"resourceType\":\"Bundle\",\"entry\":[{\"resource\":{\"\":1}}]}",
        "{\"resourceType\":\"Parameters\",\"parameter\":[{\"name\":\"x\","
            + "\"valueInteger\":1e99999}]}"
      })
  void bodiesThatTripTheParserAreMalformedNot500(String body) {
    Response response = http.post(CREATE, "application/fhir+json", body.getBytes(UTF_8));

    assertThat(response.status()).as(body).isEqualTo(400);
    assertThat(response.json().getString("resourceType")).isEqualTo("OperationOutcome");
  }

  /** 300 levels of parts overflowed HAPI's stack in the small container's 256 KiB threads. */
  @Test
  void deeplyNestedPartsAreMalformedNot500() {
    String deep =
        "{\"resourceType\":\"Parameters\",\"parameter\":["
            + "{\"name\":\"p\",\"part\":[".repeat(300)
            + "{\"name\":\"q\",\"valueString\":\"x\"}"
            + "]}".repeat(300)
            + "]}";
    Response response = http.post(CREATE, "application/fhir+json", deep.getBytes(UTF_8));

    assertThat(response.status()).isEqualTo(400);
    assertThat(response.json().getString("resourceType")).isEqualTo("OperationOutcome");
  }

  /** Random edits of valid requests: every answer is a FHIR resource, never a 5xx. */
  @Test
  void fuzzedBodiesAreAnsweredWithoutA5xx() {
    Random random = new Random(1130);
    List<String> seeds =
        List.of(
            rawRequest(namespace, "fuzz"),
            "{\"resourceType\":\"Parameters\",\"id\":\"a\",\"meta\":{\"versionId\":\"1\"},"
                + "\"parameter\":[{\"name\":\"namespace\",\"valueString\":\""
                + namespace
                + "\",\"extension\":[{\"url\":\"http://x\",\"valueInteger\":1}]},"
                + "{\"name\":\"originalValue\",\"part\":[{\"name\":\"p\","
                + "\"valueBoolean\":true}]}]}");
    String pieces = "{}[]\":,\\0123456789.eE-+ tfnulrsaPRT_";
    for (int i = 0; i < 400; i++) {
      StringBuilder body = new StringBuilder(seeds.get(random.nextInt(seeds.size())));
      for (int edits = 1 + random.nextInt(4); edits > 0 && !body.isEmpty(); edits--) {
        int at = random.nextInt(body.length());
        switch (random.nextInt(4)) {
          case 0 -> body.deleteCharAt(at);
          case 1 -> body.insert(at, pieces.charAt(random.nextInt(pieces.length())));
          case 2 -> body.setCharAt(at, pieces.charAt(random.nextInt(pieces.length())));
          default -> {
            int end = Math.min(body.length(), at + 1 + random.nextInt(12));
            body.insert(random.nextInt(body.length()), body.substring(at, end));
          }
        }
      }
      Response response =
          http.post(CREATE, "application/fhir+json", body.toString().getBytes(UTF_8));
      assertThat(response.status()).as(body.toString()).isLessThan(500);
      assertThat(response.json().getString("resourceType")).as(body.toString()).isNotNull();
    }
  }
}
