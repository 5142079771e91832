package org.vfps.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.vfps.ClassResources;
import org.vfps.HttpTestClient;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.namespace.GenerationMethod;
import org.vfps.pseudonym.PseudonymGenerators;
import org.vfps.server.VfpsServer;
import org.vfps.voprf.server.TestVoprfServer;

/**
 * The namespace options of 1.22 in Chromium, against the real service and PostgreSQL: the create
 * form's validation regex with its live tester, several pseudonyms per value and the parent; a
 * namespace's page with its parent and children, the count and Resolve; the refused delete of a
 * namespace that has children; and the methods the deployment's settings decide, VOPRF and SHA-256.
 */
@Browser.Required
class NamespaceOptionsPagesIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static HttpTestClient http;
  private static Browser browser;

  @BeforeAll
  static void start() {
    VfpsServer server = resources.own(TestService.start());
    http = resources.own(new HttpTestClient(server.httpPort()));
    browser = resources.own(new Browser(server.httpPort()));
  }

  @BeforeEach
  void lightScheme() {
    browser.colorScheme("light");
  }

  private static String uniqueName(String prefix) {
    return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  /** Creates a random Base64URL namespace with the extra settings given, through REST. */
  private static String createNamespace(String name, JsonObject settings) {
    JsonObject body =
        new JsonObject()
            .put("name", name)
            .put(
                "pseudonymGenerationMethod",
                "PSEUDONYM_GENERATION_METHOD_SECURE_RANDOM_BASE64URL_ENCODED")
            .put("pseudonymLength", 16)
            .mergeIn(settings);
    HttpTestClient.Response created = http.postJson("/v1/namespaces", body.encode());
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    return name;
  }

  private static String createNamespace(String name) {
    return createNamespace(name, new JsonObject());
  }

  private static JsonObject namespace(String name) {
    HttpTestClient.Response got = http.get("/v1/namespaces/" + encode(name));
    assertThat(got.status()).as(got.body()).isEqualTo(200);
    return got.json().getJsonObject("namespace");
  }

  /** The value's pseudonyms, grown to count, through REST. */
  private static List<String> pseudonymsOf(String namespace, String original, int count) {
    HttpTestClient.Response created =
        http.postJson(
            "/v1/namespaces/" + encode(namespace) + "/pseudonyms",
            new JsonObject().put("originalValue", original).put("count", count).encode());
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    JsonArray all = created.json().getJsonArray("pseudonyms");
    List<String> values = new ArrayList<>();
    for (int i = 0; i < all.size(); i++) {
      values.add(all.getJsonObject(i).getString("pseudonymValue"));
    }
    return values;
  }

  private static long storedPseudonyms(String namespace) {
    return http.get("/v1/namespaces/" + encode(namespace) + "/pseudonyms?includeTotalSize=true")
        .json()
        .getLong("totalSize");
  }

  private static String encode(String name) {
    return URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20");
  }

  @Test
  void createsANamespaceWithARegexSeveralPseudonymsAndAParent() {
    String parent = createNamespace(uniqueName("parent"));
    String name = uniqueName("child");
    browser.openNamespaces();
    browser.until(d -> !browser.findAll("#parent option[value='" + parent + "']").isEmpty());

    browser.find("#name").sendKeys(name);
    browser.find("#allows-multiple").click();
    browser.select("#parent").selectByValue(parent);
    browser.select("#parent-mode").selectByValue("PARENT_VALIDATION_MODE_ENSURE_EXISTS");
    browser.find("#regex").sendKeys("^p-");
    browser.click("#create-namespace button[type=submit]");

    assertThat(browser.textContaining("#create-message", "created")).contains("'" + name + "'");
    JsonObject stored = namespace(name);
    assertThat(stored.getString("originalValueValidationRegex")).isEqualTo("^p-");
    assertThat(stored.getBoolean("allowsMultiplePseudonyms")).isTrue();
    assertThat(stored.getString("parentName")).isEqualTo(parent);
    assertThat(stored.getString("parentValidationMode"))
        .isEqualTo("PARENT_VALIDATION_MODE_ENSURE_EXISTS");
    // no description typed: none stored
    assertThat(stored.containsKey("description")).isFalse();
    // the form is ready for the next one, and offers the new namespace as a parent
    assertThat(browser.find("#allows-multiple").isSelected()).isFalse();
    assertThat(browser.select("#parent").getFirstSelectedOption().getAttribute("value")).isEmpty();
    assertThat(browser.find("#parent-mode").isEnabled()).isFalse();
    browser.until(d -> !browser.findAll("#parent option[value='" + name + "']").isEmpty());
  }

  @Test
  void theParentCheckIsOnlyOfferedWithAParent() {
    String parent = createNamespace(uniqueName("parent"));
    browser.openNamespaces();
    browser.until(d -> !browser.findAll("#parent option[value='" + parent + "']").isEmpty());
    assertThat(browser.find("#parent-mode").isEnabled()).isFalse();

    browser.select("#parent").selectByValue(parent);
    assertThat(browser.find("#parent-mode").isEnabled()).isTrue();
    browser.select("#parent-mode").selectByValue("PARENT_VALIDATION_MODE_ENSURE_EXISTS");

    browser.select("#parent").selectByValue("");
    assertThat(browser.find("#parent-mode").isEnabled()).isFalse();
    assertThat(browser.find("#parent-mode").getAttribute("value"))
        .isEqualTo("PARENT_VALIDATION_MODE_UNSPECIFIED");
  }

  @Test
  void offersBase32AndNoUsableVoprfAndOneSha256PseudonymPerValue() {
    browser.openNamespaces();

    assertThat(
            browser
                .find(
                    "#method option[value='PSEUDONYM_GENERATION_METHOD_FULL_RANDOM_BASE32_ENCODED']")
                .isEnabled())
        .isTrue();
    WebElement voprf = browser.find("#method option[value='PSEUDONYM_GENERATION_METHOD_VOPRF']");
    assertThat(voprf.isEnabled()).isFalse();
    assertThat(voprf.getText()).contains("VOPRF server", "Voprf__Address");

    browser.select("#method").selectByValue("PSEUDONYM_GENERATION_METHOD_SHA256_HEX_ENCODED");
    assertThat(browser.find("#allows-multiple").isEnabled()).isFalse();
    assertThat(browser.find("#allows-multiple-hint").getText()).contains("exactly one");
    browser
        .select("#method")
        .selectByValue("PSEUDONYM_GENERATION_METHOD_FULL_RANDOM_BASE32_ENCODED");
    assertThat(browser.find("#allows-multiple").isEnabled()).isTrue();

    String name = uniqueName("base32");
    browser.find("#name").sendKeys(name);
    browser.click("#create-namespace button[type=submit]");
    browser.textContaining("#create-message", "created");
    assertThat(namespace(name).getString("pseudonymGenerationMethod"))
        .isEqualTo("PSEUDONYM_GENERATION_METHOD_FULL_RANDOM_BASE32_ENCODED");
    assertThat(browser.textContaining("tr[data-namespace='" + name + "']", "Base32"))
        .contains("Random, Base32");
  }

  @Test
  void theLengthHintSaysWhatTheServiceMakesForEveryMethodAndLength() {
    browser.openNamespaces();
    // the page's rule against the service's, for every method and many lengths
    @SuppressWarnings("unchecked")
    Map<String, List<Number>> pageRule =
        (Map<String, List<Number>>)
            browser.asyncScript(
                """
                const done = arguments[0];
                import('/ui/assets/methods.js').then(({METHODS, coreCharacters}) => {
                  const rule = {};
                  for (const method of METHODS) {
                    rule[method.name] = [];
                    for (let length = 1; length <= 100; length++) {
                      rule[method.name].push(coreCharacters(method, length));
                    }
                  }
                  done(rule);
                });
                """);
    for (GenerationMethod method : GenerationMethod.values()) {
      if (method == GenerationMethod.UNSPECIFIED || method == GenerationMethod.VOPRF) {
        continue; // not offered; VOPRF's length is its settings'
      }
      List<Number> page = pageRule.get("PSEUDONYM_GENERATION_METHOD_" + method.name());
      for (int length = 1; length <= 100; length++) {
        assertThat(page.get(length - 1).intValue())
            .as("%s, length %d", method, length)
            .isEqualTo(PseudonymGenerators.coreLength(method, length));
      }
    }

    // the hint the form shows, against a pseudonym the service makes with the same settings
    Pattern makes = Pattern.compile("makes (\\d+)");
    for (GenerationMethod method : GenerationMethod.values()) {
      if (method == GenerationMethod.UNSPECIFIED
          || method == GenerationMethod.VOPRF
          || method == GenerationMethod.X_SECURE_RANDOM_ALPHABET) {
        continue; // the alphabet method's hint counts its format: AlphabetNamespacePagesIT
      }
      String name = "PSEUDONYM_GENERATION_METHOD_" + method.name();
      for (int length : List.of(1, 16, 17, 31)) {
        browser.select("#method").selectByValue(name);
        if (method.fixedLength().isEmpty()) {
          browser.type("#length", Integer.toString(length));
        }
        int asked = Integer.parseInt(browser.find("#length").getDomProperty("value"));
        Matcher hint = makes.matcher(browser.find("#length-hint").getText());
        assertThat(hint.find()).as(browser.find("#length-hint").getText()).isTrue();
        String namespace =
            createNamespace(
                uniqueName("hint"),
                new JsonObject()
                    .put("pseudonymGenerationMethod", name)
                    .put("pseudonymLength", asked));
        assertThat(pseudonymsOf(namespace, "value", 1).getFirst())
            .as("%s, length %d", method, asked)
            .hasSize(Integer.parseInt(hint.group(1)));
      }
    }
    browser
        .select("#method")
        .selectByValue("PSEUDONYM_GENERATION_METHOD_SECURE_RANDOM_BASE64URL_ENCODED");
    browser.type("#length", "16");
    assertThat(browser.find("#length-hint").getText())
        .contains("a length of 16 makes 32 characters");
  }

  @Test
  void choosingSha256ShowsThatItsPseudonymsCanBeReversedByGuessing() {
    browser.openNamespaces();
    assertThat(browser.find("#sha256-warning").isDisplayed()).isFalse();

    browser.select("#method").selectByValue("PSEUDONYM_GENERATION_METHOD_SHA256_HEX_ENCODED");
    assertThat(browser.visible("#sha256-warning").getText())
        .contains("can be reversed by guessing", "hash likely values");
    assertThat(browser.find("#method").getAttribute("aria-describedby")).contains("sha256-warning");

    browser
        .select("#method")
        .selectByValue("PSEUDONYM_GENERATION_METHOD_FULL_RANDOM_BASE62_ENCODED");
    assertThat(browser.find("#sha256-warning").isDisplayed()).isFalse();
  }

  @Test
  void timesAreShownInUtcWithTheZoneWritten() {
    browser.openNamespaces();
    Object formatted =
        browser.asyncScript(
            """
            const done = arguments[0];
            import('/ui/assets/dom.js').then(({formatTime}) =>
                done(formatTime('2026-12-06T19:04:05.123+01:00')));
            """);
    assertThat(formatted).isEqualTo("2026-12-06 18:04:05 UTC");

    String name = createNamespace(uniqueName("utc"));
    browser.open(Browser.namespacePath(name));
    assertThat(browser.textContaining("main", " UTC"))
        .containsPattern("\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2} UTC");
  }

  @Test
  void offersVoprfWithItsFixedLengthAndNoSha256WhereTheSettingsSaySo() {
    TestVoprfServer voprfServer = resources.own(TestVoprfServer.start());
    VfpsServer keyed =
        resources.own(
            TestService.start(
                Map.ofEntries(
                    Map.entry("ConnectionStrings__PostgreSQL", TestPostgres.uri()),
                    Map.entry("Voprf__Address", "http://127.0.0.1:" + voprfServer.port()),
                    Map.entry(
                        "Voprf__PublicKey",
                        Base64.getEncoder().encodeToString(voprfServer.publicKey())),
                    Map.entry("Pseudonymization__Sha256__IsEnabled", "false"))));
    HttpTestClient keyedHttp = resources.own(new HttpTestClient(keyed.httpPort()));
    String origin = "http://127.0.0.1:" + keyed.httpPort();
    browser.go(origin + "/ui/namespaces");
    browser.visible("#create-namespace");

    WebElement sha256 =
        browser.find("#method option[value='PSEUDONYM_GENERATION_METHOD_SHA256_HEX_ENCODED']");
    assertThat(sha256.isEnabled()).isFalse();
    assertThat(sha256.getText()).contains("Pseudonymization__Sha256__IsEnabled");
    WebElement voprf = browser.find("#method option[value='PSEUDONYM_GENERATION_METHOD_VOPRF']");
    assertThat(voprf.isEnabled()).isTrue();
    assertThat(voprf.getText()).isEqualTo("VOPRF (86 characters)");

    browser.select("#method").selectByValue("PSEUDONYM_GENERATION_METHOD_VOPRF");
    WebElement length = browser.find("#length");
    assertThat(length.getAttribute("value")).isEqualTo("86");
    assertThat(length.getAttribute("readonly")).isNotNull();
    assertThat(browser.find("#allows-multiple").isEnabled()).isFalse();
    assertThat(browser.find("#allows-multiple-hint").getText()).contains("exactly one");

    String name = uniqueName("voprf");
    browser.find("#name").sendKeys(name);
    browser.click("#create-namespace button[type=submit]");
    browser.textContaining("#create-message", "created");
    JsonObject stored =
        keyedHttp.get("/v1/namespaces/" + encode(name)).json().getJsonObject("namespace");
    assertThat(stored.getString("pseudonymGenerationMethod"))
        .isEqualTo("PSEUDONYM_GENERATION_METHOD_VOPRF");
    assertThat(stored.getInteger("pseudonymLength")).isEqualTo(86);
    assertThat(browser.textContaining("tr[data-namespace='" + name + "']", "VOPRF"))
        .contains("VOPRF");

    // the server derives the pseudonym; its key id goes in front
    browser.go(origin + Browser.namespacePath(name));
    browser.visible("#originalValue").sendKeys("patient 9", Keys.ENTER);
    String pseudonym = browser.visible("#pseudonymizeResult code").getText();
    assertThat(pseudonym).startsWith(voprfServer.keyId() + ".");
    assertThat(pseudonym).hasSize(voprfServer.keyId().length() + 1 + 86);
  }

  @Test
  void theTesterMarksEachSampleAsItIsTyped() {
    browser.openNamespaces();
    assertThat(browser.find("#regex-samples-hint").getText()).contains("RE2", "counts");

    browser.find("#regex").sendKeys("^MRN-[0-9]{4}$");
    browser.find("#regex-samples").sendKeys("MRN-1234\nmrn-1234\n\nMRN-12345");

    assertThat(browser.textContaining("#regex-summary", "of 3"))
        .isEqualTo("1 of 3 sample values would pass.");
    assertThat(results())
        .containsExactly("✓ passes MRN-1234", "✗ fails mrn-1234", "✗ fails MRN-12345");

    // matched anywhere, as RE2 matches: without anchors a part of the value suffices
    browser.type("#regex", "[0-9]{4}");
    assertThat(browser.textContaining("#regex-summary", "3 of 3")).contains("would pass");

    browser.type("#regex", "");
    browser.textContaining("#regex-summary", "No pattern");
    assertThat(results()).allMatch(result -> result.startsWith("✓ passes"));
  }

  @Test
  void theTesterSaysWhatTheBrowserCannotJudge() {
    browser.openNamespaces();
    browser.find("#regex-samples").sendKeys("abc");

    // RE2's inline flags, which the browser's RegExp does not read
    browser.find("#regex").sendKeys("(?i)ABC");
    assertThat(browser.textContaining("#regex-summary", "cannot read this pattern"))
        .contains("the service decides");
    assertThat(browser.findAll("#regex-results li")).isEmpty();

    // a lookahead: the browser has it, RE2 does not
    browser.type("#regex", "^(?=a)");
    browser.textContaining("#regex-summary", "1 of 1");
    assertThat(browser.visible("#regex-dialect").getText()).contains("RE2 does not have");

    // exponential backtracking in the browser: the tester gives up and the page goes on
    browser.type("#regex-samples", "a".repeat(40) + "!");
    browser.type("#regex", "^(a+)+$");
    browser.textContaining("#regex-summary", "gave up");
    browser.type("#regex", "^a+!$");
    assertThat(browser.textContaining("#regex-summary", "1 of 1")).contains("would pass");
  }

  @Test
  void aPatternRe2RefusesIsShownAtTheField() {
    String name = uniqueName("refused");
    browser.openNamespaces();

    browser.find("#name").sendKeys(name);
    browser.find("#regex").sendKeys("(a)\\1");
    browser.click("#create-namespace button[type=submit]");

    assertThat(browser.visible("#regex-error").getText())
        .contains("not a valid regular expression");
    WebElement regex = browser.find("#regex");
    assertThat(regex.getAttribute("aria-invalid")).isEqualTo("true");
    assertThat(regex.getAttribute("aria-describedby")).contains("regex-error");
    assertThat(browser.driver().switchTo().activeElement()).isEqualTo(regex);
    assertThat(http.get("/v1/namespaces/" + name).status()).isEqualTo(404);

    regex.sendKeys(Keys.BACK_SPACE);
    assertThat(browser.find("#regex-error").isDisplayed()).isFalse();
    assertThat(regex.getAttribute("aria-invalid")).isNull();
  }

  @Test
  void theCountFormShowsEveryPseudonymWithItsSequenceNumber() {
    String name = createNamespace(uniqueName("several"), severalPseudonyms());
    browser.open(Browser.namespacePath(name));
    assertThat(browser.textContaining("#fact-multiple", "Several")).isEqualTo("Several");

    browser.visible("#originalValue").sendKeys("patient 7");
    browser.type("#count", "3");
    browser.click("#pseudonymize button[type=submit]");

    browser.textContaining("#pseudonymizeResult", "3 pseudonyms");
    List<String> shown = resultRows("#pseudonymizeList");
    List<String> stored = pseudonymsOf(name, "patient 7", 3);
    assertThat(shown)
        .containsExactly("0 " + stored.get(0), "1 " + stored.get(1), "2 " + stored.get(2));
    // the list shows the sequence numbers too
    browser.textContaining("#pseudonyms-summary", "3 pseudonyms");
    assertThat(browser.find("#pseudonyms thead").getText()).contains("Sequence number");
    assertThat(browser.findAll("#pseudonyms td.sequence"))
        .extracting(WebElement::getText)
        .containsExactlyInAnyOrder("0", "1", "2");

    browser.type("#count", "0");
    browser.click("#pseudonymize button[type=submit]");
    browser.textContaining("#pseudonymize-message", "from 1 to 10000");
  }

  @Test
  void aNamespaceOfOnePseudonymPerValueOffersNoCount() {
    String name = createNamespace(uniqueName("single"));
    browser.open(Browser.namespacePath(name));
    browser.visible("#originalValue").sendKeys("patient 8", Keys.ENTER);

    browser.visible("#pseudonymizeResult code");
    assertThat(browser.findAll("#count")).isEmpty();
    assertThat(browser.find("#fact-multiple").getText()).isEqualTo("One");
    browser.textContaining("#pseudonyms-summary", "1 pseudonym");
    assertThat(browser.find("#pseudonyms thead").getText()).doesNotContain("Sequence number");
  }

  @Test
  void resolveFindsAValuesPseudonymsAndCreatesNone() {
    String single = createNamespace(uniqueName("resolve"));
    String pseudonym = pseudonymsOf(single, "Jane Doe", 1).get(0);
    browser.open(Browser.namespacePath(single));

    browser.visible("#lookup-by-original").click();
    assertThat(browser.find("label[for=lookupValue]").getText()).isEqualTo("Original value");
    browser.find("#lookupValue").sendKeys("Jane Doe", Keys.ENTER);
    assertThat(browser.visible("#lookupResult code").getText()).isEqualTo(pseudonym);

    browser.type("#lookupValue", "John Roe");
    browser.find("#lookupValue").sendKeys(Keys.ENTER);
    browser.textContaining("#lookup-message", "has no pseudonym in this namespace");
    assertThat(storedPseudonyms(single)).isEqualTo(1);

    // back to the reverse lookup
    browser.find("#lookup-by-pseudonym").click();
    browser.type("#lookupValue", pseudonym);
    browser.find("#lookupValue").sendKeys(Keys.ENTER);
    assertThat(browser.visible("#lookupResult code").getText()).isEqualTo("Jane Doe");

    String several = createNamespace(uniqueName("resolve-several"), severalPseudonyms());
    List<String> stored = pseudonymsOf(several, "Jane Doe", 2);
    browser.open(Browser.namespacePath(several));
    browser.visible("#lookup-by-original").click();
    browser.find("#lookupValue").sendKeys("Jane Doe", Keys.ENTER);
    browser.textContaining("#lookupResult", "2 pseudonyms");
    assertThat(resultRows("#lookupList"))
        .containsExactly("0 " + stored.get(0), "1 " + stored.get(1));
  }

  @Test
  void aNamespacesPageLinksItsParentAndChildren() {
    String parent =
        createNamespace(uniqueName("parent"), new JsonObject().put("description", "top"));
    String first =
        createNamespace(
            uniqueName("a-child"), childOf(parent).put("originalValueValidationRegex", "^x"));
    String second = createNamespace(uniqueName("b-child"), childOf(parent));
    browser.open(Browser.namespacePath(parent));

    browser.textContaining("#children", first);
    assertThat(browser.findAll("#children a"))
        .extracting(WebElement::getText)
        .containsExactly(first, second);
    assertThat(browser.find("#fact-parent").getText()).isEqualTo("None");
    assertThat(browser.find("#fact-regex").getText()).isEqualTo("None");

    browser.find("#children a").click();
    browser.until(d -> browser.currentPath().equals(Browser.namespacePath(first)));
    assertThat(browser.textContaining("h1", first)).isEqualTo(first);
    assertThat(browser.find("#fact-regex code").getText()).isEqualTo("^x");
    assertThat(browser.find("#fact-parent-mode").getText()).contains("pseudonym of the parent");
    browser.textContaining("#children", "None");

    browser.find("#parent-link").click();
    browser.until(d -> browser.currentPath().equals(Browser.namespacePath(parent)));
    browser.textContaining("#children", second);
  }

  @Test
  void deletingANamespaceWithChildrenShowsTheRefusalInline() {
    String parent = createNamespace(uniqueName("parent"));
    String child = createNamespace(uniqueName("child"), childOf(parent));
    browser.openNamespaces();

    browser.visible("[id='delete-namespace-" + parent + "']").click();
    browser.visible("#confirmDeleteNamespaceName").sendKeys(parent, Keys.ENTER);

    assertThat(browser.textContaining("#confirm-delete-message", "child namespaces"))
        .contains("'" + parent + "'");
    assertThat(browser.find("#confirm-delete-message").getAttribute("role")).isEqualTo("alert");
    assertThat(browser.find("tr[data-namespace='" + parent + "']").isDisplayed()).isTrue();
    assertThat(http.get("/v1/namespaces/" + parent).status()).isEqualTo(200);

    // once the child is gone, the parent goes too, and leaves the parent choices
    assertThat(http.delete("/v1/namespaces/" + child).status()).isEqualTo(200);
    browser.click("#confirmDeleteNamespaceButton");
    browser.textContaining("#namespaces-message", "deleted");
    assertThat(browser.findAll("#parent option[value='" + parent + "']")).isEmpty();
  }

  @Test
  void theNewControlsMeetTheContrastMinimumInBothSchemes() {
    String parent = createNamespace(uniqueName("parent"));
    String several =
        createNamespace(uniqueName("several"), severalPseudonyms().put("parentName", parent));
    List<String> problems = new ArrayList<>();
    for (String scheme : List.of("light", "dark")) {
      browser.colorScheme(scheme);
      browser.openNamespaces();
      browser.find("#regex").sendKeys("^[0-9]+$");
      browser.find("#regex-samples").sendKeys("123\nabc");
      browser.textContaining("#regex-summary", "1 of 2");
      problems.addAll(browser.problems("tester-" + scheme));
      browser.type("#regex", "(?i)x");
      browser.textContaining("#regex-summary", "cannot read");
      problems.addAll(browser.problems("tester-warning-" + scheme));

      browser.open(Browser.namespacePath(several));
      browser.visible("#originalValue").sendKeys("v-" + scheme);
      browser.type("#count", "2");
      browser.click("#pseudonymize button[type=submit]");
      browser.textContaining("#pseudonymizeResult", "2 pseudonyms");
      browser.textContaining("#pseudonyms-summary", "pseudonym");
      problems.addAll(browser.problems("namespace-" + scheme));
    }
    assertThat(problems).isEmpty();
  }

  private static JsonObject severalPseudonyms() {
    return new JsonObject().put("allowsMultiplePseudonyms", true);
  }

  private static JsonObject childOf(String parent) {
    return new JsonObject()
        .put("parentName", parent)
        .put("parentValidationMode", "PARENT_VALIDATION_MODE_ENSURE_EXISTS");
  }

  /** The tester's verdicts, one per sample. */
  private static List<String> results() {
    return browser.findAll("#regex-results li").stream().map(WebElement::getText).toList();
  }

  /** The rows of a result's table: sequence number and pseudonym. */
  private static List<String> resultRows(String css) {
    return browser.findAll(css + " tbody tr").stream()
        .map(
            row ->
                row.findElement(By.cssSelector("td.sequence")).getText()
                    + " "
                    + row.findElement(By.cssSelector("td code")).getText())
        .toList();
  }
}
