package org.vfps.fhir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import ca.uhn.fhir.context.FhirContext;
import ca.uhn.fhir.rest.api.EncodingEnum;
import ca.uhn.fhir.rest.client.api.IGenericClient;
import ca.uhn.fhir.rest.server.exceptions.ResourceGoneException;
import ca.uhn.fhir.rest.server.exceptions.ResourceNotFoundException;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.UUID;
import org.hl7.fhir.r4.model.Bundle;
import org.hl7.fhir.r4.model.Bundle.BundleEntryComponent;
import org.hl7.fhir.r4.model.Bundle.BundleType;
import org.hl7.fhir.r4.model.Bundle.HTTPVerb;
import org.hl7.fhir.r4.model.Identifier;
import org.hl7.fhir.r4.model.IntegerType;
import org.hl7.fhir.r4.model.OperationOutcome;
import org.hl7.fhir.r4.model.Parameters;
import org.hl7.fhir.r4.model.Parameters.ParametersParameterComponent;
import org.hl7.fhir.r4.model.StringType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.ClassResources;
import org.vfps.HttpTestClient;
import org.vfps.HttpTestClient.Response;
import org.vfps.SealedService;

/**
 * A sealed namespace in every FHIR dialect, through HAPI's generic client, with {@code
 * Sealing__KeyFile} set: the .NET service's operations, the MII interface module's and gPAS's
 * answer as in a plain namespace, withdrawal included, while the table and the log hold none of the
 * original values.
 */
class SealedFhirIT {

  @RegisterExtension static final SealedService sealed = new SealedService();
  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static final String SYSTEM = "https://example.org/ids";

  private static HttpTestClient http;
  private static IGenericClient fhir;
  private static IGenericClient gpas;

  @BeforeAll
  static void connect() {
    int port = sealed.server().httpPort();
    http = resources.own(new HttpTestClient(port));
    FhirContext context = FhirContext.forR4Cached();
    fhir = context.newRestfulGenericClient("http://127.0.0.1:" + port + "/v1/fhir");
    fhir.setEncoding(EncodingEnum.JSON);
    gpas = context.newRestfulGenericClient("http://127.0.0.1:" + port + "/ttp-fhir/fhir/gpas");
    gpas.setEncoding(EncodingEnum.JSON);
  }

  private static String createNamespace(String prefix) {
    String name = prefix + UUID.randomUUID();
    Response created =
        http.postJson(
            "/v1/namespaces",
            new JsonObject()
                .put("name", name)
                .put("pseudonymLength", 32)
                .put("allowsMultiplePseudonyms", true)
                .encode());
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    return name;
  }

  private static Parameters call(IGenericClient client, String operation, Parameters parameters) {
    return client.operation().onServer().named(operation).withParameters(parameters).execute();
  }

  private static Parameters dotnet(String namespace, String original) {
    return new Parameters()
        .addParameter("namespace", new StringType(namespace))
        .addParameter("originalValue", new StringType(original));
  }

  private static Parameters mii(String namespace, String name, String value) {
    Parameters parameters = new Parameters();
    parameters.addParameter().setName("context").setValue(new Identifier().setValue(namespace));
    parameters
        .addParameter()
        .setName(name)
        .setValue(new Identifier().setSystem(SYSTEM).setValue(value));
    return parameters;
  }

  private static Parameters gpasRequest(String domain, String name, String... values) {
    Parameters parameters = new Parameters().addParameter("target", new StringType(domain));
    for (String value : values) {
      parameters.addParameter(name, new StringType(value));
    }
    return parameters;
  }

  private static String identifier(ParametersParameterComponent parameter) {
    return ((Identifier) parameter.getValue()).getValue();
  }

  private static String part(ParametersParameterComponent parameter, String name) {
    return parameter.getPart().stream()
        .filter(part -> part.getName().equals(name))
        .map(SealedFhirIT::identifier)
        .findFirst()
        .orElseThrow(() -> new AssertionError("no part " + name));
  }

  private static OperationOutcome withdraw(String operation, Parameters parameters) {
    return fhir.operation()
        .onServer()
        .named(operation)
        .withParameters(parameters)
        .returnResourceType(OperationOutcome.class)
        .execute();
  }

  @Test
  void theDotnetAndMiiOperationsAnswerAsInAPlainNamespace() {
    String namespace = createNamespace("sealed-fhir-");
    String anna = sealed.original("anna");
    String ben = sealed.original("ben");
    String carl = sealed.original("carl");

    Parameters created = call(fhir, "$create-pseudonym", dotnet(namespace, anna));
    String annas = created.getParameter("pseudonymValue").getValue().primitiveValue();
    assertThat(created.getParameter("originalValue").getValue().primitiveValue()).isEqualTo(anna);
    assertThat(
            call(fhir, "$create-pseudonym", dotnet(namespace, anna))
                .getParameter("pseudonymValue")
                .getValue()
                .primitiveValue())
        .isEqualTo(annas);
    assertThat(
            call(fhir, "$resolve-pseudonym", dotnet(namespace, anna))
                .getParameter("pseudonymValue")
                .getValue()
                .primitiveValue())
        .isEqualTo(annas);

    Parameters pseudonymized = call(fhir, "$pseudonymize", mii(namespace, "original", anna));
    assertThat(identifier(pseudonymized.getParameter("pseudonym"))).isEqualTo(annas);
    assertThat(identifier(pseudonymized.getParameter("original"))).isEqualTo(anna);
    String bens =
        identifier(
            call(fhir, "$pseudonymize", mii(namespace, "original", ben)).getParameter("pseudonym"));
    assertThat(
            identifier(
                call(fhir, "$get-pseudonym", mii(namespace, "original", ben))
                    .getParameter("pseudonym")))
        .isEqualTo(bens);
    Parameters revealed = call(fhir, "$de-pseudonymize", mii(namespace, "pseudonym", bens));
    assertThat(part(revealed.getParameter("original"), "value")).isEqualTo(ben);

    Parameters multiple = mii(namespace, "original", carl);
    multiple.addParameter().setName("count").setValue(new IntegerType(3));
    List<String> carls =
        call(fhir, "$pseudonymize-multiple", multiple).getParameter().stream()
            .map(pseudonym -> part(pseudonym, "value"))
            .toList();
    assertThat(carls).hasSize(3).doesNotHaveDuplicates();
    for (String pseudonym : carls) {
      Parameters back = call(fhir, "$de-pseudonymize", mii(namespace, "pseudonym", pseudonym));
      assertThat(part(back.getParameter("original"), "value")).isEqualTo(carl);
    }

    assertThat(
            withdraw("$delete-pseudonym", mii(namespace, "original", ben))
                .getIssueFirstRep()
                .getDetails()
                .getCodingFirstRep()
                .getCode())
        .isEqualTo("MSG_DELETED");
    assertThat(
            withdraw("$anonymize-original", mii(namespace, "original", anna))
                .getIssueFirstRep()
                .getDetails()
                .getCodingFirstRep()
                .getCode())
        .isEqualTo("MSG_UPDATED");
    assertThatExceptionOfType(ResourceNotFoundException.class)
        .isThrownBy(() -> call(fhir, "$de-pseudonymize", mii(namespace, "pseudonym", bens)));
    assertThatExceptionOfType(ResourceGoneException.class)
        .isThrownBy(() -> call(fhir, "$de-pseudonymize", mii(namespace, "pseudonym", annas)));

    sealed.assertOriginalsHidden();
  }

  @Test
  void theGpasOperationsAnswerAsInAPlainDomain() {
    String domain = createNamespace("sealed-gpas-");
    String dora = sealed.original("dora");
    String emil = sealed.original("emil");
    String unknown = sealed.original("unknown");

    Parameters created =
        call(gpas, "$pseudonymizeAllowCreate", gpasRequest(domain, "original", dora, emil));
    assertThat(created.getParameter()).hasSize(2);
    assertThat(part(created.getParameter().get(0), "original")).isEqualTo(dora);
    assertThat(part(created.getParameter().get(1), "original")).isEqualTo(emil);
    String doras = part(created.getParameter().get(0), "pseudonym");
    String emils = part(created.getParameter().get(1), "pseudonym");

    Parameters looked = call(gpas, "$pseudonymize", gpasRequest(domain, "original", dora, unknown));
    assertThat(looked.getParameter())
        .extracting(ParametersParameterComponent::getName)
        .containsExactly("pseudonym", "error");
    assertThat(part(looked.getParameterFirstRep(), "pseudonym")).isEqualTo(doras);

    Parameters revealed =
        call(gpas, "$dePseudonymize", gpasRequest(domain, "pseudonym", doras, emils));
    assertThat(revealed.getParameter())
        .extracting(parameter -> part(parameter, "original"))
        .containsExactly(dora, emil);

    Parameters deleted = call(gpas, "$deletePseudonyms", gpasRequest(domain, "original", dora));
    assertThat(deleted.getParameter())
        .singleElement()
        .satisfies(status -> assertThat(status.getName()).isEqualTo("successStatus"));
    Parameters anonymized =
        call(gpas, "$anonymizeOriginals", gpasRequest(domain, "original", emil));
    assertThat(anonymized.getParameter())
        .singleElement()
        .satisfies(status -> assertThat(status.getName()).isEqualTo("successStatus"));
    Parameters gone = call(gpas, "$pseudonymize", gpasRequest(domain, "original", dora, emil));
    assertThat(gone.getParameter())
        .extracting(ParametersParameterComponent::getName)
        .containsExactly("error", "error");

    sealed.assertOriginalsHidden();
  }

  /** A batch Bundle of MII operations, one entry per request, sent through HAPI's client. */
  private static List<Parameters> batch(String operation, List<Parameters> requests) {
    Bundle bundle = new Bundle().setType(BundleType.BATCH);
    for (Parameters request : requests) {
      bundle
          .addEntry()
          .setResource(request)
          .getRequest()
          .setMethod(HTTPVerb.POST)
          .setUrl(operation);
    }
    Bundle answered = fhir.transaction().withBundle(bundle).execute();
    assertThat(answered.getType()).isEqualTo(BundleType.BATCHRESPONSE);
    return answered.getEntry().stream()
        .map(BundleEntryComponent::getResource)
        .map(Parameters.class::cast)
        .toList();
  }

  @Test
  void aBatchBundlePseudonymizesAndRevealsSealedValues() {
    String namespace = createNamespace("sealed-bundle-");
    String frida = sealed.original("frida");
    String gustav = sealed.original("gustav");

    List<String> pseudonyms =
        batch(
                "$pseudonymize",
                List.of(
                    mii(namespace, "original", frida),
                    mii(namespace, "original", gustav),
                    mii(namespace, "original", frida)))
            .stream()
            .map(answer -> identifier(answer.getParameter("pseudonym")))
            .toList();
    assertThat(pseudonyms).hasSize(3);
    assertThat(pseudonyms.get(2)).isEqualTo(pseudonyms.get(0)).isNotEqualTo(pseudonyms.get(1));

    assertThat(
            batch(
                    "$de-pseudonymize",
                    List.of(
                        mii(namespace, "pseudonym", pseudonyms.get(1)),
                        mii(namespace, "pseudonym", pseudonyms.get(0))))
                .stream()
                .map(answer -> part(answer.getParameter("original"), "value")))
        .containsExactly(gustav, frida);

    sealed.assertOriginalsHidden();
  }
}
