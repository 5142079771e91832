package org.vfps.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.Keys;
import org.vfps.AlphabetNamespaces;
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
    List<String> pseudonyms =
        AlphabetNamespaces.createWithPseudonyms(
            http, namespace, 9, "CHECK_DIGIT_DAMM", 5, "-", "Jane Doe", "John Roe");
    anna = pseudonyms.get(0);
    ben = pseudonyms.get(1);
    assertThat(anna).matches("\\d{5}-\\d{5}");
  }

  @Test
  void theLookupFindsAPseudonymWithoutDelimitersAndShowsWhyAMistypedOneIsRefused() {
    browser.open("/ui/namespaces/" + namespace + "/pseudonyms");

    browser.visible("#lookupValue").sendKeys(anna.replace("-", ""), Keys.ENTER);
    assertThat(browser.visible("#lookupResult code").getText()).isEqualTo("Jane Doe");

    browser.find("#lookupValue").clear();
    browser.find("#lookupValue").sendKeys(AlphabetNamespaces.mistyped(anna), Keys.ENTER);
    assertThat(browser.textContaining("#lookup-message", "check digit"))
        .isEqualTo(AlphabetNamespaces.MISTYPED);
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
                anna
                    + "\n"
                    + AlphabetNamespaces.mistyped(anna)
                    + "\n"
                    + ben.replace("-", "")
                    + "\n00000-00000\n",
                namespace);

    assertThat(result.get("error")).isNull();
    assertThat(result.get("text"))
        .isEqualTo("Jane Doe\n" + AlphabetNamespaces.mistyped(anna) + "\nJohn Roe\n00000-00000\n");
  }
}
