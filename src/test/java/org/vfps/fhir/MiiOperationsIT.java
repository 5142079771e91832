package org.vfps.fhir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.vfps.fhir.FhirJson.bool;
import static org.vfps.fhir.FhirJson.identifier;
import static org.vfps.fhir.FhirJson.one;
import static org.vfps.fhir.FhirJson.parameters;
import static org.vfps.fhir.FhirJson.string;

import ca.uhn.fhir.context.FhirContext;
import ca.uhn.fhir.rest.api.EncodingEnum;
import ca.uhn.fhir.rest.client.api.IGenericClient;
import ca.uhn.fhir.rest.server.exceptions.InvalidRequestException;
import ca.uhn.fhir.rest.server.exceptions.ResourceNotFoundException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import org.hl7.fhir.r4.model.Identifier;
import org.hl7.fhir.r4.model.OperationOutcome;
import org.hl7.fhir.r4.model.Parameters;
import org.hl7.fhir.r4.model.Parameters.ParametersParameterComponent;
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
 * The MII interface module's operations: through HAPI's generic client in the 2026 shape, and as
 * raw JSON in the version 1.1 shape the FHIR pseudonymizer's MII backend sends.
 */
class MiiOperationsIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static final String FHIR_JSON = "application/fhir+json; charset=utf-8";
  private static final String SYSTEM = "https://example.org/psn-system";

  private static VfpsServer server;
  private static HttpTestClient http;
  private static GrpcTestClient grpc;
  private static IGenericClient fhir;
  private static String namespace;

  @BeforeAll
  static void start() {
    server = resources.own(TestService.start());
    http = resources.own(new HttpTestClient(server.httpPort()));
    grpc = resources.own(new GrpcTestClient(server.grpcPort()));
    fhir =
        FhirContext.forR4Cached()
            .newRestfulGenericClient("http://127.0.0.1:" + server.httpPort() + "/v1/fhir");
    fhir.setEncoding(EncodingEnum.JSON);
    namespace = "mii-" + UUID.randomUUID();
    Response created =
        http.postJson(
            "/v1/namespaces",
            new JsonObject().put("name", namespace).put("pseudonymLength", 32).encode());
    assertThat(created.status()).isEqualTo(200);
  }

  private static Parameters request(String contextValue, String valueName, String value) {
    Parameters parameters = new Parameters();
    parameters
        .addParameter()
        .setName("context")
        .setValue(new Identifier().setSystem(SYSTEM).setValue(contextValue));
    parameters
        .addParameter()
        .setName(valueName)
        .setValue(new Identifier().setSystem("https://example.org/ids").setValue(value));
    return parameters;
  }

  private static Parameters call(String operation, Parameters parameters) {
    return fhir.operation().onServer().named(operation).withParameters(parameters).execute();
  }

  private static Response post(String operation, JsonObject body) {
    return http.post(
        "/v1/fhir/$" + operation, FHIR_JSON, body.encode().getBytes(StandardCharsets.UTF_8));
  }

  private static String identifierValue(ParametersParameterComponent parameter) {
    return ((Identifier) parameter.getValue()).getValue();
  }

  /** The single issue of an OperationOutcome answer, after checking status and content type. */
  private static JsonObject issue(Response response, int status) {
    assertThat(response.status()).as(response.body()).isEqualTo(status);
    assertThat(response.contentType()).isEqualTo(FHIR_JSON);
    JsonObject outcome = response.json();
    assertThat(outcome.getString("resourceType")).isEqualTo("OperationOutcome");
    assertThat(outcome.getJsonArray("issue")).hasSize(1);
    return outcome.getJsonArray("issue").getJsonObject(0);
  }

  @Test
  void pseudonymizeCreatesOnceAndEchoesTheInputAsHapiSendsIt() {
    String original = "hapi-" + UUID.randomUUID();

    Parameters first = call("$pseudonymize", request(namespace, "original", original));
    Parameters second = call("$pseudonymize", request(namespace, "original", original));

    assertThat(first.getParameter())
        .extracting(ParametersParameterComponent::getName)
        .containsExactly("context", "original", "pseudonym");
    Identifier context = (Identifier) first.getParameter("context").getValue();
    assertThat(context.getSystem()).isEqualTo(SYSTEM);
    assertThat(context.getValue()).isEqualTo(namespace);
    Identifier echoed = (Identifier) first.getParameter("original").getValue();
    assertThat(echoed.getSystem()).isEqualTo("https://example.org/ids");
    assertThat(echoed.getValue()).isEqualTo(original);
    String pseudonym = identifierValue(first.getParameter("pseudonym"));
    assertThat(pseudonym).hasSize(54).isNotEqualTo(original);
    assertThat(identifierValue(second.getParameter("pseudonym"))).isEqualTo(pseudonym);
    assertThat(TestPostgres.pseudonymCount(namespace, original)).isEqualTo(1);
  }

  @Test
  void everyApiGivesTheSamePseudonymForTheSameValue() {
    String original = "same-" + UUID.randomUUID();
    String viaGrpc =
        grpc.call(
                PseudonymServiceGrpcClient.Create,
                PseudonymServiceCreateRequest.newBuilder()
                    .setNamespace(namespace)
                    .setOriginalValue(original)
                    .build())
            .body()
            .getPseudonym()
            .getPseudonymValue();

    Response dotnet =
        post(
            "create-pseudonym",
            parameters(string("namespace", namespace), string("originalValue", original)));
    Parameters mii = call("$pseudonymize", request(namespace, "original", original));
    Response version11 =
        post("pseudonymize", parameters(string("target", namespace), string("original", original)));

    assertThat(
            one(dotnet.json().getJsonArray("parameter"), "pseudonymValue").getString("valueString"))
        .isEqualTo(viaGrpc);
    assertThat(identifierValue(mii.getParameter("pseudonym"))).isEqualTo(viaGrpc);
    assertThat(
            one(version11.json().getJsonArray("parameter"), "pseudonym").getString("valueString"))
        .isEqualTo(viaGrpc);
  }

  /** The FHIR pseudonymizer's MII backend (version 1.1): strings and allowCreate=true. */
  @Test
  void version11AnswersStringsAsTheFhirPseudonymizerReadsThem() {
    String original = "v11-" + UUID.randomUUID();

    Response response =
        post(
            "pseudonymize",
            parameters(
                string("target", namespace),
                string("original", original),
                bool("allowCreate", true)));

    assertThat(response.status()).as(response.body()).isEqualTo(200);
    assertThat(response.contentType()).isEqualTo(FHIR_JSON);
    JsonArray parameters = response.json().getJsonArray("parameter");
    assertThat(parameters.stream().map(p -> ((JsonObject) p).getString("name")))
        .containsExactly("target", "original", "pseudonym");
    assertThat(one(parameters, "target")).isEqualTo(string("target", namespace));
    assertThat(one(parameters, "original")).isEqualTo(string("original", original));
    String pseudonym = one(parameters, "pseudonym").getString("valueString");
    assertThat(pseudonym).hasSize(54);

    Response back =
        post(
            "de-pseudonymize",
            parameters(string("target", namespace), string("pseudonym", pseudonym)));

    assertThat(back.status()).as(back.body()).isEqualTo(200);
    JsonArray parts = one(back.json().getJsonArray("parameter"), "original").getJsonArray("part");
    assertThat(one(parts, "target")).isEqualTo(string("target", namespace));
    assertThat(one(parts, "value")).isEqualTo(string("value", original));
    assertThat(one(parts, "pseudonym")).isEqualTo(string("pseudonym", pseudonym));
  }

  @Test
  void version11AcceptsIdentifiersAndAllowCreateFalseOnlyLooksUp() {
    String original = "lookup-" + UUID.randomUUID();
    JsonObject lookup =
        parameters(
            string("target", namespace),
            identifier("original", SYSTEM, original),
            bool("allowCreate", false));

    JsonObject issue = issue(post("pseudonymize", lookup), 404);
    assertThat(issue.getString("code")).isEqualTo("not-found");
    assertThat(issue.getJsonArray("expression"))
        .containsExactly("Parameters.parameter.where(name='original')");
    assertThat(TestPostgres.pseudonymCount(namespace)).isGreaterThanOrEqualTo(0);
    assertThat(TestPostgres.pseudonymCount(namespace, original)).isZero();

    Response created =
        post("pseudonymize", parameters(string("target", namespace), string("original", original)));
    Response found = post("pseudonymize", lookup);

    assertThat(found.status()).as(found.body()).isEqualTo(200);
    assertThat(one(found.json().getJsonArray("parameter"), "original"))
        .isEqualTo(identifier("original", SYSTEM, original));
    assertThat(one(found.json().getJsonArray("parameter"), "pseudonym"))
        .isEqualTo(one(created.json().getJsonArray("parameter"), "pseudonym"));
  }

  @Test
  void getPseudonymFindsButNeverCreates() {
    String original = "get-" + UUID.randomUUID();
    long before = TestPostgres.pseudonymCount(namespace);

    assertThatExceptionOfType(ResourceNotFoundException.class)
        .isThrownBy(() -> call("$get-pseudonym", request(namespace, "original", original)))
        .satisfies(
            e ->
                assertThat(((OperationOutcome) e.getOperationOutcome()).getIssueFirstRep())
                    .satisfies(
                        issue -> {
                          assertThat(issue.getCode().toCode()).isEqualTo("not-found");
                          assertThat(issue.getExpression().getFirst().getValue())
                              .isEqualTo("Parameters.parameter.where(name='original')");
                        }));
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(before);

    String pseudonym =
        identifierValue(
            call("$pseudonymize", request(namespace, "original", original))
                .getParameter("pseudonym"));
    Parameters found = call("$get-pseudonym", request(namespace, "original", original));

    assertThat(identifierValue(found.getParameter("pseudonym"))).isEqualTo(pseudonym);
    assertThat(identifierValue(found.getParameter("original"))).isEqualTo(original);
  }

  @Test
  void dePseudonymizeAnswersTheOriginalValueInParts() {
    String original = "back-" + UUID.randomUUID();
    String pseudonym =
        identifierValue(
            call("$pseudonymize", request(namespace, "original", original))
                .getParameter("pseudonym"));

    Parameters answer = call("$de-pseudonymize", request(namespace, "pseudonym", pseudonym));

    ParametersParameterComponent found = answer.getParameter("original");
    assertThat(found.getPart())
        .extracting(ParametersParameterComponent::getName)
        .containsExactly("context", "value", "pseudonym");
    assertThat(identifierValue(found.getPart().get(0))).isEqualTo(namespace);
    assertThat(((Identifier) found.getPart().get(0).getValue()).getSystem()).isEqualTo(SYSTEM);
    assertThat(identifierValue(found.getPart().get(1))).isEqualTo(original);
    assertThat(identifierValue(found.getPart().get(2))).isEqualTo(pseudonym);

    assertThatExceptionOfType(ResourceNotFoundException.class)
        .isThrownBy(() -> call("$de-pseudonymize", request(namespace, "pseudonym", "no-such")));
  }

  @Test
  void anUnknownContextIsNotFoundWithTheModulesExpression() {
    String missing = "mii-missing-" + UUID.randomUUID();
    for (String operation : List.of("pseudonymize", "get-pseudonym", "de-pseudonymize")) {
      String valueName = operation.equals("de-pseudonymize") ? "pseudonym" : "original";
      JsonObject issue =
          issue(
              post(
                  operation,
                  parameters(identifier("context", missing), identifier(valueName, "x"))),
              404);

      assertThat(issue.getString("code")).as(operation).isEqualTo("not-found");
      assertThat(issue.getString("diagnostics")).as(operation).contains("'" + missing + "'");
      assertThat(issue.getJsonArray("expression"))
          .as(operation)
          .containsExactly("Parameters.parameter.where(name='context')");
    }
    JsonObject issue =
        issue(
            post("pseudonymize", parameters(string("target", missing), string("original", "x"))),
            404);
    assertThat(issue.getJsonArray("expression"))
        .containsExactly("Parameters.parameter.where(name='target')");
  }

  @Test
  void badRequestsAreOperationOutcomesAndStoreNothing() {
    long before = TestPostgres.pseudonymCount(namespace);
    String tooLong = "x".repeat(2049);
    List<JsonObject> bad =
        List.of(
            parameters(),
            parameters(identifier("context", namespace)),
            parameters(identifier("original", "a")),
            parameters(
                identifier("context", namespace),
                identifier("context", namespace),
                identifier("original", "a")),
            parameters(
                identifier("context", namespace),
                identifier("original", "a"),
                identifier("original", "b")),
            parameters(string("context", namespace), identifier("original", "a")),
            parameters(identifier("context", namespace), string("original", "a")),
            parameters(
                identifier("context", namespace),
                new JsonObject()
                    .put("name", "original")
                    .put("valueIdentifier", new JsonObject().put("system", SYSTEM))),
            parameters(
                identifier("context", namespace),
                string("target", namespace),
                identifier("original", "a")),
            parameters(string("target", namespace), bool("original", true)),
            parameters(
                string("target", namespace), string("original", "a"), string("allowCreate", "yes")),
            parameters(identifier("context", namespace), identifier("original", "   ")),
            parameters(identifier("context", namespace), identifier("original", tooLong)),
            new JsonObject().put("resourceType", "Patient"));
    for (JsonObject body : bad) {
      JsonObject issue = issue(post("pseudonymize", body), 400);
      assertThat(issue.getString("diagnostics")).as(body.encode()).isNotBlank();
    }
    assertThat(
            issue(post("get-pseudonym", parameters(identifier("context", namespace))), 400)
                .getString("diagnostics"))
        .contains("'original'");
    assertThat(
            issue(post("de-pseudonymize", parameters(identifier("context", namespace))), 400)
                .getString("diagnostics"))
        .contains("'pseudonym'");
    assertThat(
            http.post("/v1/fhir/$pseudonymize", "text/plain", "x".getBytes(StandardCharsets.UTF_8))
                .status())
        .isEqualTo(415);
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(before);
    assertThatExceptionOfType(InvalidRequestException.class)
        .isThrownBy(() -> call("$pseudonymize", new Parameters()));
  }
}
