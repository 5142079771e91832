package org.vfps;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * Namespaces of the alphabet method over decimal digits for the edges' tests, made through REST:
 * one with a check digit and groups, its pseudonyms, and a mistyped pseudonym of it.
 */
public final class AlphabetNamespaces {

  /** The refusal of a pseudonym whose check digit does not match, in every edge. */
  public static final String MISTYPED =
      "The pseudonym's check digit does not match: it was mistyped.";

  private AlphabetNamespaces() {}

  /**
   * Creates a namespace of {@code length} digits of {@code 0123456789} with the check digit and
   * groups given (no prefix nor suffix), and answers its pseudonyms of {@code originals}, in order.
   *
   * @param checkDigit the enum name, e.g. {@code CHECK_DIGIT_DAMM}
   */
  public static List<String> createWithPseudonyms(
      HttpTestClient http,
      String name,
      int length,
      String checkDigit,
      int groupSize,
      String delimiter,
      String... originals) {
    HttpTestClient.Response created =
        http.postJson(
            "/v1/namespaces",
            new JsonObject()
                .put("name", name)
                .put(
                    "pseudonymGenerationMethod",
                    "PSEUDONYM_GENERATION_METHOD_X_SECURE_RANDOM_ALPHABET")
                .put("pseudonymLength", length)
                .put(
                    "xFormat",
                    new JsonObject()
                        .put("alphabet", "0123456789")
                        .put("checkDigit", checkDigit)
                        .put("groupSize", groupSize)
                        .put("groupDelimiter", delimiter))
                .encode());
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    HttpTestClient.Response made =
        http.postJson(
            "/v1/namespaces/" + name + "/pseudonyms:batchCreate",
            new JsonObject().put("originalValues", new JsonArray(List.of(originals))).encode());
    assertThat(made.status()).as(made.body()).isEqualTo(200);
    return made.json().getJsonArray("pseudonyms").stream()
        .map(pseudonym -> ((JsonObject) pseudonym).getString("pseudonymValue"))
        .toList();
  }

  /**
   * The pseudonym with its last character, the check digit of a decimal format without suffix,
   * changed: a check digit that never matches.
   */
  public static String mistyped(String pseudonym) {
    char check = pseudonym.charAt(pseudonym.length() - 1);
    return pseudonym.substring(0, pseudonym.length() - 1) + (char) ('0' + (check - '0' + 1) % 10);
  }
}
