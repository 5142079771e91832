package org.vfps.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.Keys;
import org.vfps.ClassResources;
import org.vfps.HttpTestClient;
import org.vfps.TestService;
import org.vfps.server.VfpsServer;

/**
 * The admin UI's reverse lookups of an alphabet namespace with a check digit and groups, in
 * Chromium against the real service: the namespace page's lookup finds a pseudonym typed without
 * its delimiters and shows the check digit's message for a mistyped one; the CSV page's reveal
 * (BatchGet from the browser) reveals both spellings and keeps a mistyped pseudonym as it is.
 */
@Browser.Required
class CheckDigitLookupIT {

  private static final String MISTYPED =
      "The pseudonym's check digit does not match: it was mistyped.";

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static Browser browser;
  private static String namespace;
  private static String anna;
  private static String ben;

  @BeforeAll
  static void start() {
    VfpsServer server = resources.own(TestService.start());
    HttpTestClient http = resources.own(new HttpTestClient(server.httpPort()));
    browser = resources.own(new Browser(server.httpPort()));
    namespace = "check-digit-ui-" + UUID.randomUUID().toString().substring(0, 8);
    HttpTestClient.Response created =
        http.postJson(
            "/v1/namespaces",
            new JsonObject()
                .put("name", namespace)
                .put(
                    "pseudonymGenerationMethod",
                    "PSEUDONYM_GENERATION_METHOD_X_SECURE_RANDOM_ALPHABET")
                .put("pseudonymLength", 9)
                .put(
                    "xFormat",
                    new JsonObject()
                        .put("alphabet", "0123456789")
                        .put("checkDigit", "CHECK_DIGIT_DAMM")
                        .put("groupSize", 5)
                        .put("groupDelimiter", "-"))
                .encode());
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    JsonArray pseudonyms =
        http.postJson(
                "/v1/namespaces/" + namespace + "/pseudonyms:batchCreate",
                new JsonObject()
                    .put("originalValues", new JsonArray().add("Jane Doe").add("John Roe"))
                    .encode())
            .json()
            .getJsonArray("pseudonyms");
    anna = pseudonyms.getJsonObject(0).getString("pseudonymValue");
    ben = pseudonyms.getJsonObject(1).getString("pseudonymValue");
    assertThat(anna).matches("\\d{5}-\\d{5}");
  }

  /** The pseudonym with its last character, the Damm check digit, changed. */
  private static String mistyped(String pseudonym) {
    char check = pseudonym.charAt(pseudonym.length() - 1);
    return pseudonym.substring(0, pseudonym.length() - 1) + (char) ('0' + (check - '0' + 1) % 10);
  }

  @Test
  void theLookupFindsAPseudonymWithoutDelimitersAndShowsWhyAMistypedOneIsRefused() {
    browser.open("/ui/namespaces/" + namespace + "/pseudonyms");

    browser.visible("#lookupValue").sendKeys(anna.replace("-", ""), Keys.ENTER);
    assertThat(browser.visible("#lookupResult code").getText()).isEqualTo("Jane Doe");

    browser.find("#lookupValue").clear();
    browser.find("#lookupValue").sendKeys(mistyped(anna), Keys.ENTER);
    assertThat(browser.textContaining("#lookup-message", "check digit")).isEqualTo(MISTYPED);
    assertThat(browser.find("#lookup-message").getAttribute("role")).isEqualTo("alert");
  }

  @Test
  void revealingInTheBrowserKeepsAMistypedPseudonymAndRevealsBothSpellings() {
    browser.open("/ui/csv");
    browser.visible("#csv-form");
    @SuppressWarnings("unchecked")
    Map<String, Object> result =
        (Map<String, Object>)
            browser.asyncScript(
                """
                const [csv, namespace, done] = arguments;
                (async () => {
                  const {processCsv, revealer} = await import('/ui/assets/batch.js');
                  const api = await import('/ui/assets/api.js');
                  const source = new Blob([csv]);
                  const outcome = await processCsv(source, {
                    delimiter: ',', hasHeader: false, placeholders: [],
                    mappings: [{column: 0, newColumn: '', namespace}],
                  }, revealer(api.batchGet, async () => true));
                  done({text: await outcome.blob.text()});
                })().catch((e) => done({error: String(e)}));
                """,
                anna + "\n" + mistyped(anna) + "\n" + ben.replace("-", "") + "\n00000-00000\n",
                namespace);

    assertThat(result.get("error")).isNull();
    assertThat(result.get("text"))
        .isEqualTo("Jane Doe\n" + mistyped(anna) + "\nJohn Roe\n00000-00000\n");
  }
}
