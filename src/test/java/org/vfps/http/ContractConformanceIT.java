package org.vfps.http;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.openapi.contract.OpenAPIContract;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.vfps.HttpTestClient;
import org.vfps.HttpTestClient.Response;
import org.vfps.LogCapture;
import org.vfps.TestService;
import org.vfps.VfpsServer;
import org.vfps.grpc.MalformedInputLog;

/**
 * The service answers as its OpenAPI contract says, in the points schemathesis found: the media
 * types of the FHIR replies, the {@code Allow} header of a 405, path parameters taken as the text
 * they are, and request bodies the contract allows exactly when the service accepts them.
 */
class ContractConformanceIT {

  private static final String SUFFIX = UUID.randomUUID().toString().substring(0, 8);

  private static Vertx vertx;
  private static OpenAPIContract contract;
  private static VfpsServer server;
  private static HttpTestClient http;

  @RegisterExtension final LogCapture logs = LogCapture.of("org.vfps");

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
    contract = ApiContract.load(vertx).await().contract();
    server = TestService.start();
    http = new HttpTestClient(server.httpPort());
  }

  @AfterAll
  static void stop() {
    http.close();
    server.close();
    vertx.close().await();
  }

  /** The media types the served contract names for an operation's response of this status. */
  private static List<String> declaredMediaTypes(String path, String method, int status) {
    JsonObject responses =
        http.get("/openapi.json")
            .json()
            .getJsonObject("paths")
            .getJsonObject(path)
            .getJsonObject(method)
            .getJsonObject("responses");
    JsonObject response =
        responses.getJsonObject(Integer.toString(status), responses.getJsonObject("default"));
    return List.copyOf(response.getJsonObject("content").fieldNames());
  }

  @Test
  void fhirRepliesHaveTheMediaTypeTheContractDeclares() {
    Response metadata = http.get("/v1/fhir/metadata");
    assertThat(metadata.status()).isEqualTo(200);
    assertThat(declaredMediaTypes("/v1/fhir/metadata", "get", 200))
        .contains(JsonRequests.mediaType(metadata.contentType()));

    String parameters =
        new JsonObject()
            .put("resourceType", "Parameters")
            .put(
                "parameter",
                List.of(
                    Map.of("name", "namespace", "valueString", "missing-" + SUFFIX),
                    Map.of("name", "originalValue", "valueString", "x")))
            .encode();
    for (String requestType : List.of("application/fhir+json", "application/json")) {
      Response outcome =
          http.post(
              "/v1/fhir/$create-pseudonym",
              requestType,
              parameters.getBytes(StandardCharsets.UTF_8));
      assertThat(outcome.status()).isEqualTo(404);
      assertThat(declaredMediaTypes("/v1/fhir/$create-pseudonym", "post", 404))
          .contains(JsonRequests.mediaType(outcome.contentType()));
    }
  }

  @Test
  void aMethodNotAllowedNamesTheAllowedOnes() {
    Map<String, String> allowed =
        Map.of(
            "/v1/namespaces", "GET, POST",
            "/v1/namespaces/some-name", "DELETE, GET",
            "/v1/namespaces/some-name/pseudonyms", "GET, POST",
            "/v1/namespaces/some-name/pseudonyms/some-value", "GET",
            "/v1/fhir/metadata", "GET",
            "/livez", "GET");
    allowed.forEach(
        (path, methods) -> {
          Response response = http.method("PUT", path);
          assertThat(response.status()).as(path).isEqualTo(405);
          assertThat(response.headers().firstValue("Allow")).as(path).contains(methods);
          assertThat(response.json().getInteger("code")).isEqualTo(12);
        });
  }

  /** Names the contract allows (any string), some of which look like JSON or hold escapes. */
  @ParameterizedTest
  @ValueSource(strings = {"back\\slash", "a\"quote", "tab\tand\u0001control", "-1", "1.5", "[1]"})
  void pathParametersAreTakenAsTheTextTheyAre(String prefix) {
    String name = prefix + "-" + SUFFIX;
    Response created =
        http.postJson(
            "/v1/namespaces",
            new JsonObject().put("name", name).put("pseudonymLength", 16).encode());
    assertThat(created.status()).isEqualTo(200);
    String path = "/v1/namespaces/" + URLEncoder.encode(name, StandardCharsets.UTF_8);
    try {
      Response found = http.get(path);
      assertThat(found.status()).as(found.body()).isEqualTo(200);
      assertThat(found.json().getJsonObject("namespace").getString("name")).isEqualTo(name);

      Response pseudonym = http.postJson(path + "/pseudonyms", "{\"originalValue\": \"x\"}");
      assertThat(pseudonym.status()).as(pseudonym.body()).isEqualTo(200);
      String value = pseudonym.json().getJsonObject("pseudonym").getString("pseudonymValue");
      Response byValue =
          http.get(path + "/pseudonyms/" + URLEncoder.encode(value, StandardCharsets.UTF_8));
      assertThat(byValue.status()).as(byValue.body()).isEqualTo(200);
    } finally {
      assertThat(http.delete(path).status()).isEqualTo(200);
    }
  }

  /**
   * A field given by its JSON and its proto name at once is ambiguous; the service rejects it, so
   * the contract must not allow it. Either name alone is allowed and accepted.
   */
  @Test
  void theContractAllowsABodyExactlyWhenTheServiceAcceptsIt() {
    String namespace = "both-names-" + SUFFIX;
    Map<String, Boolean> namespaceBodies =
        Map.of(
            new JsonObject().put("name", namespace).put("pseudonym_length", 16).encode(),
            true,
            new JsonObject()
                .put("name", namespace + "-2")
                .put("pseudonymLength", 16)
                .put("pseudonym_length", 16)
                .encode(),
            false);
    namespaceBodies.forEach(
        (body, valid) -> {
          assertThat(allowedByContract("NamespaceService_Create", body)).as(body).isEqualTo(valid);
          assertThat(http.postJson("/v1/namespaces", body).status())
              .as(body)
              .isEqualTo(valid ? 200 : 400);
        });
    try {
      Map<String, Boolean> pseudonymBodies =
          Map.of(
              "{\"original_value\": \"x\"}", true,
              "{\"originalValue\": \"x\", \"original_value\": \"x\"}", false,
              "{\"originalValue\": \"x\", \"original_value\": null}", false);
      pseudonymBodies.forEach(
          (body, valid) -> {
            assertThat(allowedByContract("PseudonymService_Create", body))
                .as(body)
                .isEqualTo(valid);
            assertThat(http.postJson("/v1/namespaces/" + namespace + "/pseudonyms", body).status())
                .as(body)
                .isEqualTo(valid ? 200 : 400);
          });
    } finally {
      http.delete("/v1/namespaces/" + namespace);
    }
  }

  /**
   * A query value is percent-decoded once, on every route: {@code 100%25} is the text {@code 100%}
   * (decoded again it would not decode, which was a 500 with a stack trace), {@code %2531} is the
   * text {@code %31} (not the number 1). A target that does not decode even once is a 400 and one
   * warning without a stack trace.
   */
  @Test
  void queryValuesAreDecodedOnce() {
    String namespace = "decoded-once-" + SUFFIX;
    assertThat(
            http.postJson(
                    "/v1/namespaces",
                    new JsonObject().put("name", namespace).put("pseudonymLength", 16).encode())
                .status())
        .isEqualTo(200);
    String pseudonyms = "/v1/namespaces/" + namespace + "/pseudonyms";
    try {
      for (String query :
          List.of("page_token=100%25", "pageToken=%25zz%25", "page_size=%2531", "pageSize=1%25")) {
        Response response = http.get(pseudonyms + "?" + query);
        assertThat(response.status()).as(query).isEqualTo(400);
        assertThat(response.json().getInteger("code")).as(query).isEqualTo(3);
      }
      assertThat(http.get(pseudonyms + "?page_size=%31&include_total_size=%74rue").status())
          .isEqualTo(200);
      for (String target : List.of(pseudonyms + "?page_token=%zz", "/livez?x=%", "/ui/?x=%g0")) {
        Response malformed = http.rawGet(target);
        assertThat(malformed.status()).as(target).isEqualTo(400);
        assertThat(malformed.json().getInteger("code")).as(target).isEqualTo(3);
      }
    } finally {
      http.delete("/v1/namespaces/" + namespace);
    }
    assertThat(logs.atLeast(Level.WARN))
        .allSatisfy(
            event -> {
              assertThat(event.getLevel()).isEqualTo(Level.WARN);
              assertThat(event.getLoggerName()).isEqualTo(MalformedInputLog.class.getName());
              assertThat(event.getThrowableProxy()).isNull();
            });
  }

  private static boolean allowedByContract(String operationId, String body) {
    var schema =
        contract
            .operation(operationId)
            .getRequestBody()
            .getContent()
            .get("application/json")
            .getSchema();
    return contract
        .getSchemaRepository()
        .validator(schema)
        .validate(new JsonObject(body))
        .getValid();
  }
}
