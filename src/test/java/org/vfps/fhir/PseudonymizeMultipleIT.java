package org.vfps.fhir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.vfps.fhir.FhirJson.bundle;
import static org.vfps.fhir.FhirJson.entry;
import static org.vfps.fhir.FhirJson.identifier;
import static org.vfps.fhir.FhirJson.integer;
import static org.vfps.fhir.FhirJson.parameters;
import static org.vfps.fhir.FhirJson.string;

import ca.uhn.fhir.context.FhirContext;
import ca.uhn.fhir.parser.IParser;
import ca.uhn.fhir.rest.api.EncodingEnum;
import ca.uhn.fhir.rest.client.api.IGenericClient;
import ca.uhn.fhir.rest.server.exceptions.InvalidRequestException;
import ca.uhn.fhir.rest.server.exceptions.ResourceNotFoundException;
import io.vertx.core.json.JsonObject;
import io.vertx.grpc.common.GrpcStatus;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.hl7.fhir.r4.model.Bundle;
import org.hl7.fhir.r4.model.Bundle.BundleEntryComponent;
import org.hl7.fhir.r4.model.Bundle.BundleType;
import org.hl7.fhir.r4.model.Bundle.HTTPVerb;
import org.hl7.fhir.r4.model.Identifier;
import org.hl7.fhir.r4.model.IntegerType;
import org.hl7.fhir.r4.model.OperationOutcome;
import org.hl7.fhir.r4.model.OperationOutcome.IssueType;
import org.hl7.fhir.r4.model.Parameters;
import org.hl7.fhir.r4.model.Parameters.ParametersParameterComponent;
import org.hl7.fhir.r4.model.Resource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.ClassResources;
import org.vfps.GrpcTestClient;
import org.vfps.GrpcTestClient.Reply;
import org.vfps.HttpTestClient;
import org.vfps.HttpTestClient.Response;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.api.v1.Pseudonym;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceCreateResponse;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.api.v1.PseudonymServiceResolveRequest;
import org.vfps.server.VfpsServer;

/**
 * The MII interface module's {@code $pseudonymize-multiple}: through HAPI's generic client, alone
 * and in batch and transaction Bundles, against the pseudonyms and the refusals of {@code count}
 * over gRPC.
 */
class PseudonymizeMultipleIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static final String FHIR_JSON = "application/fhir+json; charset=utf-8";
  private static final String SYSTEM = "https://example.org/multi-psn-system";

  private static VfpsServer server;
  private static HttpTestClient http;
  private static GrpcTestClient grpc;
  private static IGenericClient fhir;
  private static IParser parser;
  private static String multiple;
  private static String single;

  @BeforeAll
  static void start() {
    server = resources.own(TestService.start());
    http = resources.own(new HttpTestClient(server.httpPort()));
    grpc = resources.own(new GrpcTestClient(server.grpcPort()));
    FhirContext context = FhirContext.forR4Cached();
    fhir = context.newRestfulGenericClient("http://127.0.0.1:" + server.httpPort() + "/v1/fhir");
    fhir.setEncoding(EncodingEnum.JSON);
    parser = context.newJsonParser();
    multiple = namespace("mii-multiple-", true);
    single = namespace("mii-single-", false);
  }

  private static String namespace(String prefix, boolean allowsMultiple) {
    String name = prefix + UUID.randomUUID();
    Response created =
        http.postJson(
            "/v1/namespaces",
            new JsonObject()
                .put("name", name)
                .put("pseudonymLength", 32)
                .put("allowsMultiplePseudonyms", allowsMultiple)
                .encode());
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    return name;
  }

  private static Parameters request(String context, String original, int count) {
    Parameters parameters = new Parameters();
    parameters
        .addParameter()
        .setName("context")
        .setValue(new Identifier().setSystem(SYSTEM).setValue(context));
    parameters
        .addParameter()
        .setName("original")
        .setValue(new Identifier().setSystem(SYSTEM).setValue(original));
    parameters.addParameter().setName("count").setValue(new IntegerType(count));
    return parameters;
  }

  private static Parameters call(String context, String original, int count) {
    return fhir.operation()
        .onServer()
        .named("$pseudonymize-multiple")
        .withParameters(request(context, original, count))
        .execute();
  }

  private static Response post(JsonObject body) {
    return http.post(
        "/v1/fhir/$pseudonymize-multiple",
        FHIR_JSON,
        body.encode().getBytes(StandardCharsets.UTF_8));
  }

  private static JsonObject body(String context, String original, long count) {
    return parameters(
        identifier("context", SYSTEM, context),
        identifier("original", SYSTEM, original),
        integer("count", count));
  }

  /** The {@code value} of each {@code pseudonym}, after checking that it echoes the request. */
  private static List<String> values(Parameters answer, String context, String original) {
    List<String> values = new ArrayList<>();
    for (ParametersParameterComponent pseudonym : answer.getParameter()) {
      assertThat(pseudonym.getName()).isEqualTo("pseudonym");
      assertThat(pseudonym.getPart())
          .extracting(ParametersParameterComponent::getName)
          .containsExactly("context", "original", "value");
      Identifier echoedContext = (Identifier) pseudonym.getPart().get(0).getValue();
      assertThat(echoedContext.getSystem()).isEqualTo(SYSTEM);
      assertThat(echoedContext.getValue()).isEqualTo(context);
      Identifier echoedOriginal = (Identifier) pseudonym.getPart().get(1).getValue();
      assertThat(echoedOriginal.getSystem()).isEqualTo(SYSTEM);
      assertThat(echoedOriginal.getValue()).isEqualTo(original);
      values.add(((Identifier) pseudonym.getPart().get(2).getValue()).getValue());
    }
    return values;
  }

  private static List<String> resolvedOverGrpc(String namespace, String original) {
    return grpc
        .call(
            PseudonymServiceGrpcClient.Resolve,
            PseudonymServiceResolveRequest.newBuilder()
                .setNamespace(namespace)
                .setOriginalValue(original)
                .build())
        .body()
        .getPseudonymsList()
        .stream()
        .map(Pseudonym::getPseudonymValue)
        .toList();
  }

  private static Reply<PseudonymServiceCreateResponse> createOverGrpc(
      String namespace, String original, long count) {
    return grpc.call(
        PseudonymServiceGrpcClient.Create,
        PseudonymServiceCreateRequest.newBuilder()
            .setNamespace(namespace)
            .setOriginalValue(original)
            .setCount(count)
            .build());
  }

  /** The single issue of an OperationOutcome answer, after checking status and content type. */
  private static OperationOutcome.OperationOutcomeIssueComponent issue(
      Response response, int status) {
    assertThat(response.status()).as(response.body()).isEqualTo(status);
    assertThat(response.contentType()).isEqualTo(FHIR_JSON);
    OperationOutcome outcome = parser.parseResource(OperationOutcome.class, response.body());
    assertThat(outcome.getIssue()).hasSize(1);
    return outcome.getIssueFirstRep();
  }

  @Test
  void countMakesThatManyNewPseudonymsAndZeroAnswersEveryOne() {
    String original = "multi-" + UUID.randomUUID();

    List<String> first = values(call(multiple, original, 3), multiple, original);
    List<String> more = values(call(multiple, original, 2), multiple, original);
    List<String> all = values(call(multiple, original, 0), multiple, original);

    assertThat(first)
        .hasSize(3)
        .doesNotHaveDuplicates()
        .allSatisfy(value -> assertThat(value).hasSize(54));
    assertThat(more).hasSize(2).doesNotContainAnyElementsOf(first).doesNotHaveDuplicates();
    List<String> expected = new ArrayList<>(first);
    expected.addAll(more);
    assertThat(all).containsExactlyElementsOf(expected);
    assertThat(resolvedOverGrpc(multiple, original)).containsExactlyElementsOf(expected);
    assertThat(TestPostgres.pseudonymCount(multiple, original)).isEqualTo(5);
  }

  @Test
  void countZeroCreatesNothingAndAValueWithoutPseudonymsIsNotFound() {
    String original = "never-" + UUID.randomUUID();

    Response response = post(body(multiple, original, 0));

    OperationOutcome.OperationOutcomeIssueComponent issue = issue(response, 404);
    assertThat(issue.getCode()).isEqualTo(IssueType.NOTFOUND);
    assertThat(issue.getExpression().getFirst().getValue())
        .isEqualTo("Parameters.parameter.where(name='original')");
    assertThat(TestPostgres.pseudonymCount(multiple, original)).isZero();
    assertThatExceptionOfType(ResourceNotFoundException.class)
        .isThrownBy(() -> call(multiple, original, 0));
  }

  @Test
  void aNamespaceOfOnePseudonymPerValueTakesOneAndRefusesMoreAsGrpcDoes() {
    String original = "single-" + UUID.randomUUID();

    OperationOutcome.OperationOutcomeIssueComponent two =
        issue(post(body(single, original, 2)), 400);
    Reply<PseudonymServiceCreateResponse> twoOverGrpc = createOverGrpc(single, original, 2);

    assertThat(twoOverGrpc.status()).isEqualTo(GrpcStatus.FAILED_PRECONDITION);
    assertThat(two.getDiagnostics()).isEqualTo(twoOverGrpc.message());
    assertThat(TestPostgres.pseudonymCount(single, original)).isZero();

    List<String> one = values(call(single, original, 1), single, original);
    assertThat(one).hasSize(1);
    assertThat(resolvedOverGrpc(single, original)).isEqualTo(one);
    assertThat(issue(post(body(single, original, 1)), 400).getDiagnostics())
        .isEqualTo(twoOverGrpc.message());
    assertThat(values(call(single, original, 0), single, original)).isEqualTo(one);
    assertThat(TestPostgres.pseudonymCount(single, original)).isEqualTo(1);
  }

  @Test
  void countsOutOfRangeAreRefusedAsGrpcRefusesThem() {
    String original = "range-" + UUID.randomUUID();
    for (long count : new long[] {-1, 10_001}) {
      OperationOutcome.OperationOutcomeIssueComponent issue =
          issue(post(body(multiple, original, count)), 400);
      Reply<PseudonymServiceCreateResponse> overGrpc = createOverGrpc(multiple, original, count);

      assertThat(overGrpc.status()).isEqualTo(GrpcStatus.INVALID_ARGUMENT);
      assertThat(overGrpc.message()).startsWith("count must be at");
      assertThat(issue.getDiagnostics()).as("count %d", count).startsWith("count must be at");
      assertThat(issue.getExpression().getFirst().getValue())
          .isEqualTo("Parameters.parameter.where(name='count')");
    }
    assertThat(TestPostgres.pseudonymCount(multiple, original)).isZero();

    assertThat(values(call(multiple, original, 9_999), multiple, original)).hasSize(9_999);
    assertThat(values(call(multiple, original, 1), multiple, original)).hasSize(1);
    OperationOutcome.OperationOutcomeIssueComponent full =
        issue(post(body(multiple, original, 1)), 400);
    assertThat(full.getDiagnostics())
        .isEqualTo(
            "count must be at most 0 here: the original value has 10000 pseudonyms, and a value"
                + " has at most 10000.");
    assertThat(TestPostgres.pseudonymCount(multiple, original)).isEqualTo(10_000);
  }

  @Test
  void badRequestsAreOperationOutcomesAndStoreNothing() {
    String original = "bad-" + UUID.randomUUID();
    List<JsonObject> bad =
        List.of(
            parameters(identifier("context", multiple), identifier("original", original)),
            parameters(identifier("original", original), integer("count", 1)),
            parameters(identifier("context", multiple), integer("count", 1)),
            parameters(
                identifier("context", multiple),
                identifier("original", original),
                integer("count", 1),
                integer("count", 2)),
            parameters(
                identifier("context", multiple),
                identifier("original", original),
                string("count", "1")),
            parameters(
                string("target", multiple), identifier("original", original), integer("count", 1)),
            parameters(
                identifier("context", multiple), string("original", original), integer("count", 1)),
            parameters(
                identifier("context", multiple), identifier("original", "  "), integer("count", 1)),
            parameters(
                identifier("context", multiple),
                identifier("original", original),
                new JsonObject().put("name", "count").put("valueDecimal", 1.5)),
            body(multiple, "x".repeat(2049), 1));
    for (JsonObject request : bad) {
      OperationOutcome.OperationOutcomeIssueComponent issue = issue(post(request), 400);
      assertThat(issue.getDiagnostics()).as(request.encode()).isNotBlank();
    }
    assertThat(
            issue(post(parameters(identifier("original", original), integer("count", 1))), 400)
                .getDiagnostics())
        .isEqualTo("The parameter 'context' is missing.");
    assertThat(
            issue(
                    post(
                        parameters(
                            identifier("context", multiple), identifier("original", original))),
                    400)
                .getDiagnostics())
        .isEqualTo("The parameter 'count' is missing.");
    assertThat(
            http.post(
                    "/v1/fhir/$pseudonymize-multiple",
                    FHIR_JSON,
                    ("{\"resourceType\": \"Parameters\", \"parameter\": [{\"name\": \"context\","
                            + " \"valueIdentifier\": {\"value\": \""
                            + multiple
                            + "\"}}, {\"name\": \"original\", \"valueIdentifier\": {\"value\":"
                            + " \"a\"}}, {\"name\": \"count\", \"valueInteger\": 3000000000}]}")
                        .getBytes(StandardCharsets.UTF_8))
                .status())
        .isEqualTo(400);
    assertThat(TestPostgres.pseudonymCount(multiple, original)).isZero();
    assertThat(TestPostgres.pseudonymCount(multiple, "a")).isZero();
    assertThatExceptionOfType(InvalidRequestException.class)
        .isThrownBy(
            () ->
                fhir.operation()
                    .onServer()
                    .named("$pseudonymize-multiple")
                    .withParameters(new Parameters())
                    .execute());
  }

  @Test
  void anUnknownContextIsNotFoundWithTheModulesExpression() {
    String missing = "mii-missing-" + UUID.randomUUID();

    OperationOutcome.OperationOutcomeIssueComponent issue = issue(post(body(missing, "x", 2)), 404);

    assertThat(issue.getCode()).isEqualTo(IssueType.NOTFOUND);
    assertThat(issue.getDiagnostics()).contains("'" + missing + "'");
    assertThat(issue.getExpression().getFirst().getValue())
        .isEqualTo("Parameters.parameter.where(name='context')");
  }

  @Test
  void aBatchAnswersEachEntryWithItsOwnStatus() {
    String added = "batch-" + UUID.randomUUID();
    String known = "batch-" + UUID.randomUUID();
    List<String> knownPseudonyms = values(call(multiple, known, 2), multiple, known);
    String missing = "mii-missing-" + UUID.randomUUID();

    Response response =
        http.post(
            "/v1/fhir",
            FHIR_JSON,
            bundle(
                    "batch",
                    List.of(
                        entry("$pseudonymize-multiple", body(multiple, added, 2)),
                        entry("$pseudonymize-multiple", body(missing, added, 2)),
                        entry("$pseudonymize-multiple", body(multiple, known, 0)),
                        entry("/$pseudonymize-multiple", body(multiple, "never", 0)),
                        entry("$pseudonymize-multiple", body(single, added, 2)),
                        entry("$pseudonymize-multiple", body(multiple, added, -1))))
                .encode()
                .getBytes(StandardCharsets.UTF_8));

    assertThat(response.status()).as(response.body()).isEqualTo(200);
    Bundle answer = parser.parseResource(Bundle.class, response.body());
    assertThat(answer.getType()).isEqualTo(BundleType.BATCHRESPONSE);
    assertThat(answer.getEntry())
        .extracting(entry -> entry.getResponse().getStatus())
        .containsExactly(
            "201 Created",
            "404 Not Found",
            "200 OK",
            "404 Not Found",
            "400 Bad Request",
            "400 Bad Request");
    List<String> made =
        values((Parameters) answer.getEntry().get(0).getResource(), multiple, added);
    assertThat(made).hasSize(2).doesNotHaveDuplicates();
    assertThat(resolvedOverGrpc(multiple, added)).containsExactlyElementsOf(made);
    assertThat(values((Parameters) answer.getEntry().get(2).getResource(), multiple, known))
        .containsExactlyElementsOf(knownPseudonyms);
    OperationOutcome unknown = (OperationOutcome) answer.getEntry().get(1).getResource();
    assertThat(unknown.getIssueFirstRep().getCode()).isEqualTo(IssueType.NOTFOUND);
    assertThat(unknown.getIssueFirstRep().getExpression().getFirst().getValue())
        .isEqualTo("Parameters.parameter.where(name='context')");
    assertThat(answer.getEntry().get(1).getResponse().getOutcome()).isNotNull();
    assertThat(TestPostgres.pseudonymCount(single, added)).isZero();
  }

  @Test
  void aTransactionThroughHapisClientStoresNothingWhenAnEntryFails() {
    String first = "tx-" + UUID.randomUUID();
    String second = "tx-" + UUID.randomUUID();
    String missing = "mii-missing-" + UUID.randomUUID();

    Bundle failing = transaction(request(multiple, first, 2), request(missing, second, 1));
    Bundle overLimit = transaction(request(multiple, first, 2), request(multiple, second, 10_001));

    assertThatExceptionOfType(ResourceNotFoundException.class)
        .isThrownBy(() -> fhir.transaction().withBundle(failing).execute());
    assertThatExceptionOfType(InvalidRequestException.class)
        .isThrownBy(() -> fhir.transaction().withBundle(overLimit).execute());
    assertThat(TestPostgres.pseudonymCount(multiple, first)).isZero();
    assertThat(TestPostgres.pseudonymCount(multiple, second)).isZero();

    Bundle answer =
        fhir.transaction()
            .withBundle(transaction(request(multiple, first, 2), request(multiple, second, 1)))
            .execute();

    assertThat(answer.getType()).isEqualTo(BundleType.TRANSACTIONRESPONSE);
    assertThat(answer.getEntry())
        .extracting(entry -> entry.getResponse().getStatus())
        .containsExactly("201 Created", "201 Created");
    List<Resource> resources =
        answer.getEntry().stream().map(BundleEntryComponent::getResource).toList();
    assertThat(values((Parameters) resources.get(0), multiple, first)).hasSize(2);
    assertThat(values((Parameters) resources.get(1), multiple, second)).hasSize(1);
    assertThat(TestPostgres.pseudonymCount(multiple, first)).isEqualTo(2);
    assertThat(TestPostgres.pseudonymCount(multiple, second)).isEqualTo(1);
  }

  private static Bundle transaction(Parameters... entries) {
    Bundle bundle = new Bundle().setType(BundleType.TRANSACTION);
    for (Parameters parameters : entries) {
      bundle
          .addEntry()
          .setResource(parameters)
          .getRequest()
          .setMethod(HTTPVerb.POST)
          .setUrl("$pseudonymize-multiple");
    }
    return bundle;
  }
}
