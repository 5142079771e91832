package org.vfps.fhir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.vfps.fhir.FhirJson.identifier;
import static org.vfps.fhir.FhirJson.named;
import static org.vfps.fhir.FhirJson.one;
import static org.vfps.fhir.FhirJson.parameters;
import static org.vfps.fhir.FhirJson.string;

import ca.uhn.fhir.context.FhirContext;
import ca.uhn.fhir.rest.api.EncodingEnum;
import ca.uhn.fhir.rest.client.api.IGenericClient;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.hl7.fhir.r4.model.CapabilityStatement;
import org.hl7.fhir.r4.model.Identifier;
import org.hl7.fhir.r4.model.Parameters;
import org.hl7.fhir.r4.model.Parameters.ParametersParameterComponent;
import org.hl7.fhir.r4.model.StringType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.ClassResources;
import org.vfps.GrpcTestClient;
import org.vfps.HttpTestClient;
import org.vfps.HttpTestClient.Response;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.server.VfpsServer;

/**
 * The gPAS TTP-FHIR gateway dialect: as FTS-next and the FHIR pseudonymizer send it (raw JSON and
 * query strings written from their sources), and through HAPI's generic client.
 */
class GpasOperationsIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static final String BASE = "/ttp-fhir/fhir/gpas/";
  private static final String FHIR_JSON = "application/fhir+json";
  private static final String GPAS = "https://ths-greifswald.de/gpas";
  private static final int MAX_VALUES = 20;

  private static VfpsServer server;
  private static HttpTestClient http;
  private static IGenericClient fhir;
  private static String domain;

  @BeforeAll
  static void start() {
    server =
        resources.own(
            TestService.start(
                Map.of(
                    "ConnectionStrings__PostgreSQL",
                    TestPostgres.uri(),
                    "Pseudonymization__Batch__MaxSize",
                    Integer.toString(MAX_VALUES))));
    http = resources.own(new HttpTestClient(server.httpPort()));
    fhir =
        FhirContext.forR4Cached()
            .newRestfulGenericClient("http://127.0.0.1:" + server.httpPort() + BASE);
    fhir.setEncoding(EncodingEnum.JSON);
    domain = "gpas-" + UUID.randomUUID();
    Response created =
        http.postJson(
            "/v1/namespaces",
            new JsonObject().put("name", domain).put("pseudonymLength", 32).encode());
    assertThat(created.status()).isEqualTo(200);
  }

  private static Response post(String operation, JsonObject body) {
    return http.post(
        BASE + "$" + operation, FHIR_JSON, body.encode().getBytes(StandardCharsets.UTF_8));
  }

  /** The request FTS-next's GpasClient builds: target, then one original per value. */
  private static JsonObject request(String valueName, String target, List<String> values) {
    JsonArray parameter = new JsonArray().add(string("target", target));
    values.forEach(value -> parameter.add(string(valueName, value)));
    return new JsonObject().put("resourceType", "Parameters").put("parameter", parameter);
  }

  private static JsonArray answer(Response response) {
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    assertThat(response.contentType()).isEqualTo("application/fhir+json; charset=utf-8");
    return response.json().getJsonArray("parameter");
  }

  /** What FTS-next's GpasParameterResponse reads: original to pseudonym, by identifier value. */
  private static Map<String, String> mapped(JsonArray parameters) {
    Map<String, String> mapped = new HashMap<>();
    for (JsonObject parameter : named(parameters, "pseudonym")) {
      JsonArray parts = parameter.getJsonArray("part");
      mapped.put(
          one(parts, "original").getJsonObject("valueIdentifier").getString("value"),
          one(parts, "pseudonym").getJsonObject("valueIdentifier").getString("value"));
    }
    return mapped;
  }

  private static long stored(String original) {
    return TestPostgres.pseudonymCount(domain, original);
  }

  private static JsonObject issue(Response response, int status) {
    assertThat(response.status()).as(response.body()).isEqualTo(status);
    JsonObject outcome = response.json();
    assertThat(outcome.getString("resourceType")).isEqualTo("OperationOutcome");
    return outcome.getJsonArray("issue").getJsonObject(0);
  }

  @Test
  void pseudonymizeAllowCreateAnswersEveryValueAsFtsNextReadsIt() {
    String first = "fts-" + UUID.randomUUID();
    String second = "fts-" + UUID.randomUUID();

    JsonArray parameters =
        answer(
            post("pseudonymizeAllowCreate", request("original", domain, List.of(first, second))));

    assertThat(parameters).hasSize(2);
    for (JsonObject parameter : named(parameters, "pseudonym")) {
      JsonArray parts = parameter.getJsonArray("part");
      assertThat(parts.stream().map(p -> ((JsonObject) p).getString("name")))
          .containsExactly("target", "original", "pseudonym");
      assertThat(one(parts, "target")).isEqualTo(identifier("target", GPAS, domain));
      assertThat(one(parts, "pseudonym").getJsonObject("valueIdentifier").getString("system"))
          .isEqualTo(GPAS);
    }
    Map<String, String> mapped = mapped(parameters);
    assertThat(mapped).containsOnlyKeys(first, second);
    assertThat(mapped.get(first)).hasSize(54).isNotEqualTo(mapped.get(second));
    assertThat(stored(first)).isEqualTo(1);
    assertThat(
            mapped(
                answer(
                    post(
                        "pseudonymizeAllowCreate",
                        request("original", domain, List.of(second, first, second))))))
        .isEqualTo(mapped);
  }

  @Test
  void aCallOfTheMostValuesIsAnsweredAndOneMoreIsRefused() {
    List<String> most = new ArrayList<>();
    for (int i = 0; i < MAX_VALUES; i++) {
      most.add("most-" + i + "-" + UUID.randomUUID());
    }

    assertThat(mapped(answer(post("pseudonymizeAllowCreate", request("original", domain, most)))))
        .containsOnlyKeys(most);
    List<String> oneMore = new ArrayList<>(most);
    oneMore.add("one-more-" + UUID.randomUUID());
    JsonObject issue =
        issue(post("pseudonymizeAllowCreate", request("original", domain, oneMore)), 400);
    assertThat(issue.getString("code")).isEqualTo("too-costly");
    assertThat(stored(oneMore.getLast())).isZero();
  }

  /** The FHIR pseudonymizer's gPAS backend (gPAS 1.10.3 and later) through a FHIR client. */
  @Test
  void hapisClientReadsTheFirstParametersPseudonymPart() {
    String original = "client-" + UUID.randomUUID();
    Parameters request = new Parameters();
    request.addParameter().setName("target").setValue(new StringType(domain));
    request.addParameter().setName("original").setValue(new StringType(original));

    Parameters created =
        fhir.operation()
            .onServer()
            .named("$pseudonymizeAllowCreate")
            .withParameters(request)
            .execute();
    String pseudonym =
        ((Identifier) created.getParameterFirstRep().getPart().get(2).getValue()).getValue();
    Parameters lookup = new Parameters();
    lookup.addParameter().setName("target").setValue(new StringType(domain));
    lookup.addParameter().setName("original").setValue(new StringType(original));
    lookup.addParameter().setName("original").setValue(new StringType("never-" + original));
    Parameters looked =
        fhir.operation().onServer().named("$pseudonymize").withParameters(lookup).execute();
    Parameters back = new Parameters();
    back.addParameter().setName("target").setValue(new StringType(domain));
    back.addParameter().setName("pseudonym").setValue(new StringType(pseudonym));
    Parameters original1 =
        fhir.operation().onServer().named("$dePseudonymize").withParameters(back).execute();

    assertThat(created.getParameterFirstRep().getPart())
        .extracting(ParametersParameterComponent::getName)
        .containsExactly("target", "original", "pseudonym");
    assertThat(looked.getParameter())
        .extracting(ParametersParameterComponent::getName)
        .containsExactly("pseudonym", "error");
    assertThat(((Identifier) looked.getParameterFirstRep().getPart().get(2).getValue()).getValue())
        .isEqualTo(pseudonym);
    assertThat(original1.getParameterFirstRep().getName()).isEqualTo("original");
    ParametersParameterComponent found =
        original1.getParameterFirstRep().getPart().stream()
            .filter(part -> part.getName().equals("original"))
            .findFirst()
            .orElseThrow();
    assertThat(((Identifier) found.getValue()).getValue()).isEqualTo(original);
  }

  @Test
  void everyDialectGivesTheSamePseudonym() {
    String original = "same-" + UUID.randomUUID();
    String viaGpas =
        mapped(
                answer(
                    post(
                        "pseudonymizeAllowCreate", request("original", domain, List.of(original)))))
            .get(original);

    String viaGrpc;
    try (GrpcTestClient grpc = new GrpcTestClient(server.grpcPort())) {
      viaGrpc =
          grpc.ok(
                  PseudonymServiceGrpcClient.Create,
                  PseudonymServiceCreateRequest.newBuilder()
                      .setNamespace(domain)
                      .setOriginalValue(original)
                      .build())
              .getPseudonym()
              .getPseudonymValue();
    }
    String viaRest =
        http.postJson(
                "/v1/namespaces/" + domain + "/pseudonyms",
                new JsonObject().put("originalValue", original).encode())
            .json()
            .getJsonObject("pseudonym")
            .getString("pseudonymValue");
    String viaGpasLookup =
        mapped(answer(post("pseudonymize", request("original", domain, List.of(original)))))
            .get(original);
    String viaCreatePseudonym =
        one(
                answer(
                    http.post(
                        "/v1/fhir/$create-pseudonym",
                        FHIR_JSON,
                        parameters(string("namespace", domain), string("originalValue", original))
                            .encode()
                            .getBytes(StandardCharsets.UTF_8))),
                "pseudonymValue")
            .getString("valueString");
    String viaMii =
        FhirJson.value(
                one(
                    answer(
                        http.post(
                            "/v1/fhir/$pseudonymize",
                            FHIR_JSON,
                            parameters(
                                    identifier("context", domain), identifier("original", original))
                                .encode()
                                .getBytes(StandardCharsets.UTF_8))),
                    "pseudonym"))
            .orElseThrow();
    String viaLegacy = legacyGet("pseudonymize-allow-create", "original", original).get(original);

    assertThat(viaGpas).isNotNull();
    assertThat(List.of(viaGrpc, viaRest, viaGpasLookup, viaCreatePseudonym, viaMii, viaLegacy))
        .containsOnly(viaGpas);
    assertThat(stored(original)).isEqualTo(1);
  }

  @Test
  void aValueThatCannotBeStoredIsAnErrorPartAndTheOthersAreCreated() {
    String good = "good-" + UUID.randomUUID();

    JsonArray parameters =
        answer(
            post(
                "pseudonymizeAllowCreate",
                request("original", domain, List.of("  ", good, "x".repeat(2049)))));

    assertThat(parameters.stream().map(p -> ((JsonObject) p).getString("name")))
        .containsExactly("error", "pseudonym", "error");
    JsonObject code =
        one(parameters.getJsonObject(0).getJsonArray("part"), "error-code")
            .getJsonObject("valueCoding");
    assertThat(code.getString("system")).isEqualTo("http://hl7.org/fhir/issue-type");
    assertThat(code.getString("code")).isEqualTo("invalid");
    assertThat(one(parameters.getJsonObject(0).getJsonArray("part"), "original"))
        .isEqualTo(identifier("original", GPAS, "  "));
    assertThat(mapped(parameters)).containsOnlyKeys(good);
    assertThat(stored(good)).isEqualTo(1);
  }

  @Test
  void pseudonymizeWithoutAllowCreateCreatesNothing() {
    String known = "known-" + UUID.randomUUID();
    String unknown = "unknown-" + UUID.randomUUID();
    String pseudonym =
        mapped(answer(post("pseudonymizeAllowCreate", request("original", domain, List.of(known)))))
            .get(known);
    long before = TestPostgres.pseudonymCount(domain);

    JsonArray parameters =
        answer(post("pseudonymize", request("original", domain, List.of(unknown, known))));

    assertThat(parameters.stream().map(p -> ((JsonObject) p).getString("name")))
        .containsExactly("error", "pseudonym");
    assertThat(
            one(parameters.getJsonObject(0).getJsonArray("part"), "error-code")
                .getJsonObject("valueCoding")
                .getString("code"))
        .isEqualTo("not-found");
    assertThat(mapped(parameters)).containsExactly(Map.entry(known, pseudonym));
    assertThat(TestPostgres.pseudonymCount(domain)).isEqualTo(before);
    assertThat(stored(unknown)).isZero();
  }

  @Test
  void dePseudonymizeAnswersEachValueOrANotFoundPart() {
    String original = "back-" + UUID.randomUUID();
    String pseudonym =
        mapped(
                answer(
                    post(
                        "pseudonymizeAllowCreate", request("original", domain, List.of(original)))))
            .get(original);

    JsonArray parameters =
        answer(post("dePseudonymize", request("pseudonym", domain, List.of(pseudonym, "nope"))));

    assertThat(parameters.stream().map(p -> ((JsonObject) p).getString("name")))
        .containsExactly("original", "error");
    JsonArray parts = parameters.getJsonObject(0).getJsonArray("part");
    assertThat(one(parts, "original")).isEqualTo(identifier("original", GPAS, original));
    assertThat(one(parts, "pseudonym")).isEqualTo(identifier("pseudonym", GPAS, pseudonym));
    JsonArray error = parameters.getJsonObject(1).getJsonArray("part");
    assertThat(one(error, "pseudonym")).isEqualTo(identifier("pseudonym", GPAS, "nope"));
    assertThat(one(error, "error-code").getJsonObject("valueCoding").getString("code"))
        .isEqualTo("not-found");
  }

  @Test
  void aValueTheDomainsRegexRefusesIsAnErrorPartAndTheOthersAreMade() {
    String checked = "gpas-regex-" + UUID.randomUUID();
    assertThat(
            http.postJson(
                    "/v1/namespaces",
                    new JsonObject()
                        .put("name", checked)
                        .put("pseudonymLength", 32)
                        .put("originalValueValidationRegex", "^id-[0-9]+$")
                        .encode())
                .status())
        .isEqualTo(200);

    JsonArray parameters =
        answer(
            post(
                "pseudonymizeAllowCreate",
                request("original", checked, List.of("id-1", "refused", " ", "id-2", "refused"))));

    assertThat(parameters.stream().map(p -> ((JsonObject) p).getString("name")))
        .containsExactly("pseudonym", "error", "error", "pseudonym", "error");
    JsonArray refused = parameters.getJsonObject(1).getJsonArray("part");
    assertThat(one(refused, "original")).isEqualTo(identifier("original", GPAS, "refused"));
    assertThat(one(refused, "error-code").getJsonObject("valueCoding").getString("code"))
        .isEqualTo("invalid");
    assertThat(mapped(parameters)).containsOnlyKeys("id-1", "id-2");
    assertThat(TestPostgres.pseudonymCount(checked)).isEqualTo(2);
  }

  @Test
  void anUnknownDomainIsA400ThatNamesIt() {
    String missing = "gpas-missing-" + UUID.randomUUID();
    for (String operation : List.of("pseudonymizeAllowCreate", "pseudonymize", "dePseudonymize")) {
      String valueName = operation.equals("dePseudonymize") ? "pseudonym" : "original";
      JsonObject issue = issue(post(operation, request(valueName, missing, List.of("x"))), 400);
      assertThat(issue.getString("diagnostics"))
          .as(operation)
          .isEqualTo("Unknown domain '" + missing + "'.");
    }
    assertThat(
            issue(
                    http.get(BASE + "$pseudonymize-allow-create?domain=" + missing + "&original=x"),
                    400)
                .getString("diagnostics"))
        .startsWith("Unknown domain");
  }

  @Test
  void badRequestsAreOperationOutcomesAndStoreNothing() {
    long before = TestPostgres.pseudonymCount(domain);
    List<String> tooMany = new ArrayList<>();
    for (int i = 0; i <= MAX_VALUES; i++) {
      tooMany.add("many-" + i);
    }
    for (String operation : List.of("pseudonymizeAllowCreate", "pseudonymize", "dePseudonymize")) {
      String valueName = operation.equals("dePseudonymize") ? "pseudonym" : "original";
      List<JsonObject> bad =
          List.of(
              parameters(),
              parameters(string(valueName, "a")),
              parameters(string("target", domain)),
              parameters(
                  string("target", domain), string("target", domain), string(valueName, "a")),
              parameters(
                  new JsonObject().put("name", "target").put("valueInteger", 5),
                  string(valueName, "a")),
              parameters(string("target", domain), identifier(valueName, "a")),
              parameters(
                  string("target", domain), string(valueName, "a"), FhirJson.bool(valueName, true)),
              request(valueName, domain, tooMany),
              new JsonObject().put("resourceType", "Patient"));
      for (JsonObject body : bad) {
        JsonObject issue = issue(post(operation, body), 400);
        assertThat(issue.getString("diagnostics")).as(operation + " " + body.encode()).isNotBlank();
      }
      assertThat(
              http.post(BASE + "$" + operation, "text/plain", "x".getBytes(StandardCharsets.UTF_8))
                  .status())
          .isEqualTo(415);
      assertThat(
              issue(
                      http.post(
                          BASE + "$" + operation,
                          FHIR_JSON,
                          "{\"resourceType\": \"Parameters\", \"parameter\": ["
                              .getBytes(StandardCharsets.UTF_8)),
                      400)
                  .getString("diagnostics"))
          .as(operation)
          .isNotBlank();
    }
    assertThat(
            issue(
                    post(
                        "pseudonymize-allow-create",
                        request("original", domain, List.of("a", "b"))),
                    400)
                .getString("diagnostics"))
        .contains("takes one");
    assertThat(
            issue(http.get(BASE + "$de-pseudonymize?domain=" + domain), 400)
                .getString("diagnostics"))
        .contains("'pseudonym'");
    assertThat(TestPostgres.pseudonymCount(domain)).isEqualTo(before);
  }

  @Test
  void aMistypedOperationOrPathIsAnOperationOutcomeNamingTheOperations() {
    Response mistyped = post("pseudonymise", request("original", domain, List.of("x")));
    Response elsewhere = http.get("/ttp-fhir/fhir/gpass/metadata");
    Response wrongMethod = http.get(BASE + "$pseudonymizeAllowCreate");

    JsonObject issue = issue(mistyped, 404);
    assertThat(mistyped.contentType()).isEqualTo("application/fhir+json; charset=utf-8");
    assertThat(issue.getString("code")).isEqualTo("not-found");
    assertThat(issue.getString("diagnostics"))
        .startsWith(
            "The FHIR base /ttp-fhir/fhir/gpas has no operation '$pseudonymise' (names are"
                + " case-sensitive). Its operations: $pseudonymizeAllowCreate, $pseudonymize,")
        .endsWith("; GET /ttp-fhir/fhir/gpas/metadata lists them.");
    assertThat(issue(elsewhere, 404).getString("diagnostics"))
        .startsWith("The FHIR base /ttp-fhir/fhir/gpas has nothing at this path.");
    assertThat(issue(wrongMethod, 405).getString("diagnostics"))
        .isEqualTo("This path of the FHIR base takes POST, not GET.");
    assertThat(wrongMethod.headers().firstValue("allow")).contains("POST");
  }

  /** The older shapes the FHIR pseudonymizer sends to gPAS before 1.10.3. */
  @Test
  void theOlderShapesAnswerAsTheFhirPseudonymizerReadsThem() {
    String original = "old & odd/" + UUID.randomUUID();

    Map<String, String> created = legacyGet("pseudonymize-allow-create", "original", original);
    String pseudonym = created.get(original);
    Map<String, String> back = legacyGet("de-pseudonymize", "pseudonym", pseudonym);
    JsonArray resultSet =
        answer(post("pseudonymize-allow-create", request("original", domain, List.of(original))));
    JsonArray backSet =
        answer(post("de-pseudonymize", request("pseudonym", domain, List.of(pseudonym))));

    assertThat(created).containsOnlyKeys(original);
    assertThat(back).containsExactly(Map.entry(pseudonym, original));
    assertThat(resultSet.getJsonObject(0).getString("name")).isEqualTo("pseudonym-result-set");
    assertThat(one(resultSet.getJsonObject(0).getJsonArray("part"), "pseudonym"))
        .isEqualTo(string("pseudonym", pseudonym));
    assertThat(one(one(backSet, "pseudonym-result-set").getJsonArray("part"), "original"))
        .isEqualTo(string("original", original));
    assertThat(
            issue(post("de-pseudonymize", request("pseudonym", domain, List.of("nope"))), 404)
                .getString("code"))
        .isEqualTo("not-found");
  }

  /** {@code GET $<operation>?domain=&<name>=<value>}; the answer's parameters by name. */
  private static Map<String, String> legacyGet(String operation, String name, String value) {
    JsonArray parameters =
        answer(
            http.get(
                BASE
                    + "$"
                    + operation
                    + "?domain="
                    + URLEncoder.encode(domain, StandardCharsets.UTF_8)
                    + "&"
                    + name
                    + "="
                    + URLEncoder.encode(value, StandardCharsets.UTF_8)));
    Map<String, String> byName = new HashMap<>();
    parameters.forEach(
        p ->
            byName.put(
                ((JsonObject) p).getString("name"), ((JsonObject) p).getString("valueString")));
    return byName;
  }

  @Test
  void theCapabilityStatementListsTheOperationsFtsNextChecks() {
    CapabilityStatement statement =
        FhirContext.forR4Cached()
            .newJsonParser()
            .parseResource(
                CapabilityStatement.class,
                http.get(BASE + "metadata?_elements=rest.operation").body());

    assertThat(statement.getRest().getFirst().getOperation())
        .extracting(operation -> operation.getName() + " " + operation.getDefinition())
        .containsExactly(
            "pseudonymizeAllowCreate https://ths-greifswald.de/fhir/OperationDefinition/gpas/pseudonymizeAllowCreate",
            "pseudonymize https://ths-greifswald.de/fhir/OperationDefinition/gpas/pseudonymize",
            "dePseudonymize https://ths-greifswald.de/fhir/OperationDefinition/gpas/dePseudonymize",
            "deletePseudonyms https://ths-greifswald.de/fhir/OperationDefinition/gpas/deletePseudonyms",
            "anonymizeOriginals"
                + " https://ths-greifswald.de/fhir/OperationDefinition/gpas/anonymizeOriginals",
            "pseudonymize-allow-create urn:vfps:OperationDefinition:gpas-pseudonymize-allow-create",
            "de-pseudonymize urn:vfps:OperationDefinition:gpas-de-pseudonymize");
    assertThat(
            fhir.capabilities().ofType(CapabilityStatement.class).execute().getSoftware().getName())
        .isEqualTo("VFPS FHIR API");
  }
}
