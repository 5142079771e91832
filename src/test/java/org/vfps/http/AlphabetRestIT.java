package org.vfps.http;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.UUID;
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
 * Namespaces of the alphabet method over REST: created with either spelling of their format, read
 * back with it, and their reverse lookups (Get, BatchGet) find a pseudonym with or without its
 * group delimiters and refuse a mistyped one with a 400 and the JSON error body, logged as the
 * client's mistake it is.
 */
class AlphabetRestIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  @RegisterExtension final LogCapture logs = LogCapture.of("org.vfps");

  private static HttpTestClient http;

  @BeforeAll
  static void start() {
    VfpsServer server = resources.own(TestService.start());
    http = resources.own(new HttpTestClient(server.httpPort()));
  }

  private static Response batch(
      String namespace, String method, String field, List<String> values) {
    return http.postJson(
        "/v1/namespaces/" + namespace + "/pseudonyms:" + method,
        new JsonObject().put(field, new JsonArray(values)).encode());
  }

  @Test
  void aNamespaceCreatedWithProtoNamesAndNumbersReadsBackWithItsFormat() {
    String name = "alphabet-rest-" + UUID.randomUUID();
    Response created =
        http.postJson(
            "/v1/namespaces",
            new JsonObject()
                .put("name", name)
                .put("pseudonym_generation_method", 1000)
                .put("pseudonym_length", 9)
                .put(
                    "x_format",
                    new JsonObject()
                        .put("alphabet", "0123456789")
                        .put("check_digit", 3)
                        .put("group_size", 5)
                        .put("group_delimiter", " "))
                .encode());

    assertThat(created.status()).as(created.body()).isEqualTo(200);
    JsonObject format =
        new JsonObject()
            .put("alphabet", "0123456789")
            .put("checkDigit", "CHECK_DIGIT_VERHOEFF")
            .put("groupSize", 5)
            .put("groupDelimiter", " ");
    JsonObject namespace = created.json().getJsonObject("namespace");
    assertThat(namespace.getString("pseudonymGenerationMethod"))
        .isEqualTo("PSEUDONYM_GENERATION_METHOD_X_SECURE_RANDOM_ALPHABET");
    assertThat(namespace.getJsonObject("xFormat")).isEqualTo(format);
    assertThat(
            http.get("/v1/namespaces/" + name)
                .json()
                .getJsonObject("namespace")
                .getJsonObject("xFormat"))
        .isEqualTo(format);
  }

  @Test
  void theMethodWithoutAFormatAndAFormatWithAnotherMethodAreRefused() {
    JsonObject alphabet =
        new JsonObject()
            .put(
                "pseudonymGenerationMethod", "PSEUDONYM_GENERATION_METHOD_X_SECURE_RANDOM_ALPHABET")
            .put("pseudonymLength", 12);
    Map<JsonObject, String> refused =
        Map.of(
            alphabet.copy(),
            "The 'XSecureRandomAlphabet' pseudonym generation method needs a pseudonym format"
                + " (x_format) with its alphabet.",
            alphabet.copy().putNull("xFormat"),
            "The 'XSecureRandomAlphabet' pseudonym generation method needs a pseudonym format"
                + " (x_format) with its alphabet.",
            alphabet
                .copy()
                .put("pseudonymGenerationMethod", 5)
                .put("x_format", new JsonObject().put("alphabet", "0123456789")),
            "A pseudonym format (x_format) belongs to the 'XSecureRandomAlphabet' pseudonym"
                + " generation method only.");
    refused.forEach(
        (body, message) -> {
          Response response =
              http.postJson(
                  "/v1/namespaces",
                  body.copy().put("name", "alphabet-rest-" + UUID.randomUUID()).encode());
          assertThat(response.status()).as(body.encode()).isEqualTo(400);
          assertThat(response.json())
              .isEqualTo(
                  new JsonObject()
                      .put("code", 3)
                      .put("message", message)
                      .put("details", new JsonArray()));
        });
    assertThat(logs.atLeast(Level.WARN)).isEmpty();
  }

  @Test
  void aFormatTheServiceRefusesIsA400WithTheErrorBody() {
    Response refused =
        http.postJson(
            "/v1/namespaces",
            new JsonObject()
                .put("name", "alphabet-rest-" + UUID.randomUUID())
                .put(
                    "pseudonymGenerationMethod",
                    "PSEUDONYM_GENERATION_METHOD_X_SECURE_RANDOM_ALPHABET")
                .put("pseudonymLength", 8)
                .put(
                    "xFormat",
                    new JsonObject()
                        .put("alphabet", "0123456789-")
                        .put("checkDigit", "CHECK_DIGIT_LUHN_MOD_N")
                        .put("groupSize", 4)
                        .put("groupDelimiter", "-"))
                .encode());

    assertThat(refused.status()).isEqualTo(400);
    assertThat(refused.json())
        .isEqualTo(
            new JsonObject()
                .put("code", 3)
                .put(
                    "message",
                    "The group delimiter has '-', which is in the alphabet; it must use other"
                        + " characters.")
                .put("details", new JsonArray()));
    assertThat(logs.atLeast(Level.WARN)).isEmpty();
  }

  @Test
  void getAndBatchGetFindAPseudonymWithOrWithoutDelimitersAndRefuseAMistypedOne() {
    String name = "alphabet-rest-" + UUID.randomUUID();
    List<String> pseudonyms =
        AlphabetNamespaces.createWithPseudonyms(
            http, name, 11, "CHECK_DIGIT_DAMM", 4, "-", "anna", "ben");
    String anna = pseudonyms.get(0);
    String ben = pseudonyms.get(1);
    assertThat(anna).matches("\\d{4}-\\d{4}-\\d{4}");

    Response grouped = http.get("/v1/namespaces/" + name + "/pseudonyms/" + anna);
    Response ungrouped =
        http.get("/v1/namespaces/" + name + "/pseudonyms/" + anna.replace("-", ""));
    Response typo =
        http.get("/v1/namespaces/" + name + "/pseudonyms/" + AlphabetNamespaces.mistyped(anna));
    Response both = batch(name, "batchGet", "pseudonymValues", List.of(ben.replace("-", ""), anna));
    Response batchTypo =
        batch(
            name,
            "batchGet",
            "pseudonymValues",
            List.of(anna, AlphabetNamespaces.mistyped(ben), "S0"));

    assertThat(grouped.json().getJsonObject("pseudonym").getString("originalValue"))
        .isEqualTo("anna");
    assertThat(ungrouped.status()).as(ungrouped.body()).isEqualTo(200);
    assertThat(ungrouped.json().getJsonObject("pseudonym").getString("pseudonymValue"))
        .isEqualTo(anna);
    JsonObject mistypedBody =
        new JsonObject()
            .put("code", 3)
            .put("message", AlphabetNamespaces.MISTYPED)
            .put("details", new JsonArray());
    assertThat(typo.status()).isEqualTo(400);
    assertThat(typo.json()).isEqualTo(mistypedBody);
    assertThat(both.status()).as(both.body()).isEqualTo(200);
    assertThat(both.json().getJsonArray("pseudonyms").stream())
        .map(p -> ((JsonObject) p).getString("originalValue"))
        .containsExactly("ben", "anna");
    assertThat(batchTypo.status()).isEqualTo(400);
    assertThat(batchTypo.json()).isEqualTo(mistypedBody);
    assertThat(logs.atLeast(Level.WARN)).isEmpty();
  }
}
