package org.vfps.fhir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.vfps.fhir.FhirJson.bundle;
import static org.vfps.fhir.FhirJson.entry;
import static org.vfps.fhir.FhirJson.identifier;
import static org.vfps.fhir.FhirJson.named;
import static org.vfps.fhir.FhirJson.one;
import static org.vfps.fhir.FhirJson.parameters;
import static org.vfps.fhir.FhirJson.string;

import ca.uhn.fhir.context.FhirContext;
import ca.uhn.fhir.rest.api.EncodingEnum;
import ca.uhn.fhir.rest.client.api.IGenericClient;
import ca.uhn.fhir.rest.server.exceptions.ResourceGoneException;
import ca.uhn.fhir.rest.server.exceptions.ResourceNotFoundException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import org.hl7.fhir.r4.model.CapabilityStatement;
import org.hl7.fhir.r4.model.Identifier;
import org.hl7.fhir.r4.model.OperationOutcome;
import org.hl7.fhir.r4.model.OperationOutcome.IssueSeverity;
import org.hl7.fhir.r4.model.OperationOutcome.IssueType;
import org.hl7.fhir.r4.model.Parameters;
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
 * Consent withdrawal in the FHIR dialects: the MII module's {@code $delete-pseudonym} and {@code
 * $anonymize-original} through HAPI's generic client, alone and in batch and transaction Bundles,
 * and gPAS's {@code $deletePseudonyms} and {@code $anonymizeOriginals} with many values.
 */
class WithdrawalFhirIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static final String FHIR_JSON = "application/fhir+json; charset=utf-8";
  private static final String MESSAGES = "http://terminology.hl7.org/CodeSystem/operation-outcome";

  private static VfpsServer server;
  private static HttpTestClient http;
  private static GrpcTestClient grpc;
  private static IGenericClient fhir;
  private static IGenericClient gpas;

  @BeforeAll
  static void start() {
    server = resources.own(TestService.start());
    http = resources.own(new HttpTestClient(server.httpPort()));
    grpc = resources.own(new GrpcTestClient(server.grpcPort()));
    FhirContext context = FhirContext.forR4Cached();
    fhir = context.newRestfulGenericClient("http://127.0.0.1:" + server.httpPort() + "/v1/fhir");
    fhir.setEncoding(EncodingEnum.JSON);
    gpas =
        context.newRestfulGenericClient(
            "http://127.0.0.1:" + server.httpPort() + "/ttp-fhir/fhir/gpas");
    gpas.setEncoding(EncodingEnum.JSON);
  }

  private static String create(String namespace, String original) {
    return grpc.ok(
            PseudonymServiceGrpcClient.Create,
            PseudonymServiceCreateRequest.newBuilder()
                .setNamespace(namespace)
                .setOriginalValue(original)
                .build())
        .getPseudonym()
        .getPseudonymValue();
  }

  private static long stored(String namespace, String original) {
    return TestPostgres.pseudonymCount(namespace, original);
  }

  private static Parameters mii(String context, String name, String value) {
    Parameters parameters = new Parameters();
    parameters.addParameter().setName("context").setValue(new Identifier().setValue(context));
    parameters
        .addParameter()
        .setName(name)
        .setValue(new Identifier().setSystem("https://example.org/ids").setValue(value));
    return parameters;
  }

  private static OperationOutcome withdraw(String operation, Parameters parameters) {
    return fhir.operation()
        .onServer()
        .named(operation)
        .withParameters(parameters)
        .returnResourceType(OperationOutcome.class)
        .execute();
  }

  private static Response post(String path, JsonObject body) {
    return http.post(path, FHIR_JSON, body.encode().getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void miiDeletePseudonymAnswersMsgDeletedAndAnUnknownValue404() {
    String namespace = grpc.createNamespace("fhir-withdraw-");
    create(namespace, "patient");

    OperationOutcome outcome = withdraw("$delete-pseudonym", mii(namespace, "original", "patient"));

    assertThat(outcome.getIssue())
        .singleElement()
        .satisfies(
            issue -> {
              assertThat(issue.getSeverity()).isEqualTo(IssueSeverity.INFORMATION);
              assertThat(issue.getCode()).isEqualTo(IssueType.INFORMATIONAL);
              assertThat(issue.getDetails().getCodingFirstRep().getSystem()).isEqualTo(MESSAGES);
              assertThat(issue.getDetails().getCodingFirstRep().getCode()).isEqualTo("MSG_DELETED");
            });
    assertThat(stored(namespace, "patient")).isZero();
    assertThatExceptionOfType(ResourceNotFoundException.class)
        .isThrownBy(() -> withdraw("$delete-pseudonym", mii(namespace, "original", "patient")));
    assertThatExceptionOfType(ResourceNotFoundException.class)
        .isThrownBy(
            () ->
                withdraw(
                    "$anonymize-original",
                    mii("no-such-" + UUID.randomUUID(), "original", "patient")));
  }

  @Test
  void miiAnonymizeOriginalKeepsThePseudonymWhoseDePseudonymizeIsGone() {
    String namespace = grpc.createNamespace("fhir-withdraw-");
    String pseudonym = create(namespace, "patient");

    OperationOutcome outcome =
        withdraw("$anonymize-original", mii(namespace, "original", "patient"));

    assertThat(outcome.getIssueFirstRep().getDetails().getCodingFirstRep().getCode())
        .isEqualTo("MSG_UPDATED");
    assertThat(stored(namespace, "patient")).isZero();
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(1);
    assertThatExceptionOfType(ResourceGoneException.class)
        .isThrownBy(
            () ->
                fhir.operation()
                    .onServer()
                    .named("$de-pseudonymize")
                    .withParameters(mii(namespace, "pseudonym", pseudonym))
                    .execute());
    // the version 1.1 shape, with target, is read too
    create(namespace, "again");
    Response old =
        post(
            "/v1/fhir/$anonymize-original",
            parameters(string("target", namespace), string("original", "again")));
    assertThat(old.status()).as(old.body()).isEqualTo(200);
    assertThat(stored(namespace, "again")).isZero();
  }

  @Test
  void aBatchBundleAnswersEachWithdrawalOnItsOwn() {
    String namespace = grpc.createNamespace("fhir-withdraw-");
    create(namespace, "a");
    create(namespace, "b");
    // withdrawn before the Bundle: a batch's entries are independent and may run side by side
    String c = create(namespace, "c");
    Response anonymized =
        post(
            "/v1/fhir/$anonymize-original",
            parameters(identifier("context", namespace), identifier("original", "c")));
    assertThat(anonymized.status()).as(anonymized.body()).isEqualTo(200);

    Response response =
        post(
            "/v1/fhir",
            bundle(
                "batch",
                List.of(
                    entry(
                        "$delete-pseudonym",
                        parameters(identifier("context", namespace), identifier("original", "a"))),
                    entry(
                        "$delete-pseudonym",
                        parameters(
                            identifier("context", namespace), identifier("original", "unknown"))),
                    entry(
                        "$anonymize-original",
                        parameters(identifier("context", namespace), identifier("original", "b"))),
                    entry(
                        "$de-pseudonymize",
                        parameters(
                            identifier("context", namespace), identifier("pseudonym", c))))));

    assertThat(response.status()).as(response.body()).isEqualTo(200);
    JsonArray entries = response.json().getJsonArray("entry");
    assertThat(
            entries.stream()
                .map(e -> ((JsonObject) e).getJsonObject("response").getString("status")))
        .containsExactly("200 OK", "404 Not Found", "200 OK", "410 Gone");
    assertThat(
            entries
                .getJsonObject(3)
                .getJsonObject("resource")
                .getJsonArray("issue")
                .getJsonObject(0)
                .getString("code"))
        .isEqualTo("deleted");
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(2);
  }

  @Test
  void aTransactionWithAnUnknownValueWithdrawsNothing() {
    String namespace = grpc.createNamespace("fhir-withdraw-");
    create(namespace, "a");

    Response response =
        post(
            "/v1/fhir",
            bundle(
                "transaction",
                List.of(
                    entry(
                        "$delete-pseudonym",
                        parameters(identifier("context", namespace), identifier("original", "a"))),
                    entry(
                        "$pseudonymize",
                        parameters(
                            identifier("context", namespace), identifier("original", "new"))),
                    entry(
                        "$anonymize-original",
                        parameters(
                            identifier("context", namespace),
                            identifier("original", "unknown"))))));

    assertThat(response.status()).as(response.body()).isEqualTo(404);
    assertThat(response.body()).contains("Bundle.entry[2]");
    assertThat(stored(namespace, "a")).isEqualTo(1);
    assertThat(stored(namespace, "new")).isZero();

    Response done =
        post(
            "/v1/fhir",
            bundle(
                "transaction",
                List.of(
                    entry(
                        "$delete-pseudonym",
                        parameters(identifier("context", namespace), identifier("original", "a"))),
                    entry(
                        "$pseudonymize",
                        parameters(
                            identifier("context", namespace), identifier("original", "new"))))));
    assertThat(done.status()).as(done.body()).isEqualTo(200);
    assertThat(stored(namespace, "a")).isZero();
    assertThat(stored(namespace, "new")).isEqualTo(1);
  }

  @Test
  void gpasWithdrawalsAnswerASuccessStatusPerValue() {
    String namespace = grpc.createNamespace("gpas-withdraw-");
    create(namespace, "1001");
    String kept = create(namespace, "1002");

    Parameters deleted =
        gpas.operation()
            .onServer()
            .named("$deletePseudonyms")
            .withParameters(
                new Parameters()
                    .addParameter("target", namespace)
                    .addParameter("original", "1001")
                    .addParameter("original", "9999"))
            .execute();
    Response anonymized =
        post(
            "/ttp-fhir/fhir/gpas/$anonymizeOriginals",
            parameters(
                string("target", namespace), string("original", "1002"), string("original", " ")));

    assertThat(deleted.getParameter()).hasSize(2);
    assertThat(deleted.getParameter())
        .allSatisfy(parameter -> assertThat(parameter.getName()).isEqualTo("successStatus"));
    assertThat(((Identifier) deleted.getParameter().get(0).getPart().get(1).getValue()).getValue())
        .isEqualTo("1001");
    assertThat(resultCode(deleted, 0)).isEqualTo(MESSAGES + "#MSG_DELETED");
    assertThat(resultCode(deleted, 1)).isEqualTo("http://hl7.org/fhir/issue-type#not-found");
    assertThat(anonymized.status()).as(anonymized.body()).isEqualTo(200);
    List<JsonObject> statuses = named(anonymized.json().getJsonArray("parameter"), "successStatus");
    assertThat(statuses).hasSize(2);
    assertThat(
            one(statuses.get(0).getJsonArray("part"), "result-code")
                .getJsonObject("valueCoding")
                .getString("code"))
        .isEqualTo("MSG_UPDATED");
    assertThat(
            one(statuses.get(1).getJsonArray("part"), "result-code")
                .getJsonObject("valueCoding")
                .getString("code"))
        .isEqualTo("invalid");
    assertThat(stored(namespace, "1001")).isZero();
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(1);

    Response lookup =
        post(
            "/ttp-fhir/fhir/gpas/$dePseudonymize",
            parameters(string("target", namespace), string("pseudonym", kept)));
    JsonObject error = one(lookup.json().getJsonArray("parameter"), "error");
    assertThat(
            one(error.getJsonArray("part"), "error-code")
                .getJsonObject("valueCoding")
                .getString("code"))
        .isEqualTo("deleted");
    Response unknownDomain =
        post(
            "/ttp-fhir/fhir/gpas/$deletePseudonyms",
            parameters(string("target", "no-such-" + UUID.randomUUID()), string("original", "1")));
    assertThat(unknownDomain.status()).isEqualTo(400);
    assertThat(unknownDomain.body()).contains("Unknown domain");
  }

  @Test
  void theCapabilityStatementsListTheWithdrawals() {
    CapabilityStatement base = fhir.capabilities().ofType(CapabilityStatement.class).execute();
    CapabilityStatement gateway = gpas.capabilities().ofType(CapabilityStatement.class).execute();

    assertThat(base.getRestFirstRep().getOperation())
        .extracting(operation -> operation.getName())
        .contains("delete-pseudonym", "anonymize-original");
    assertThat(gateway.getRestFirstRep().getOperation())
        .extracting(operation -> operation.getName())
        .contains("deletePseudonyms", "anonymizeOriginals");
  }

  private static String resultCode(Parameters reply, int index) {
    var coding =
        (org.hl7.fhir.r4.model.Coding) reply.getParameter().get(index).getPart().get(2).getValue();
    return coding.getSystem() + "#" + coding.getCode();
  }
}
