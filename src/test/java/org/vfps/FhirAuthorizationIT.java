package org.vfps;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;
import org.vfps.access.Audit;
import org.vfps.auth.TestOidcProvider;
import org.vfps.server.VfpsServer;

/**
 * Authorization on, with {@link AuthorizationIT}'s role model, for the MII operations, Bundles and
 * the gPAS dialect: write for the creating and the forward lookups, reverse lookup for
 * de-pseudonymizing (audited), 401 and 403 as {@code OperationOutcome}s, open CapabilityStatements.
 */
class FhirAuthorizationIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static TestOidcProvider provider;
  private static VfpsServer server;
  private static HttpTestClient http;
  private static String namespace;
  private static String original;
  private static String pseudonym;
  private static Map<String, String> callers;

  /** The callers, in the order of the expectation strings. */
  private static final List<String> WHO =
      List.of("admin", "reader", "writer", "auditor", "client", "anonymous");

  private final ListAppender<ILoggingEvent> audit = new ListAppender<>();
  private final Logger auditLogger = (Logger) LoggerFactory.getLogger(Audit.LOGGER);

  @BeforeAll
  static void start() {
    provider = resources.own(new TestOidcProvider().start());
    namespace = "fhir-auth-" + UUID.randomUUID();
    Map<String, String> env = new HashMap<>();
    env.put("ConnectionStrings__PostgreSQL", TestPostgres.uri());
    env.putAll(AuthorizationIT.authorization(provider, namespace));
    server = resources.own(TestService.start(env));
    http = resources.own(new HttpTestClient(server.httpPort()));
    callers = new LinkedHashMap<>();
    callers.put("admin", "Bearer " + provider.token("alice", "vfps-admin"));
    callers.put("reader", "Bearer " + provider.token("rita", "study-read"));
    callers.put("writer", "Bearer " + provider.token("walt", "study-write"));
    callers.put("auditor", "Bearer " + provider.token("aude", "study-auditor"));
    callers.put(
        "client",
        "Basic "
            + Base64.getEncoder()
                .encodeToString(
                    "pseudonymizer:correct horse battery staple".getBytes(StandardCharsets.UTF_8)));
    callers.put("anonymous", null);
    assertThat(
            http.send(
                    "POST",
                    "/v1/namespaces",
                    Map.of("authorization", callers.get("admin")),
                    new JsonObject().put("name", namespace).put("pseudonymLength", 16).encode())
                .status())
        .isEqualTo(200);
    original = "original-" + UUID.randomUUID();
    pseudonym =
        http.send(
                "POST",
                "/v1/namespaces/" + namespace + "/pseudonyms",
                Map.of("authorization", callers.get("writer")),
                new JsonObject().put("originalValue", original).encode())
            .json()
            .getJsonObject("pseudonym")
            .getString("pseudonymValue");
  }

  @BeforeEach
  void captureAudit() {
    audit.start();
    auditLogger.addAppender(audit);
  }

  @AfterEach
  void releaseAudit() {
    auditLogger.detachAppender(audit);
    audit.stop();
  }

  private static HttpTestClient.Response send(String who, String method, String path, String body) {
    String authorization = callers.get(who);
    Map<String, String> headers =
        authorization == null ? Map.of() : Map.of("authorization", authorization);
    return http.send(method, path, headers, body);
  }

  private static String parameters(String... nameTypeValue) {
    JsonArray parameter = new JsonArray();
    for (int i = 0; i < nameTypeValue.length; i += 3) {
      Object value =
          nameTypeValue[i + 1].equals("valueIdentifier")
              ? new JsonObject().put("value", nameTypeValue[i + 2])
              : nameTypeValue[i + 2];
      parameter.add(
          new JsonObject().put("name", nameTypeValue[i]).put(nameTypeValue[i + 1], value));
    }
    return new JsonObject().put("resourceType", "Parameters").put("parameter", parameter).encode();
  }

  /** A {@code $pseudonymize-multiple} of the original value in the test's namespace. */
  private static String pseudonymizeMultiple(String originalValue, int count) {
    JsonObject body =
        new JsonObject(
            parameters(
                "context",
                "valueIdentifier",
                namespace,
                "original",
                "valueIdentifier",
                originalValue));
    body.getJsonArray("parameter")
        .add(new JsonObject().put("name", "count").put("valueInteger", count));
    return body.encode();
  }

  /**
   * Each caller's status for the request, against the expectation ({@code Y} 200, {@code D} 403,
   * {@code U} 401 in the order of {@link #WHO}); every failure an OperationOutcome, 401 with the
   * challenge.
   */
  private static void expect(String expected, Function<String, HttpTestClient.Response> request) {
    Map<String, Integer> want = new LinkedHashMap<>();
    Map<String, Integer> got = new LinkedHashMap<>();
    for (int i = 0; i < WHO.size(); i++) {
      String who = WHO.get(i);
      want.put(
          who,
          switch (expected.charAt(i)) {
            case 'Y' -> 200;
            case 'D' -> 403;
            default -> 401;
          });
      HttpTestClient.Response response = request.apply(who);
      got.put(who, response.status());
      if (response.status() != 200) {
        JsonObject outcome = response.json();
        assertThat(outcome.getString("resourceType")).isEqualTo("OperationOutcome");
        assertThat(outcome.getJsonArray("issue").getJsonObject(0).getString("code"))
            .isEqualTo(response.status() == 401 ? "login" : "forbidden");
      }
      if (response.status() == 401) {
        assertThat(response.headers().firstValue("www-authenticate")).hasValue("Bearer");
      }
    }
    assertThat(got).isEqualTo(want);
  }

  @Test
  void creatingAndFindingNeedWriteAndDePseudonymizingNeedsReverseLookup() {
    expect(
        "YDYDYU",
        who ->
            send(
                who,
                "POST",
                "/v1/fhir/$pseudonymize",
                parameters(
                    "context",
                    "valueIdentifier",
                    namespace,
                    "original",
                    "valueIdentifier",
                    original)));
    expect(
        "YDYDYU",
        who ->
            send(
                who,
                "POST",
                "/v1/fhir/$get-pseudonym",
                parameters(
                    "context",
                    "valueIdentifier",
                    namespace,
                    "original",
                    "valueIdentifier",
                    original)));
    expect(
        "YDYDYU",
        who ->
            send(
                who,
                "POST",
                "/v1/fhir/$pseudonymize-multiple",
                pseudonymizeMultiple("multiple-" + who + "-" + UUID.randomUUID(), 1)));
    expect(
        "YDYDYU",
        who ->
            send(
                who, "POST", "/v1/fhir/$pseudonymize-multiple", pseudonymizeMultiple(original, 0)));
    expect(
        "YDDYDU",
        who ->
            send(
                who,
                "POST",
                "/v1/fhir/$de-pseudonymize",
                parameters(
                    "context",
                    "valueIdentifier",
                    namespace,
                    "pseudonym",
                    "valueIdentifier",
                    pseudonym)));
    expect(
        "YDYDYU",
        who ->
            send(
                who,
                "POST",
                "/ttp-fhir/fhir/gpas/$pseudonymizeAllowCreate",
                parameters(
                    "target", "valueString", namespace, "original", "valueString", original)));
    expect(
        "YDYDYU",
        who ->
            send(
                who,
                "POST",
                "/ttp-fhir/fhir/gpas/$pseudonymize",
                parameters(
                    "target", "valueString", namespace, "original", "valueString", original)));
    expect(
        "YDDYDU",
        who ->
            send(
                who,
                "POST",
                "/ttp-fhir/fhir/gpas/$dePseudonymize",
                parameters(
                    "target", "valueString", namespace, "pseudonym", "valueString", pseudonym)));
    expect(
        "YDYDYU",
        who ->
            send(
                who,
                "GET",
                "/ttp-fhir/fhir/gpas/$pseudonymize-allow-create?domain="
                    + namespace
                    + "&original="
                    + original,
                null));
    expect(
        "YDDYDU",
        who ->
            send(
                who,
                "GET",
                "/ttp-fhir/fhir/gpas/$de-pseudonymize?domain="
                    + namespace
                    + "&pseudonym="
                    + pseudonym,
                null));
  }

  @Test
  void aBatchAnswersEachEntryWithTheCallersPermissionAndATransactionFailsWhole() {
    String batch =
        batch(
            "$pseudonymize",
            parameters(
                "context", "valueIdentifier", namespace, "original", "valueIdentifier", original));
    String transaction = batch.replace("\"batch\"", "\"transaction\"");

    HttpTestClient.Response denied = send("reader", "POST", "/v1/fhir", batch);

    assertThat(denied.status()).isEqualTo(200);
    assertThat(firstEntryStatus(denied)).isEqualTo("403 Forbidden");
    assertThat(firstEntryStatus(send("writer", "POST", "/v1/fhir", batch))).isEqualTo("200 OK");
    assertThat(send("reader", "POST", "/v1/fhir", transaction).status()).isEqualTo(403);
    assertThat(send("anonymous", "POST", "/v1/fhir", batch).status()).isEqualTo(401);
    assertThat(send("client", "POST", "/v1/fhir", transaction).status()).isEqualTo(200);
    String multiple = batch("$pseudonymize-multiple", pseudonymizeMultiple(original, 0));
    assertThat(firstEntryStatus(send("reader", "POST", "/v1/fhir", multiple)))
        .isEqualTo("403 Forbidden");
    assertThat(firstEntryStatus(send("writer", "POST", "/v1/fhir", multiple))).isEqualTo("200 OK");
  }

  /** A batch Bundle of one entry, {@code POST <url>} with the parameters. */
  private static String batch(String url, String parameters) {
    JsonObject entry =
        new JsonObject()
            .put("request", new JsonObject().put("method", "POST").put("url", url))
            .put("resource", new JsonObject(parameters));
    return new JsonObject()
        .put("resourceType", "Bundle")
        .put("type", "batch")
        .put("entry", new JsonArray().add(entry))
        .encode();
  }

  private static String firstEntryStatus(HttpTestClient.Response bundle) {
    return bundle
        .json()
        .getJsonArray("entry")
        .getJsonObject(0)
        .getJsonObject("response")
        .getString("status");
  }

  @Test
  void theCapabilityStatementsAreOpen() {
    assertThat(send("anonymous", "GET", "/v1/fhir/metadata", null).status()).isEqualTo(200);
    assertThat(send("anonymous", "GET", "/ttp-fhir/fhir/gpas/metadata", null).status())
        .isEqualTo(200);
  }

  @Test
  void dePseudonymizingIsAuditedPerValueWithoutTheOriginalValue() {
    send(
        "auditor",
        "POST",
        "/v1/fhir/$de-pseudonymize",
        parameters(
            "context", "valueIdentifier", namespace, "pseudonym", "valueIdentifier", pseudonym));
    send(
        "auditor",
        "POST",
        "/ttp-fhir/fhir/gpas/$dePseudonymize",
        parameters(
            "target",
            "valueString",
            namespace,
            "pseudonym",
            "valueString",
            pseudonym,
            "pseudonym",
            "valueString",
            "unknown"));
    send(
        "writer",
        "POST",
        "/v1/fhir/$de-pseudonymize",
        parameters(
            "context", "valueIdentifier", namespace, "pseudonym", "valueIdentifier", pseudonym));

    List<Map<String, String>> lines = AuditLines.fields(audit.list);
    assertThat(lines)
        .contains(
            Map.of(
                "operation", "PseudonymService/Get",
                "outcome", "OK",
                "subject", "aude",
                "client", "127.0.0.1",
                "namespace", namespace,
                "pseudonym", pseudonym),
            Map.of(
                "operation", "PseudonymService/BatchGet",
                "outcome", "OK",
                "subject", "aude",
                "client", "127.0.0.1",
                "namespace", namespace,
                "pseudonym", pseudonym),
            Map.of(
                "operation", "PseudonymService/BatchGet",
                "outcome", "NOT_FOUND",
                "subject", "aude",
                "client", "127.0.0.1",
                "namespace", namespace,
                "pseudonym", "unknown"),
            Map.of(
                "operation", "PseudonymService/Get",
                "outcome", "PERMISSION_DENIED",
                "subject", "walt",
                "client", "127.0.0.1",
                "namespace", namespace));
    assertThat(audit.list)
        .allSatisfy(
            event -> {
              assertThat(event.getFormattedMessage()).doesNotContain(original);
              assertThat(String.valueOf(event.getKeyValuePairs())).doesNotContain(original);
            });
  }
}
