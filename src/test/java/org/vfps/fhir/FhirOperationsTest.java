package org.vfps.fhir;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.vfps.access.Caller;
import org.vfps.config.LoggingConfig;
import org.vfps.log.EdgeWarnings;

/** The checks {@code $create-pseudonym} makes before it calls the service, and metadata. */
class FhirOperationsTest {

  // no service: every request here must be answered before one would be called; the warnings
  // write the line of each client error
  private static FhirOperations operations;
  private static Vertx vertx;

  @BeforeAll
  static void createContext() {
    vertx = Vertx.vertx();
    operations =
        new FhirOperations(
            FhirOperations.newContext(),
            null,
            Clock.fixed(Instant.parse("2026-11-30T02:09:04.5Z"), ZoneOffset.UTC),
            10_000,
            new EdgeWarnings(vertx, LoggingConfig.ClientErrors.DEBUG));
  }

  @AfterAll
  static void closeVertx() {
    vertx.close().await();
  }

  private static FhirReply create(String contentType, String body) {
    return operations
        .operation(
            "create-pseudonym",
            operation -> Future.succeededFuture(Caller.anonymous("127.0.0.1")),
            contentType,
            body == null ? null : Buffer.buffer(body.getBytes(StandardCharsets.UTF_8)))
        .result();
  }

  private static JsonObject issue(FhirReply reply) {
    JsonObject outcome = new JsonObject(reply.body());
    assertThat(outcome.getString("resourceType")).isEqualTo("OperationOutcome");
    return outcome.getJsonArray("issue").getJsonObject(0);
  }

  @Test
  void metadataIsDatedNowInUtcWithoutAZone() {
    FhirReply reply = operations.metadata(null);

    assertThat(reply.status()).isEqualTo(200);
    assertThat(new JsonObject(reply.body()).getString("date")).isEqualTo("2026-11-30T02:09:04");
  }

  @ParameterizedTest
  @ValueSource(strings = {"application/xml", "text/plain", "application/fhir+json; charset=latin1"})
  void otherContentTypesAre415NotSupported(String contentType) {
    FhirReply reply = create(contentType, "{\"resourceType\": \"Parameters\"}");

    assertThat(reply.status()).isEqualTo(415);
    assertThat(issue(reply).getString("code")).isEqualTo("not-supported");
  }

  @Test
  void aMissingBodyIsMalformed() {
    for (String body : new String[] {null, "", "  \n"}) {
      FhirReply reply = create("application/fhir+json", body);

      assertThat(reply.status()).isEqualTo(400);
      assertThat(issue(reply).getString("diagnostics"))
          .isEqualTo("Received malformed or missing resource");
    }
  }

  @Test
  void anUnparseableBodyIsMalformedWithoutQuotingIt() {
    FhirReply reply =
        create(
            "application/json", "{\"resourceType\": \"Parameters\", \"parameter\": [secret-value");

    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply.body()).doesNotContain("secret-value");
  }

  @Test
  void anotherResourceTypeIsMalformed() {
    FhirReply reply = create("application/json", "{\"resourceType\": \"Patient\"}");

    assertThat(reply.status()).isEqualTo(400);
    assertThat(issue(reply).getString("diagnostics")).contains("Parameters", "Patient");
  }

  @Test
  void missingDuplicateOrBlankParametersAreNamed() {
    FhirReply missing = create("application/json", "{\"resourceType\": \"Parameters\"}");
    FhirReply duplicate =
        create(
            "application/json",
            """
            {"resourceType": "Parameters", "parameter": [
              {"name": "namespace", "valueString": "a"}, {"name": "namespace", "valueString": "b"},
              {"name": "originalValue", "valueString": "x"}]}
            """);
    FhirReply blank =
        create(
            "application/json",
            """
            {"resourceType": "Parameters", "parameter": [
              {"name": "namespace", "valueString": "a"},
              {"name": "originalValue", "valueString": " \\t "}]}
            """);

    assertThat(missing.status()).isEqualTo(400);
    assertThat(issue(missing).getString("diagnostics")).contains("'namespace'", "'originalValue'");
    assertThat(duplicate.status()).isEqualTo(400);
    assertThat(issue(duplicate).getString("diagnostics"))
        .contains("'namespace' must be given once");
    assertThat(blank.status()).isEqualTo(400);
    assertThat(issue(blank).getString("diagnostics")).contains("'originalValue' is blank");
    assertThat(issue(blank).getString("code")).isEqualTo("processing");
  }

  @Test
  void aParameterOfTheWrongTypeIsNamedWithTheTypeExpectedNotAsMissing() {
    FhirReply dotnet =
        create(
            "application/json",
            """
            {"resourceType": "Parameters", "parameter": [
              {"name": "namespace", "valueString": "a"},
              {"name": "originalValue", "valueInteger": 42}]}
            """);
    FhirReply mii =
        call(
            "pseudonymize",
            """
            {"resourceType": "Parameters", "parameter": [
              {"name": "context", "valueIdentifier": {"value": "a"}},
              {"name": "original", "valueBoolean": true}]}
            """);
    FhirReply gpas =
        operations
            .gpas(
                "pseudonymizeAllowCreate",
                operation -> Future.succeededFuture(Caller.anonymous("127.0.0.1")),
                "application/fhir+json",
                Buffer.buffer(
                    """
                    {"resourceType": "Parameters", "parameter": [
                      {"name": "target", "valueString": "a"},
                      {"name": "original", "valueString": "x"},
                      {"name": "original", "valueInteger": 7}]}
                    """))
            .result();

    assertThat(dotnet.status()).isEqualTo(400);
    assertThat(issue(dotnet).getString("diagnostics"))
        .isEqualTo(
            "Invalid request: the parameter 'originalValue' has the wrong type: it must be a"
                + " valueString, not a valueInteger.")
        .doesNotContain("missing", "42");
    assertThat(mii.status()).isEqualTo(400);
    assertThat(issue(mii).getString("diagnostics"))
        .isEqualTo(
            "The parameter 'original' has the wrong type: it must be a valueIdentifier with a"
                + " value, not a valueBoolean.");
    assertThat(gpas.status()).isEqualTo(400);
    assertThat(issue(gpas).getString("diagnostics"))
        .isEqualTo(
            "The parameter 'original' has the wrong type: it must be a valueString, not a"
                + " valueInteger.");
  }

  @Test
  void aMissingParameterStaysMissing() {
    FhirReply reply =
        create(
            "application/json",
            """
            {"resourceType": "Parameters", "parameter": [{"name": "namespace", "valueString": "a"}]}
            """);

    assertThat(issue(reply).getString("diagnostics"))
        .isEqualTo("Invalid request: the parameter 'originalValue' (valueString) is missing.");
  }

  private static FhirReply call(String code, String body) {
    return operations
        .operation(
            code,
            operation -> Future.succeededFuture(Caller.anonymous("127.0.0.1")),
            "application/fhir+json",
            Buffer.buffer(body))
        .result();
  }

  @Test
  void aBodyOverTheLimitIsTooCostly() {
    FhirReply reply = operations.routerFailure(413, null);

    assertThat(reply.status()).isEqualTo(413);
    assertThat(issue(reply).getString("code")).isEqualTo("too-costly");
  }
}
