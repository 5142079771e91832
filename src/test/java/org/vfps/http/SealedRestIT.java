package org.vfps.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.ClassResources;
import org.vfps.HttpTestClient;
import org.vfps.HttpTestClient.Response;
import org.vfps.SealedService;

/**
 * A sealed namespace over REST with JSON bodies, created through the API with {@code
 * Sealing__KeyFile} set: creates, reverse lookups, batches, lists and withdrawal answer as in a
 * plain namespace, while the table and the log hold none of the original values.
 */
class SealedRestIT {

  @RegisterExtension static final SealedService sealed = new SealedService();
  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static HttpTestClient http;

  @BeforeAll
  static void connect() {
    http = resources.own(new HttpTestClient(sealed.server().httpPort()));
  }

  private static String createNamespace() {
    String name = "sealed-rest-" + UUID.randomUUID();
    Response created =
        http.postJson(
            "/v1/namespaces",
            new JsonObject().put("name", name).put("pseudonymLength", 16).encode());
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    return name;
  }

  private static JsonObject ok(Response response) {
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    assertThat(response.contentType()).startsWith("application/json");
    return response.json();
  }

  private static JsonObject create(String namespace, String original) {
    return ok(http.postJson(
            "/v1/namespaces/" + namespace + "/pseudonyms",
            new JsonObject().put("originalValue", original).encode()))
        .getJsonObject("pseudonym");
  }

  private static List<String> field(JsonArray pseudonyms, String name) {
    return pseudonyms.stream().map(p -> ((JsonObject) p).getString(name)).toList();
  }

  @Test
  void createsLookupsBatchesAndListsAnswerTheOriginalsWhileTheTableHoldsNone() {
    String namespace = createNamespace();
    String pseudonyms = "/v1/namespaces/" + namespace + "/pseudonyms";
    String anna = sealed.original("anna");
    String ben = sealed.original("ben");
    String carl = sealed.original("carl");

    JsonObject first = create(namespace, anna);
    assertThat(first.getString("originalValue")).isEqualTo(anna);
    String annas = first.getString("pseudonymValue");
    assertThat(create(namespace, anna).getString("pseudonymValue")).isEqualTo(annas);
    assertThat(
            ok(http.get(pseudonyms + "/" + annas))
                .getJsonObject("pseudonym")
                .getString("originalValue"))
        .isEqualTo(anna);
    assertThat(
            ok(http.postJson(
                    pseudonyms + ":resolve", new JsonObject().put("originalValue", anna).encode()))
                .getJsonObject("pseudonym")
                .getString("pseudonymValue"))
        .isEqualTo(annas);

    JsonArray batch =
        ok(http.postJson(
                pseudonyms + ":batchCreate",
                new JsonObject()
                    .put("originalValues", new JsonArray().add(ben).add(carl).add(anna))
                    .encode()))
            .getJsonArray("pseudonyms");
    assertThat(field(batch, "originalValue")).containsExactly(ben, carl, anna);
    List<String> batchPseudonyms = field(batch, "pseudonymValue");
    assertThat(batchPseudonyms.get(2)).isEqualTo(annas);
    JsonArray revealed =
        ok(http.postJson(
                pseudonyms + ":batchGet",
                new JsonObject()
                    .put(
                        "pseudonymValues",
                        new JsonArray().add(batchPseudonyms.get(1)).add(batchPseudonyms.get(0)))
                    .encode()))
            .getJsonArray("pseudonyms");
    assertThat(field(revealed, "originalValue")).containsExactly(carl, ben);

    List<String> listed = new ArrayList<>();
    String token = "";
    do {
      JsonObject page = ok(http.get(pseudonyms + "?pageSize=2&pageToken=" + token));
      assertThat(field(page.getJsonArray("pseudonyms"), "originalValue")).containsOnlyNulls();
      listed.addAll(field(page.getJsonArray("pseudonyms"), "pseudonymValue"));
      token = page.getString("nextPageToken", "");
      for (String original : List.of(anna, ben, carl)) {
        assertThat(token).doesNotContain(original);
      }
    } while (!token.isEmpty());
    assertThat(listed).containsExactlyInAnyOrderElementsOf(batchPseudonyms);

    sealed.assertOriginalsHidden();
  }

  @Test
  void withdrawalOverRestFindsSealedValues() {
    String namespace = createNamespace();
    String withdrawal = "/x/v1/namespaces/" + namespace + "/pseudonyms";
    String deleted = sealed.original("deleted");
    String anonymized = sealed.original("anonymized");
    String batchDeleted = sealed.original("batch-deleted");
    String deletedPseudonym = create(namespace, deleted).getString("pseudonymValue");
    String anonymizedPseudonym = create(namespace, anonymized).getString("pseudonymValue");
    String batchDeletedPseudonym = create(namespace, batchDeleted).getString("pseudonymValue");

    assertThat(
            field(
                ok(http.postJson(
                        withdrawal + ":delete",
                        new JsonObject().put("originalValue", deleted).encode()))
                    .getJsonArray("pseudonyms"),
                "pseudonymValue"))
        .containsExactly(deletedPseudonym);
    assertThat(
            field(
                ok(http.postJson(
                        withdrawal + ":anonymize",
                        new JsonObject().put("originalValue", anonymized).encode()))
                    .getJsonArray("pseudonyms"),
                "pseudonymValue"))
        .containsExactly(anonymizedPseudonym);
    JsonArray results =
        ok(http.postJson(
                withdrawal + ":batchDelete",
                new JsonObject()
                    .put("originalValues", new JsonArray().add(batchDeleted).add(deleted))
                    .encode()))
            .getJsonArray("results");
    assertThat(field(results, "outcome"))
        .containsExactly("WITHDRAWAL_OUTCOME_DELETED", "WITHDRAWAL_OUTCOME_NOT_FOUND");

    String pseudonyms = "/v1/namespaces/" + namespace + "/pseudonyms/";
    assertThat(http.get(pseudonyms + deletedPseudonym).status()).isEqualTo(404);
    assertThat(http.get(pseudonyms + batchDeletedPseudonym).status()).isEqualTo(404);
    Response withdrawn = http.get(pseudonyms + anonymizedPseudonym);
    assertThat(withdrawn.status()).isEqualTo(404);
    assertThat(withdrawn.json().getString("message")).contains("withdrawn");

    sealed.assertOriginalsHidden();
  }
}
