package org.vfps.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.vfps.ClassResources;
import org.vfps.HttpTestClient;
import org.vfps.HttpTestClient.Response;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.server.VfpsServer;

/**
 * Every kind of bad input is a clear client error with the JSON error body, never a 5xx, and
 * changes nothing stored. The body limit is set low here, so that the 413 cases stay small.
 */
class BadInputIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static final int BODY_LIMIT = 4096;
  private static final String NAMESPACE = "bad-input-" + UUID.randomUUID();

  private static VfpsServer server;
  private static HttpTestClient http;

  @BeforeAll
  static void start() {
    server =
        resources.own(
            TestService.start(
                Map.of(
                    "ConnectionStrings__PostgreSQL",
                    TestPostgres.uri(),
                    "Http__MaxRequestBodyBytes",
                    Integer.toString(BODY_LIMIT))));
    http = resources.own(new HttpTestClient(server.httpPort()));
    Response created =
        http.postJson(
            "/v1/namespaces",
            new JsonObject().put("name", NAMESPACE).put("pseudonymLength", 16).encode());
    assertThat(created.status()).isEqualTo(200);
  }

  /** A request, and the HTTP status and gRPC code it must be answered with. */
  record Case(String name, Sender request, int status, int code) {

    @Override
    public String toString() {
      return name;
    }
  }

  @FunctionalInterface
  interface Sender {
    Response send(String namespaceToCreate);
  }

  static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  static String namespaceBody(String name) {
    return new JsonObject().put("name", name).put("pseudonymLength", 16).encode();
  }

  static String oversized() {
    return "{\"originalValue\": \"" + "x".repeat(BODY_LIMIT * 2) + "\"}";
  }

  static Stream<Arguments> badRequests() {
    String pseudonyms = "/v1/namespaces/" + NAMESPACE + "/pseudonyms";
    return Stream.of(
            new Case(
                "malformed JSON",
                name -> http.postJson("/v1/namespaces", "{\"name\": \"" + name + "\","),
                400,
                3),
            new Case("a JSON array", name -> http.postJson("/v1/namespaces", "[]"), 400, 3),
            new Case("an empty body", name -> http.postJson("/v1/namespaces", ""), 400, 3),
            new Case(
                "text/plain",
                name -> http.post("/v1/namespaces", "text/plain", utf8(namespaceBody(name))),
                400,
                3),
            new Case(
                "no content type",
                name -> http.post("/v1/namespaces", null, utf8(namespaceBody(name))),
                400,
                3),
            new Case(
                "a charset other than UTF-8",
                name ->
                    http.post(
                        "/v1/namespaces",
                        "application/json; charset=utf-16",
                        namespaceBody(name).getBytes(StandardCharsets.UTF_16)),
                400,
                3),
            new Case(
                "invalid UTF-8",
                name -> {
                  byte[] body = utf8(namespaceBody(name + "\u00e9"));
                  // turn the two-byte é into a lone continuation byte and an invalid one
                  for (int i = 0; i < body.length - 1; i++) {
                    if (body[i] == (byte) 0xC3) {
                      body[i] = (byte) 0xFF;
                    }
                  }
                  return http.post("/v1/namespaces", "application/json", body);
                },
                400,
                3),
            new Case(
                "an unpaired surrogate escape",
                name ->
                    http.postJson(
                        "/v1/namespaces",
                        "{\"name\": \"" + name + "\\ud800\", \"pseudonymLength\": 16}"),
                400,
                3),
            new Case(
                "an unknown enum name",
                name ->
                    http.postJson(
                        "/v1/namespaces",
                        new JsonObject()
                            .put("name", name)
                            .put("pseudonymLength", 16)
                            .put("pseudonymGenerationMethod", "PSEUDONYM_GENERATION_METHOD_MD5")
                            .encode()),
                400,
                3),
            new Case(
                "an unknown enum number",
                name ->
                    http.postJson(
                        "/v1/namespaces",
                        new JsonObject()
                            .put("name", name)
                            .put("pseudonymLength", 16)
                            .put("pseudonymGenerationMethod", 99)
                            .encode()),
                400,
                3),
            new Case(
                "a length of the wrong type",
                name ->
                    http.postJson(
                        "/v1/namespaces",
                        new JsonObject()
                            .put("name", name)
                            .put("pseudonymLength", "sixteen")
                            .encode()),
                400,
                3),
            new Case(
                "a negative length",
                name ->
                    http.postJson(
                        "/v1/namespaces",
                        new JsonObject().put("name", name).put("pseudonymLength", -1).encode()),
                400,
                3),
            new Case(
                "a length beyond uint32",
                name ->
                    http.postJson(
                        "/v1/namespaces",
                        new JsonObject()
                            .put("name", name)
                            .put("pseudonymLength", 4_294_967_296L)
                            .encode()),
                400,
                3),
            new Case(
                "a name that is an object",
                name ->
                    http.postJson(
                        "/v1/namespaces",
                        new JsonObject()
                            .put("name", new JsonObject().put("nested", name))
                            .put("pseudonymLength", 16)
                            .encode()),
                400,
                3),
            new Case(
                "the same field by both names",
                name ->
                    http.postJson(
                        "/v1/namespaces",
                        new JsonObject()
                            .put("name", name)
                            .put("pseudonymLength", 16)
                            .put("pseudonym_length", 17)
                            .encode()),
                400,
                3),
            new Case(
                "nesting beyond the parser's depth",
                name -> http.postJson("/v1/namespaces", "[".repeat(2000) + "]".repeat(2000)),
                400,
                3),
            new Case(
                "a body over the limit",
                name -> http.postJson("/v1/namespaces", oversized()),
                413,
                8),
            new Case(
                "a chunked body over the limit",
                name -> http.postChunked(pseudonyms, "application/json", utf8(oversized())),
                413,
                8),
            new Case(
                "an original value over the limit",
                name -> http.postJson(pseudonyms, oversized()),
                413,
                8),
            new Case(
                "an original value that is a number",
                name -> http.postJson(pseudonyms, "{\"originalValue\": 42}"),
                400,
                3),
            new Case(
                "an original value in text/plain",
                name -> http.post(pseudonyms, "text/plain", utf8("{\"originalValue\": \"x\"}")),
                400,
                3),
            new Case(
                "an original value of invalid UTF-8",
                name ->
                    http.post(
                        pseudonyms,
                        "application/json",
                        new byte[] {
                          '{',
                          '"',
                          'o',
                          'r',
                          'i',
                          'g',
                          'i',
                          'n',
                          'a',
                          'l',
                          'V',
                          'a',
                          'l',
                          'u',
                          'e',
                          '"',
                          ':',
                          '"',
                          (byte) 0xC0,
                          (byte) 0xAF,
                          '"',
                          '}'
                        }),
                400,
                3),
            new Case(
                "a page size that is no number",
                name -> http.get(pseudonyms + "?page_size=ten"),
                400,
                3),
            new Case(
                "a page size beyond int32",
                name -> http.get(pseudonyms + "?pageSize=99999999999"),
                400,
                3),
            new Case(
                "a total size flag that is no boolean",
                name -> http.get(pseudonyms + "?include_total_size=maybe"),
                400,
                3),
            new Case(
                "a malformed page token",
                name -> http.get(pseudonyms + "?page_token=not-a-token"),
                400,
                3),
            new Case(
                "a malformed escape in the query",
                name -> http.rawGet(pseudonyms + "?pageToken=%zz"),
                400,
                3),
            new Case(
                "a malformed escape in the path",
                name -> http.rawGet("/v1/namespaces/%zz"),
                400,
                3),
            new Case(
                "a count of 0",
                name -> http.postJson(pseudonyms, "{\"originalValue\": \"x\", \"count\": 0}"),
                400,
                3),
            new Case(
                "a count above 10000",
                name ->
                    http.postJson(pseudonyms, "{\"originalValue\": \"x\", \"count\": \"10001\"}"),
                400,
                3),
            new Case(
                "a count that is no integer",
                name -> http.postJson(pseudonyms, "{\"originalValue\": \"x\", \"count\": \"abc\"}"),
                400,
                3),
            new Case(
                "a truncated escape in the path",
                name -> http.rawGet("/v1/namespaces/abc%"),
                400,
                3),
            new Case("a path that does not exist", name -> http.get("/v1/nothing"), 404, 5),
            new Case(
                "a method the path does not allow",
                name -> http.method("PATCH", "/v1/namespaces"),
                405,
                12))
        .map(Arguments::of);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badRequests")
  void isAClientErrorWithTheErrorBodyAndStoresNothing(Case badRequest) {
    String name = "bad-" + UUID.randomUUID();
    long pseudonymsBefore = TestPostgres.pseudonymCount(NAMESPACE);

    Response response = badRequest.request().send(name);

    assertThat(response.status()).as(response.body()).isEqualTo(badRequest.status());
    assertThat(response.contentType()).isEqualTo("application/json; charset=utf-8");
    JsonObject body = response.json();
    assertThat(body.fieldNames()).containsExactly("code", "message", "details");
    assertThat(body.getInteger("code")).isEqualTo(badRequest.code());
    assertThat(body.getString("message")).isNotBlank();
    assertThat(body.getJsonArray("details")).isEqualTo(new JsonArray());
    assertThat(
            TestPostgres.queryLong(
                TestPostgres.database(),
                "SELECT count(*) FROM namespaces WHERE name LIKE ?",
                name + "%"))
        .isZero();
    assertThat(TestPostgres.pseudonymCount(NAMESPACE)).isEqualTo(pseudonymsBefore);
  }

  @Test
  void aBadCountIsAnsweredInTheServicesWordsAsOverGrpc() {
    String pseudonyms = "/v1/namespaces/" + NAMESPACE + "/pseudonyms";
    Map<String, String> answers =
        Map.of(
            "0", "count must be at least 1.",
            "\"-1\"", "count must be at least 1.",
            "10001", "count must be at most 10000.",
            "\"abc\"", "The request body is not valid: Not an int64 value: \"abc\".",
            "1.5", "The request body is not valid: Not an int64 value: 1.5.");
    answers.forEach(
        (count, message) -> {
          Response response =
              http.postJson(pseudonyms, "{\"originalValue\": \"x\", \"count\": " + count + "}");
          assertThat(response.status()).as(count).isEqualTo(400);
          assertThat(response.json().getString("message")).as(count).isEqualTo(message);
        });
  }
}
