package org.vfps.fhir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import ca.uhn.fhir.context.FhirContext;
import ca.uhn.fhir.rest.api.EncodingEnum;
import ca.uhn.fhir.rest.client.api.IGenericClient;
import ca.uhn.fhir.rest.server.exceptions.ResourceNotFoundException;
import ca.uhn.fhir.rest.server.exceptions.UnprocessableEntityException;
import io.vertx.core.json.JsonObject;
import java.util.UUID;
import org.hl7.fhir.r4.model.CapabilityStatement;
import org.hl7.fhir.r4.model.OperationOutcome;
import org.hl7.fhir.r4.model.Parameters;
import org.hl7.fhir.r4.model.StringType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.ClassResources;
import org.vfps.HttpTestClient;
import org.vfps.HttpTestClient.Response;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.server.VfpsServer;

/**
 * The .NET vfps 1.22's {@code $resolve-pseudonym} and the regex check of its FHIR operations,
 * through HAPI's generic client; the REST {@code :resolve} beside them.
 */
class FhirResolveIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static VfpsServer server;
  private static HttpTestClient http;
  private static IGenericClient fhir;
  private static String namespace;

  @BeforeAll
  static void start() {
    server = resources.own(TestService.start());
    http = resources.own(new HttpTestClient(server.httpPort()));
    fhir =
        FhirContext.forR4()
            .newRestfulGenericClient("http://127.0.0.1:" + server.httpPort() + "/v1/fhir");
    fhir.setEncoding(EncodingEnum.JSON);
    namespace = "resolve-" + UUID.randomUUID();
    Response created =
        http.postJson(
            "/v1/namespaces",
            new JsonObject()
                .put("name", namespace)
                .put("pseudonymLength", 16)
                .put("originalValueValidationRegex", "^P[0-9]+$")
                .put("allowsMultiplePseudonyms", true)
                .encode());
    assertThat(created.status()).as(created.body()).isEqualTo(200);
  }

  private static Parameters request(String originalValue) {
    Parameters parameters = new Parameters();
    parameters.addParameter().setName("namespace").setValue(new StringType(namespace));
    parameters.addParameter().setName("originalValue").setValue(new StringType(originalValue));
    return parameters;
  }

  private static Parameters call(String operation, String originalValue) {
    return fhir.operation()
        .onServer()
        .named(operation)
        .withParameters(request(originalValue))
        .execute();
  }

  private static String value(Parameters parameters, String name) {
    return parameters.getParameter(name).getValue().primitiveValue();
  }

  @Test
  void resolveFindsThePseudonymOfSequenceNumberZeroAndCreatesNone() {
    Response three =
        http.postJson(
            "/v1/namespaces/" + namespace + "/pseudonyms",
            new JsonObject().put("originalValue", "P100").put("count", 3).encode());
    assertThat(three.status()).as(three.body()).isEqualTo(200);
    String first = three.json().getJsonObject("pseudonym").getString("pseudonymValue");
    assertThat(three.json().getJsonArray("pseudonyms")).hasSize(3);
    assertThat(three.json().getJsonArray("pseudonyms").getJsonObject(2).getLong("sequenceNumber"))
        .isEqualTo(2);

    long stored = TestPostgres.pseudonymCount(namespace);

    Parameters resolved = call("$resolve-pseudonym", "P100");

    assertThat(value(resolved, "namespace")).isEqualTo(namespace);
    assertThat(value(resolved, "originalValue")).isEqualTo("P100");
    assertThat(value(resolved, "pseudonymValue")).isEqualTo(first);
    assertThat(value(call("$create-pseudonym", "P100"), "pseudonymValue")).isEqualTo(first);
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(stored);
  }

  @Test
  void resolveOfAValueWithoutPseudonymIsNotFoundAndStoresNothing() {
    long before = TestPostgres.pseudonymCount(namespace);

    assertThatExceptionOfType(ResourceNotFoundException.class)
        .isThrownBy(() -> call("$resolve-pseudonym", "P999"))
        .satisfies(
            e -> {
              OperationOutcome.OperationOutcomeIssueComponent issue =
                  ((OperationOutcome) e.getOperationOutcome()).getIssueFirstRep();
              assertThat(issue.getCode()).isEqualTo(OperationOutcome.IssueType.NOTFOUND);
              assertThat(issue.getDiagnostics())
                  .isEqualTo(
                      "the namespace '"
                          + namespace
                          + "' holds no pseudonym for the requested original value.")
                  .doesNotContain("P999");
            });
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(before);
  }

  @Test
  void aValueTheRegexRefusesIsUnprocessableWithABusinessRule() {
    for (String operation : new String[] {"$create-pseudonym", "$resolve-pseudonym"}) {
      assertThatExceptionOfType(UnprocessableEntityException.class)
          .isThrownBy(() -> call(operation, "X100"))
          .satisfies(
              e -> {
                OperationOutcome.OperationOutcomeIssueComponent issue =
                    ((OperationOutcome) e.getOperationOutcome()).getIssueFirstRep();
                assertThat(issue.getCode()).isEqualTo(OperationOutcome.IssueType.BUSINESSRULE);
                assertThat(issue.getDiagnostics())
                    .isEqualTo(
                        "The original value does not match the required pattern '^P[0-9]+$'"
                            + " for namespace '"
                            + namespace
                            + "'.");
              });
    }
  }

  @Test
  void theCapabilityStatementListsResolvePseudonym() {
    CapabilityStatement statement = fhir.capabilities().ofType(CapabilityStatement.class).execute();

    assertThat(statement.getRestFirstRep().getOperation())
        .extracting(CapabilityStatement.CapabilityStatementRestResourceOperationComponent::getName)
        .contains("create-pseudonym", "resolve-pseudonym");
  }

  @Test
  void restResolveAnswersEveryPseudonymAndNotFoundWithoutTheValue() {
    http.postJson(
        "/v1/namespaces/" + namespace + "/pseudonyms",
        new JsonObject().put("originalValue", "P200").put("count", 2).encode());

    Response resolved =
        http.postJson(
            "/v1/namespaces/" + namespace + "/pseudonyms:resolve",
            new JsonObject().put("originalValue", "P200").encode());
    assertThat(resolved.status()).as(resolved.body()).isEqualTo(200);
    assertThat(resolved.json().getJsonArray("pseudonyms")).hasSize(2);
    assertThat(resolved.json().getJsonObject("pseudonym").getLong("sequenceNumber")).isZero();

    Response unknown =
        http.postJson(
            "/v1/namespaces/" + namespace + "/pseudonyms:resolve",
            new JsonObject().put("originalValue", "P201").encode());
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.json().getInteger("code")).isEqualTo(5);
    assertThat(unknown.body()).doesNotContain("P201");

    Response mismatch =
        http.postJson(
            "/v1/namespaces/" + namespace + "/pseudonyms:resolve",
            new JsonObject().put("originalValue", "nope").encode());
    assertThat(mismatch.status()).isEqualTo(400);
    assertThat(mismatch.json().getInteger("code")).isEqualTo(3);
  }
}
