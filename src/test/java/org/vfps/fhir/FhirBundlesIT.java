package org.vfps.fhir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.vfps.fhir.FhirJson.bundle;
import static org.vfps.fhir.FhirJson.entry;
import static org.vfps.fhir.FhirJson.identifier;
import static org.vfps.fhir.FhirJson.one;
import static org.vfps.fhir.FhirJson.parameters;
import static org.vfps.fhir.FhirJson.string;

import ca.uhn.fhir.context.FhirContext;
import ca.uhn.fhir.rest.api.EncodingEnum;
import ca.uhn.fhir.rest.client.api.IGenericClient;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.hl7.fhir.r4.model.Bundle;
import org.hl7.fhir.r4.model.Bundle.BundleType;
import org.hl7.fhir.r4.model.Bundle.HTTPVerb;
import org.hl7.fhir.r4.model.Identifier;
import org.hl7.fhir.r4.model.Parameters;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.ClassResources;
import org.vfps.HttpTestClient;
import org.vfps.HttpTestClient.Response;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.server.VfpsServer;

/** {@code POST /v1/fhir} with batch and transaction Bundles, raw and through HAPI's client. */
class FhirBundlesIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static final String FHIR_JSON = "application/fhir+json; charset=utf-8";

  private static VfpsServer server;
  private static HttpTestClient http;
  private static IGenericClient fhir;
  private static String namespace;

  @BeforeAll
  static void start() {
    server = resources.own(TestService.start());
    http = resources.own(new HttpTestClient(server.httpPort()));
    fhir =
        FhirContext.forR4Cached()
            .newRestfulGenericClient("http://127.0.0.1:" + server.httpPort() + "/v1/fhir");
    fhir.setEncoding(EncodingEnum.JSON);
    namespace = "bundle-" + UUID.randomUUID();
    Response created =
        http.postJson(
            "/v1/namespaces",
            new JsonObject().put("name", namespace).put("pseudonymLength", 32).encode());
    assertThat(created.status()).isEqualTo(200);
  }

  private static Response post(JsonObject body) {
    return http.post("/v1/fhir", FHIR_JSON, body.encode().getBytes(StandardCharsets.UTF_8));
  }

  private static JsonObject pseudonymize(String context, String original) {
    return entry(
        "$pseudonymize",
        parameters(identifier("context", context), identifier("original", original)));
  }

  private static long stored(String original) {
    return TestPostgres.pseudonymCount(namespace, original);
  }

  /** The entries of a batch-response or transaction-response, after checking its type. */
  private static JsonArray entries(Response response, String type) {
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    assertThat(response.contentType()).isEqualTo(FHIR_JSON);
    JsonObject bundle = response.json();
    assertThat(bundle.getString("resourceType")).isEqualTo("Bundle");
    assertThat(bundle.getString("type")).isEqualTo(type);
    return bundle.getJsonArray("entry");
  }

  private static String status(JsonArray entries, int index) {
    return entries.getJsonObject(index).getJsonObject("response").getString("status");
  }

  private static JsonObject resource(JsonArray entries, int index) {
    return entries.getJsonObject(index).getJsonObject("resource");
  }

  /** The single issue of an OperationOutcome. */
  private static JsonObject issue(JsonObject outcome) {
    assertThat(outcome.getString("resourceType")).isEqualTo("OperationOutcome");
    return outcome.getJsonArray("issue").getJsonObject(0);
  }

  @Test
  void aBatchAnswersEveryEntryInOrderWithItsOwnStatus() {
    String known = "known-" + UUID.randomUUID();
    String fresh = "fresh-" + UUID.randomUUID();
    String missing = "bundle-missing-" + UUID.randomUUID();
    post(bundle("batch", List.of(pseudonymize(namespace, known))));

    JsonArray entries =
        entries(
            post(
                bundle(
                    "batch",
                    List.of(
                        pseudonymize(namespace, known),
                        pseudonymize(namespace, fresh),
                        pseudonymize(missing, known),
                        entry(
                            "$create-pseudonym",
                            parameters(
                                string("namespace", namespace), string("originalValue", known))),
                        entry(
                            "/$get-pseudonym",
                            parameters(
                                identifier("context", namespace),
                                identifier("original", "never-" + UUID.randomUUID())))))),
            "batch-response");

    assertThat(entries).hasSize(5);
    assertThat(status(entries, 0)).isEqualTo("200 OK");
    assertThat(status(entries, 1)).isEqualTo("201 Created");
    assertThat(status(entries, 2)).isEqualTo("404 Not Found");
    assertThat(status(entries, 3)).isEqualTo("200 OK");
    assertThat(status(entries, 4)).isEqualTo("404 Not Found");
    String knownPseudonym =
        FhirJson.value(one(resource(entries, 0).getJsonArray("parameter"), "pseudonym")).get();
    assertThat(one(resource(entries, 3).getJsonArray("parameter"), "pseudonymValue"))
        .isEqualTo(string("pseudonymValue", knownPseudonym));
    assertThat(one(resource(entries, 1).getJsonArray("parameter"), "original"))
        .isEqualTo(identifier("original", fresh));
    JsonObject unknownContext = issue(resource(entries, 2));
    assertThat(unknownContext.getString("code")).isEqualTo("not-found");
    assertThat(unknownContext.getJsonArray("expression"))
        .containsExactly("Parameters.parameter.where(name='context')");
    assertThat(entries.getJsonObject(2).getJsonObject("response").getJsonObject("outcome"))
        .isEqualTo(resource(entries, 2));
    assertThat(stored(fresh)).isEqualTo(1);

    JsonArray again =
        entries(post(bundle("batch", List.of(pseudonymize(namespace, fresh)))), "batch-response");
    assertThat(status(again, 0)).isEqualTo("200 OK");
  }

  @Test
  void aValueTwiceInOneBatchIsCreatedOnce() {
    String fresh = "twice-" + UUID.randomUUID();

    JsonArray entries =
        entries(
            post(
                bundle(
                    "batch",
                    List.of(pseudonymize(namespace, fresh), pseudonymize(namespace, fresh)))),
            "batch-response");

    // the entries run concurrently: either may be the one that stores the pair
    assertThat(List.of(status(entries, 0), status(entries, 1)))
        .containsExactlyInAnyOrder("201 Created", "200 OK");
    assertThat(resource(entries, 0)).isEqualTo(resource(entries, 1));
    assertThat(stored(fresh)).isEqualTo(1);
  }

  @Test
  void hapisClientSendsABatchAndReadsTheResponse() {
    Bundle batch = new Bundle().setType(BundleType.BATCH);
    List<String> originals = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      String original = "hapi-batch-" + i + "-" + UUID.randomUUID();
      originals.add(original);
      Parameters parameters = new Parameters();
      parameters.addParameter().setName("context").setValue(new Identifier().setValue(namespace));
      parameters.addParameter().setName("original").setValue(new Identifier().setValue(original));
      batch
          .addEntry()
          .setResource(parameters)
          .getRequest()
          .setMethod(HTTPVerb.POST)
          .setUrl("$pseudonymize");
    }

    Bundle response = fhir.transaction().withBundle(batch).execute();

    assertThat(response.getType()).isEqualTo(BundleType.BATCHRESPONSE);
    assertThat(response.getEntry()).hasSize(3);
    for (int i = 0; i < 3; i++) {
      assertThat(response.getEntry().get(i).getResponse().getStatus()).isEqualTo("201 Created");
      Parameters answer = (Parameters) response.getEntry().get(i).getResource();
      assertThat(((Identifier) answer.getParameter("original").getValue()).getValue())
          .isEqualTo(originals.get(i));
      assertThat(((Identifier) answer.getParameter("pseudonym").getValue()).getValue()).hasSize(54);
    }
  }

  @Test
  void aBadEntryFailsAloneInABatch() {
    String good = "good-" + UUID.randomUUID();
    JsonObject getEntry = pseudonymize(namespace, "x");
    getEntry.getJsonObject("request").put("method", "GET");
    JsonObject noRequest = pseudonymize(namespace, "x");
    noRequest.remove("request");
    List<JsonObject> bad =
        List.of(
            getEntry,
            noRequest,
            entry("$delete-pseudonym", parameters(identifier("context", namespace))),
            entry("Patient/$pseudonymize", parameters(identifier("context", namespace))),
            entry("$pseudonymize", bundle("batch", List.of(pseudonymize(namespace, "nested")))),
            entry("$pseudonymize", new JsonObject().put("resourceType", "Patient")),
            entry("$pseudonymize", parameters(identifier("context", namespace))),
            entry(
                "$pseudonymize",
                parameters(identifier("context", namespace), identifier("original", " "))));
    List<JsonObject> sent = new ArrayList<>(bad);
    sent.add(pseudonymize(namespace, good));
    long before = TestPostgres.pseudonymCount(namespace);

    JsonArray entries = entries(post(bundle("batch", sent)), "batch-response");

    assertThat(entries).hasSize(sent.size());
    for (int i = 0; i < bad.size(); i++) {
      assertThat(status(entries, i)).as(bad.get(i).encode()).isEqualTo("400 Bad Request");
      assertThat(issue(resource(entries, i)).getString("diagnostics")).isNotBlank();
    }
    assertThat(status(entries, bad.size())).isEqualTo("201 Created");
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(before + 1);
  }

  @Test
  void aTransactionStoresNothingWhenAnEntryFails() {
    String first = "tx-" + UUID.randomUUID();
    String second = "tx-" + UUID.randomUUID();
    List<List<JsonObject>> failing =
        List.of(
            List.of(
                pseudonymize(namespace, first),
                pseudonymize("tx-missing-" + UUID.randomUUID(), second)),
            List.of(
                pseudonymize(namespace, first),
                entry(
                    "$get-pseudonym",
                    parameters(
                        identifier("context", namespace),
                        identifier("original", "never-" + UUID.randomUUID())))),
            List.of(
                pseudonymize(namespace, first),
                entry(
                    "$de-pseudonymize",
                    parameters(identifier("context", namespace), identifier("pseudonym", "none")))),
            List.of(
                pseudonymize(namespace, first),
                entry(
                    "$pseudonymize",
                    parameters(identifier("context", namespace), identifier("original", "   ")))),
            List.of(pseudonymize(namespace, first), entry("$nothing", parameters())));
    List<Integer> statuses = List.of(404, 404, 404, 400, 400);
    for (int i = 0; i < failing.size(); i++) {
      Response response = post(bundle("transaction", failing.get(i)));

      assertThat(response.status()).as(response.body()).isEqualTo(statuses.get(i));
      JsonObject issue = issue(response.json());
      assertThat(issue.getString("diagnostics")).startsWith("Bundle.entry[1]: ");
      assertThat(issue.getJsonArray("expression").getString(0)).isEqualTo("Bundle.entry[1]");
      assertThat(stored(first)).as(response.body()).isZero();
    }

    JsonArray entries =
        entries(
            post(
                bundle(
                    "transaction",
                    List.of(pseudonymize(namespace, first), pseudonymize(namespace, second)))),
            "transaction-response");

    assertThat(status(entries, 0)).isEqualTo("201 Created");
    assertThat(status(entries, 1)).isEqualTo("201 Created");
    assertThat(stored(first)).isEqualTo(1);
    assertThat(stored(second)).isEqualTo(1);
    JsonArray again =
        entries(
            post(bundle("transaction", List.of(pseudonymize(namespace, first)))),
            "transaction-response");
    assertThat(status(again, 0)).isEqualTo("200 OK");
    assertThat(resource(again, 0)).isEqualTo(resource(entries, 0));
  }

  @Test
  void onlyBatchAndTransactionBundlesAreTaken() {
    long before = TestPostgres.pseudonymCount(namespace);
    List<JsonObject> bodies =
        List.of(
            bundle("collection", List.of(pseudonymize(namespace, "x"))),
            bundle("searchset", List.of(pseudonymize(namespace, "x"))),
            new JsonObject().put("resourceType", "Bundle").put("entry", new JsonArray()),
            parameters(identifier("context", namespace), identifier("original", "x")),
            new JsonObject().put("resourceType", "Bundle").put("type", "batch").put("entry", 5));
    for (JsonObject body : bodies) {
      Response response = post(body);
      assertThat(response.status()).as(body.encode()).isEqualTo(400);
      assertThat(issue(response.json()).getString("diagnostics")).isNotBlank();
    }
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(before);
    assertThat(entries(post(bundle("batch", List.of())), "batch-response")).isNull();
  }
}
