package org.vfps.fhir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.vfps.fhir.FhirJson.bundle;
import static org.vfps.fhir.FhirJson.entry;
import static org.vfps.fhir.FhirJson.identifier;
import static org.vfps.fhir.FhirJson.parameters;
import static org.vfps.fhir.FhirJson.string;

import ca.uhn.fhir.context.FhirContext;
import ca.uhn.fhir.parser.IParser;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.hl7.fhir.r4.model.Bundle;
import org.hl7.fhir.r4.model.Bundle.BundleEntryComponent;
import org.hl7.fhir.r4.model.Coding;
import org.hl7.fhir.r4.model.Identifier;
import org.hl7.fhir.r4.model.OperationOutcome;
import org.hl7.fhir.r4.model.OperationOutcome.IssueType;
import org.hl7.fhir.r4.model.Parameters;
import org.hl7.fhir.r4.model.Parameters.ParametersParameterComponent;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.AlphabetNamespaces;
import org.vfps.ClassResources;
import org.vfps.HttpTestClient;
import org.vfps.HttpTestClient.Response;
import org.vfps.LogCapture;
import org.vfps.TestService;
import org.vfps.server.VfpsServer;

/**
 * The FHIR reverse lookups of an alphabet namespace with a check digit and groups, read with HAPI's
 * parser: the MII {@code $de-pseudonymize} (2026 and 1.1 shapes), alone and in batch and
 * transaction Bundles, and gPAS's {@code $dePseudonymize} and its older shapes find a pseudonym
 * with or without its delimiters and refuse a mistyped one with the check digit's message (a 400
 * {@code OperationOutcome}, or an {@code invalid} error part among gPAS's per-value answers),
 * logging no error and no stack trace.
 */
class CheckDigitFhirIT {

  private static final String FHIR_JSON = "application/fhir+json; charset=utf-8";
  private static final String GPAS = "/ttp-fhir/fhir/gpas/";
  private static final IParser PARSER = FhirContext.forR4Cached().newJsonParser();

  @RegisterExtension static final ClassResources resources = new ClassResources();

  @RegisterExtension final LogCapture logs = LogCapture.of("org.vfps");

  private static HttpTestClient http;
  private static String namespace;
  private static String anna;
  private static String ben;

  @BeforeAll
  static void start() {
    VfpsServer server = resources.own(TestService.start());
    http = resources.own(new HttpTestClient(server.httpPort()));
    namespace = "check-digit-fhir-" + UUID.randomUUID();
    List<String> pseudonyms =
        AlphabetNamespaces.createWithPseudonyms(
            http, namespace, 10, "CHECK_DIGIT_DAMM", 4, "-", "anna", "ben");
    anna = pseudonyms.get(0);
    ben = pseudonyms.get(1);
    assertThat(anna).matches("\\d{4}-\\d{4}-\\d{3}");
  }

  private static Response post(String path, JsonObject body) {
    return http.post(path, FHIR_JSON, body.encode().getBytes(StandardCharsets.UTF_8));
  }

  private static <T extends org.hl7.fhir.instance.model.api.IBaseResource> T parsed(
      Response response, int status, Class<T> type) {
    assertThat(response.status()).as(response.body()).isEqualTo(status);
    assertThat(response.contentType()).isEqualTo(FHIR_JSON);
    return PARSER.parseResource(type, response.body());
  }

  /** The check digit's refusal: a 400 OperationOutcome with one {@code processing} issue. */
  private static void assertMistyped(OperationOutcome outcome) {
    assertThat(outcome.getIssue()).hasSize(1);
    assertThat(outcome.getIssueFirstRep().getCode()).isEqualTo(IssueType.PROCESSING);
    assertThat(outcome.getIssueFirstRep().getDiagnostics()).isEqualTo(AlphabetNamespaces.MISTYPED);
  }

  private static JsonObject mii2026(String pseudonym) {
    return parameters(identifier("context", namespace), identifier("pseudonym", pseudonym));
  }

  private static String originalOf2026(Parameters answer) {
    return ((Identifier) answer.getParameter("original").getPart().get(1).getValue()).getValue();
  }

  private void assertNothingLoggedAsAnError() {
    for (ILoggingEvent event : logs.atLeast(Level.TRACE)) {
      assertThat(event.getLevel()).as(event.getFormattedMessage()).isNotEqualTo(Level.ERROR);
      assertThat(event.getThrowableProxy()).as(event.getFormattedMessage()).isNull();
    }
  }

  @Test
  void miiDePseudonymizeFindsAPseudonymWithOrWithoutDelimitersAndRefusesAMistypedOne() {
    Response grouped = post("/v1/fhir/$de-pseudonymize", mii2026(anna));
    Response ungrouped = post("/v1/fhir/$de-pseudonymize", mii2026(anna.replace("-", "")));
    Response typo = post("/v1/fhir/$de-pseudonymize", mii2026(AlphabetNamespaces.mistyped(anna)));
    Response version11 =
        post(
            "/v1/fhir/$de-pseudonymize",
            parameters(string("target", namespace), string("pseudonym", ben.replace("-", ""))));
    Response version11Typo =
        post(
            "/v1/fhir/$de-pseudonymize",
            parameters(
                string("target", namespace),
                string("pseudonym", AlphabetNamespaces.mistyped(ben))));

    assertThat(originalOf2026(parsed(grouped, 200, Parameters.class))).isEqualTo("anna");
    assertThat(originalOf2026(parsed(ungrouped, 200, Parameters.class))).isEqualTo("anna");
    assertMistyped(parsed(typo, 400, OperationOutcome.class));
    assertThat(
            parsed(version11, 200, Parameters.class)
                .getParameter("original")
                .getPart()
                .get(1)
                .getValue()
                .primitiveValue())
        .isEqualTo("ben");
    assertMistyped(parsed(version11Typo, 400, OperationOutcome.class));
    assertNothingLoggedAsAnError();
  }

  @Test
  void aBatchAnswersTheMistypedEntryWithItsOwn400AndTheOthers() {
    Bundle answer =
        parsed(
            post(
                "/v1/fhir",
                bundle(
                    "batch",
                    List.of(
                        entry("$de-pseudonymize", mii2026(anna.replace("-", ""))),
                        entry("$de-pseudonymize", mii2026(AlphabetNamespaces.mistyped(anna))),
                        entry("$de-pseudonymize", mii2026(ben))))),
            200,
            Bundle.class);

    List<BundleEntryComponent> entries = answer.getEntry();
    assertThat(entries)
        .extracting(e -> e.getResponse().getStatus())
        .containsExactly("200 OK", "400 Bad Request", "200 OK");
    assertThat(originalOf2026((Parameters) entries.get(0).getResource())).isEqualTo("anna");
    assertMistyped((OperationOutcome) entries.get(1).getResource());
    assertThat(originalOf2026((Parameters) entries.get(2).getResource())).isEqualTo("ben");
    assertNothingLoggedAsAnError();
  }

  /** A transaction of one MII {@code $de-pseudonymize} per pseudonym. */
  private static Response transaction(String... pseudonyms) {
    return post(
        "/v1/fhir",
        bundle(
            "transaction",
            Arrays.stream(pseudonyms)
                .map(pseudonym -> entry("$de-pseudonymize", mii2026(pseudonym)))
                .toList()));
  }

  @Test
  void aTransactionWithAMistypedEntryFailsAsAWhole() {
    OperationOutcome outcome =
        parsed(transaction(anna, AlphabetNamespaces.mistyped(ben)), 400, OperationOutcome.class);
    Bundle fine = parsed(transaction(anna, ben.replace("-", "")), 200, Bundle.class);

    assertThat(outcome.getIssueFirstRep().getDiagnostics())
        .isEqualTo("Bundle.entry[1]: " + AlphabetNamespaces.MISTYPED);
    assertThat(fine.getEntry())
        .extracting(e -> originalOf2026((Parameters) e.getResource()))
        .containsExactly("anna", "ben");
    assertNothingLoggedAsAnError();
  }

  @Test
  void gpasAnswersAMistypedValueWithAnInvalidErrorPartAndTheOthersWithTheirOriginals() {
    Parameters answer =
        parsed(
            post(
                GPAS + "$dePseudonymize",
                parameters(
                    string("target", namespace),
                    string("pseudonym", anna),
                    string("pseudonym", AlphabetNamespaces.mistyped(anna)),
                    string("pseudonym", ben.replace("-", "")),
                    string("pseudonym", "0000"))),
            200,
            Parameters.class);

    List<ParametersParameterComponent> answers = answer.getParameter();
    assertThat(answers)
        .extracting(ParametersParameterComponent::getName)
        .containsExactly("original", "error", "original", "error");
    assertThat(part(answers.get(0), "original")).isEqualTo("anna");
    assertThat(part(answers.get(1), "pseudonym")).isEqualTo(AlphabetNamespaces.mistyped(anna));
    assertThat(errorCode(answers.get(1))).isEqualTo("invalid");
    assertThat(part(answers.get(2), "original")).isEqualTo("ben");
    assertThat(part(answers.get(2), "pseudonym")).isEqualTo(ben.replace("-", ""));
    assertThat(errorCode(answers.get(3))).isEqualTo("not-found");
    assertNothingLoggedAsAnError();
  }

  private static String part(ParametersParameterComponent parameter, String name) {
    return parameter.getPart().stream()
        .filter(part -> part.getName().equals(name))
        .map(part -> ((Identifier) part.getValue()).getValue())
        .findFirst()
        .orElseThrow();
  }

  private static String errorCode(ParametersParameterComponent error) {
    return error.getPart().stream()
        .filter(part -> part.getName().equals("error-code"))
        .map(part -> ((Coding) part.getValue()).getCode())
        .findFirst()
        .orElseThrow();
  }

  @Test
  void gpasOlderShapesFindAPseudonymWithoutDelimitersAndRefuseAMistypedOne() {
    Response found =
        http.get(
            GPAS + "$de-pseudonymize?domain=" + namespace + "&pseudonym=" + anna.replace("-", ""));
    Response typo =
        http.get(
            GPAS
                + "$de-pseudonymize?domain="
                + namespace
                + "&pseudonym="
                + URLEncoder.encode(AlphabetNamespaces.mistyped(anna), StandardCharsets.UTF_8));
    Response posted =
        post(
            GPAS + "$de-pseudonymize",
            parameters(
                string("target", namespace),
                string("pseudonym", AlphabetNamespaces.mistyped(ben))));

    assertThat(
            parsed(found, 200, Parameters.class).getParameterFirstRep().getValue().primitiveValue())
        .isEqualTo("anna");
    assertMistyped(parsed(typo, 400, OperationOutcome.class));
    assertMistyped(parsed(posted, 400, OperationOutcome.class));
    assertNothingLoggedAsAnError();
  }
}
