package org.vfps.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.vfps.ClassResources;
import org.vfps.GrpcTestClient;
import org.vfps.HttpTestClient;
import org.vfps.TestService;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.PseudonymGenerationMethod;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.server.BuildInfo;
import org.vfps.server.VfpsServer;

/** The Namespaces and Namespace pages in Chromium, against the real service and PostgreSQL. */
@Browser.Required
class NamespacePagesIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static VfpsServer server;
  private static HttpTestClient http;
  private static GrpcTestClient grpc;
  private static Browser browser;

  @BeforeAll
  static void start() {
    server = resources.own(TestService.start());
    http = resources.own(new HttpTestClient(server.httpPort()));
    grpc = resources.own(new GrpcTestClient(server.grpcPort()));
    browser = resources.own(new Browser(server.httpPort()));
  }

  @BeforeEach
  void systemTheme() {
    browser.colorScheme("light");
  }

  private static String uniqueName(String prefix) {
    return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  private static String createNamespace(String name) {
    grpc.ok(
        NamespaceServiceGrpcClient.Create,
        NamespaceServiceCreateRequest.newBuilder()
            .setName(name)
            .setPseudonymGenerationMethod(
                PseudonymGenerationMethod
                    .PSEUDONYM_GENERATION_METHOD_SECURE_RANDOM_BASE64URL_ENCODED)
            .setPseudonymLength(16)
            .setPseudonymPrefix("p-")
            .build());
    return name;
  }

  private static String pseudonymOf(String namespace, String original) {
    return grpc.ok(
            PseudonymServiceGrpcClient.Create,
            PseudonymServiceCreateRequest.newBuilder()
                .setNamespace(namespace)
                .setOriginalValue(original)
                .build())
        .getPseudonym()
        .getPseudonymValue();
  }

  /** The namespaces named so, as the REST API lists them. */
  private static List<JsonObject> namespacesNamed(String name) {
    JsonArray all = http.get("/v1/namespaces").json().getJsonArray("namespaces");
    List<JsonObject> found = new ArrayList<>();
    for (int i = 0; i < all.size(); i++) {
      if (all.getJsonObject(i).getString("name").equals(name)) {
        found.add(all.getJsonObject(i));
      }
    }
    return found;
  }

  @Test
  void theFooterNamesTheVersionAndRevision() {
    browser.openNamespaces();

    assertThat(browser.textContaining("footer.bottom > span", "revision"))
        .isEqualTo("vfps " + BuildInfo.current().describe());
  }

  @Test
  void createsANamespaceThatAppearsInTheTable() {
    String name = uniqueName("created");
    browser.openNamespaces();

    browser.find("#name").sendKeys(name);
    browser.find("#description").sendKeys("made in the browser");
    browser.find("#prefix").sendKeys("s-");
    browser.click("#create-namespace button[type=submit]");

    assertThat(browser.textContaining("#create-message", "created")).contains("'" + name + "'");
    browser.visible("tr[data-namespace='" + name + "']");
    List<JsonObject> stored = namespacesNamed(name);
    assertThat(stored).hasSize(1);
    assertThat(stored.get(0).getString("description")).isEqualTo("made in the browser");
    assertThat(stored.get(0).getString("pseudonymPrefix")).isEqualTo("s-");
    assertThat(stored.get(0).getLong("pseudonymLength")).isEqualTo(16);
    assertThat(stored.get(0).getString("pseudonymGenerationMethod"))
        .isEqualTo("PSEUDONYM_GENERATION_METHOD_SECURE_RANDOM_BASE64URL_ENCODED");
  }

  @Test
  void aDoubleClickCreatesExactlyOneNamespace() {
    String name = uniqueName("double");
    browser.openNamespaces();
    browser.find("#name").sendKeys(name);
    countCreateRequests();

    new Actions(browser.driver())
        .doubleClick(browser.find("#create-namespace button[type=submit]"))
        .perform();

    browser.visible("tr[data-namespace='" + name + "']");
    assertThat(createRequests()).isEqualTo(1);
    assertThat(namespacesNamed(name)).hasSize(1);
    assertThat(browser.findAll("tr[data-namespace='" + name + "']")).hasSize(1);
  }

  @Test
  void submitsFasterThanAnyReplyCreateExactlyOneNamespace() {
    String name = uniqueName("rapid");
    browser.openNamespaces();
    browser.find("#name").sendKeys(name);
    countCreateRequests();

    // a click and five submits in one task: no reply can come in between
    browser.script(
        "const form = document.getElementById('create-namespace');"
            + "form.querySelector('button[type=submit]').click();"
            + "for (let i = 0; i < 5; i++) form.requestSubmit();");

    assertThat(browser.textContaining("#create-message", "created")).contains(name);
    browser.visible("tr[data-namespace='" + name + "']");
    assertThat(createRequests()).isEqualTo(1);
    assertThat(namespacesNamed(name)).hasSize(1);
  }

  /** Counts the page's POSTs to /v1/namespaces from now on (the service would refuse a second). */
  private static void countCreateRequests() {
    browser.script(
        "window.createRequests = 0; const fetchOriginal = window.fetch;"
            + "window.fetch = (url, init) => {"
            + "  if (init?.method === 'POST' && String(url) === '/v1/namespaces') {"
            + "    window.createRequests++;"
            + "  }"
            + "  return fetchOriginal(url, init);"
            + "};");
  }

  private static long createRequests() {
    return (Long) browser.script("return window.createRequests");
  }

  @Test
  void aDuplicateNameIsRefusedInline() {
    String name = createNamespace(uniqueName("duplicate"));
    browser.openNamespaces();

    browser.find("#name").sendKeys(name);
    browser.click("#create-namespace button[type=submit]");

    String message = browser.textContaining("#create-message", "already exists");
    assertThat(message).contains("'" + name + "'");
    assertThat(browser.find("#create-message").getAttribute("role")).isEqualTo("alert");
    assertThat(namespacesNamed(name)).hasSize(1);
  }

  @Test
  void deletingNeedsTheExactNameTyped() {
    String name = createNamespace(uniqueName("doomed"));
    pseudonymOf(name, "someone");
    browser.openNamespaces();

    browser.visible("[id='delete-namespace-" + name + "']").click();
    WebElement confirmation = browser.visible("#confirmDeleteNamespaceName");
    WebElement confirm = browser.find("#confirmDeleteNamespaceButton");
    assertThat(browser.driver().switchTo().activeElement()).isEqualTo(confirmation);
    assertThat(confirm.isEnabled()).isFalse();

    confirmation.sendKeys(name.substring(0, name.length() - 1));
    assertThat(confirm.isEnabled()).isFalse();
    confirmation.sendKeys(Keys.ENTER);
    assertThat(namespacesNamed(name)).hasSize(1);

    confirmation.sendKeys(name.substring(name.length() - 1));
    browser.until(ExpectedConditions.elementToBeClickable(confirm)).click();

    browser.textContaining("#namespaces-message", "deleted");
    browser.until(
        ExpectedConditions.invisibilityOfElementLocated(
            By.cssSelector("tr[data-namespace='" + name + "']")));
    assertThat(namespacesNamed(name)).isEmpty();
  }

  @Test
  void escapeClosesTheConfirmationAndDeletesNothing() {
    String name = createNamespace(uniqueName("kept"));
    browser.openNamespaces();

    WebElement delete = browser.visible("[id='delete-namespace-" + name + "']");
    delete.click();
    browser.visible("#confirmDeleteNamespaceName").sendKeys(name, Keys.ESCAPE);

    assertThat(browser.findAll("#confirmDeleteNamespaceName")).isEmpty();
    assertThat(browser.driver().switchTo().activeElement()).isEqualTo(delete);
    assertThat(namespacesNamed(name)).hasSize(1);
  }

  @Test
  void theTableCountsEachNamespacesPseudonyms() {
    String name = createNamespace(uniqueName("counted"));
    for (int i = 0; i < 3; i++) {
      pseudonymOf(name, "value-" + i);
    }
    browser.openNamespaces();
    // counted when on screen
    browser.script(
        "arguments[0].scrollIntoView()", browser.visible("tr[data-namespace='" + name + "']"));

    assertThat(browser.textContaining("td.count[data-namespace='" + name + "']", "3"))
        .isEqualTo("3");
  }

  @Test
  void theCreateFormWorksWithTheKeyboardAlone() {
    String name = uniqueName("keyboard");
    browser.openNamespaces();

    // from the top of the page: the skip link, the header, then the form in reading order
    List<String> order = new ArrayList<>();
    List<String> before = new ArrayList<>();
    for (int i = 0; i < 30 && !"name".equals(activeId()); i++) {
      press(Keys.TAB);
      before.add(activeElement().getText());
    }
    assertThat(activeId()).isEqualTo("name");
    assertThat(before.get(0)).isEqualTo("Skip to content");
    assertThat(before).contains("Namespaces", "Lists and CSV files", "API docs");
    press(name);
    for (int i = 0; i < 10; i++) {
      order.add(activeId());
      press(Keys.TAB);
    }
    // the parent check is skipped while no parent is chosen: it is disabled
    assertThat(order)
        .containsExactly(
            "name",
            "description",
            "method",
            "length",
            "prefix",
            "suffix",
            "allows-multiple",
            "parent",
            "regex",
            "regex-samples");
    assertThat(activeElement().getText()).isEqualTo("Create");

    // back to the method, choose UUID v4 with the arrow keys: the length locks to 36
    Actions back = new Actions(browser.driver()).keyDown(Keys.SHIFT);
    for (int i = 0; i < 8; i++) {
      back.sendKeys(Keys.TAB);
    }
    back.keyUp(Keys.SHIFT).perform();
    assertThat(activeId()).isEqualTo("method");
    press(Keys.ARROW_DOWN, Keys.ARROW_DOWN);
    assertThat(browser.find("#method").getAttribute("value"))
        .isEqualTo("PSEUDONYM_GENERATION_METHOD_UUID4");
    assertThat(browser.find("#length").getAttribute("value")).isEqualTo("36");
    assertThat(browser.find("#length").getAttribute("readonly")).isNotNull();
    press(Keys.TAB);
    assertThat(activeId()).isEqualTo("length");
    press(Keys.TAB, Keys.ENTER);

    browser.textContaining("#create-message", "created");
    List<JsonObject> stored = namespacesNamed(name);
    assertThat(stored).hasSize(1);
    assertThat(stored.get(0).getString("pseudonymGenerationMethod"))
        .isEqualTo("PSEUDONYM_GENERATION_METHOD_UUID4");
    assertThat(stored.get(0).getLong("pseudonymLength")).isEqualTo(36);
  }

  private static void press(CharSequence... keys) {
    new Actions(browser.driver()).sendKeys(keys).perform();
  }

  private static WebElement activeElement() {
    return browser.driver().switchTo().activeElement();
  }

  private static String activeId() {
    return activeElement().getAttribute("id");
  }

  @Test
  void pseudonymizesAValueAsGrpcDoes() {
    String name = createNamespace(uniqueName("same"));
    browser.open(Browser.namespacePath(name));

    browser.visible("#originalValue").sendKeys("patient 42", Keys.ENTER);

    String shown = browser.visible("#pseudonymizeResult code").getText();
    assertThat(shown).startsWith("p-").isEqualTo(pseudonymOf(name, "patient 42"));
    browser.textContaining("#pseudonyms-summary", "1 pseudonym");
  }

  @Test
  void looksUpAndRevealsOriginalValues() {
    String name = createNamespace(uniqueName("reveal"));
    String pseudonym = pseudonymOf(name, "Jane Doe");
    browser.open(Browser.namespacePath(name));

    browser.visible("#lookupValue").sendKeys(pseudonym, Keys.ENTER);
    assertThat(browser.visible("#lookupResult code").getText()).isEqualTo("Jane Doe");

    WebElement row = browser.visible("#pseudonyms tbody tr");
    assertThat(row.getText()).contains(pseudonym).doesNotContain("Jane Doe");
    row.findElement(By.cssSelector("button.reveal")).click();
    assertThat(browser.visible("#pseudonyms td.original code").getText()).isEqualTo("Jane Doe");
    assertThat(activeElement().getText()).isEqualTo("Hide");
    activeElement().click();
    assertThat(browser.find("#pseudonyms tbody tr").getText()).doesNotContain("Jane Doe");
  }

  @Test
  void showsErrorsInline() {
    String name = createNamespace(uniqueName("errors"));
    browser.open(Browser.namespacePath(name));

    browser.visible("#originalValue").sendKeys("   ", Keys.ENTER);
    assertThat(browser.textContaining("#pseudonymize-message", "Enter a value")).isNotEmpty();
    browser.find("#lookupValue").sendKeys(Keys.ENTER);
    browser.textContaining("#lookup-message", "Enter a pseudonym");
    browser.find("#lookupValue").sendKeys("p-no-such-pseudonym", Keys.ENTER);
    browser.textContaining("#lookup-message", "does not exist in this namespace");
    assertThat(browser.find("#lookup-message").getAttribute("role")).isEqualTo("alert");

    browser.open(Browser.namespacePath(name + "-missing"));
    assertThat(browser.textContaining("main .message.error", "no namespace named"))
        .contains("'" + name + "-missing'");
  }

  @Test
  void pagesThroughSixtyPseudonymsTwentyFiveAtATime() {
    String name = createNamespace(uniqueName("paged"));
    Set<String> created = new HashSet<>();
    for (int i = 0; i < 60; i++) {
      created.add(pseudonymOf(name, "patient-" + i));
    }
    browser.open(Browser.namespacePath(name));
    browser.textContaining("#pseudonyms-summary", "60 pseudonyms");

    List<String> first = pageRows();
    assertThat(first).hasSize(25);
    assertThat(browser.find("#previous-page").isEnabled()).isFalse();
    browser.click("#next-page");
    browser.textContaining("#page-number", "Page 2");
    List<String> second = pageRows();
    assertThat(second).hasSize(25);
    browser.click("#next-page");
    browser.textContaining("#page-number", "Page 3");
    List<String> third = pageRows();
    assertThat(third).hasSize(10);
    assertThat(browser.find("#next-page").isEnabled()).isFalse();

    Set<String> seen = new HashSet<>(first);
    seen.addAll(second);
    seen.addAll(third);
    assertThat(seen).isEqualTo(created);

    browser.click("#previous-page");
    browser.textContaining("#page-number", "Page 2");
    assertThat(pageRows()).isEqualTo(second);
    browser.click("#previous-page");
    browser.textContaining("#page-number", "Page 1");
    assertThat(pageRows()).isEqualTo(first);
  }

  private static List<String> pageRows() {
    return browser.findAll("#pseudonyms tbody tr td:first-child").stream()
        .map(WebElement::getText)
        .toList();
  }

  @Test
  void theBrowseLinkOfAUrlNamedNamespaceSurvivesAReload() {
    String name = createNamespace("https://example.org/fhir/" + UUID.randomUUID());
    browser.openNamespaces();

    browser.visible("tr[data-namespace='" + name + "'] a.button").click();
    browser.until(d -> browser.currentPath().endsWith("/pseudonyms"));
    assertThat(browser.currentPath()).isEqualTo(Browser.namespacePath(name));
    assertThat(browser.visible("h1").getText()).isEqualTo(name);

    browser.driver().navigate().refresh();
    assertThat(browser.visible("h1").getText()).isEqualTo(name);
    browser.visible("#originalValue");
  }

  @Test
  void aPathThatIsNoPageShowsThePageNotFoundViewWithAWayBack() {
    for (String path :
        List.of("/ui/nope", "/ui/namespaces/study/pseudonyms/extra", "/ui/namespaces/study")) {
      browser.open(path);
      assertThat(browser.textContaining("#not-found h1", "Page not found")).as(path).isNotEmpty();
      assertThat(browser.driver().getTitle()).as(path).isEqualTo("Page not found · vfps");
    }
    browser.click("#not-found-back");
    // the table, or its empty state when no test has made a namespace yet
    browser.until(d -> !browser.findAll("#namespaces, .table-area .empty").isEmpty());
    assertThat(browser.currentPath()).isEqualTo("/ui/namespaces");
  }

  @Test
  void aNamespacePathThatIsNoValidEncodingShowsThePageNotFoundView() {
    // %E0%A4 is a UTF-8 sequence cut short: no name can be read from it
    browser.open("/ui/namespaces/%E0%A4/pseudonyms");
    assertThat(browser.textContaining("#not-found h1", "Page not found")).isNotEmpty();
  }

  @Test
  void followsTheSystemColourSchemeAndKeepsAChosenOne() {
    browser.open("/ui/namespaces");
    browser.visible("#create-namespace");
    browser.script("localStorage.removeItem('vfps-dark-mode')");
    browser.driver().navigate().refresh();
    browser.visible("#create-namespace");
    String light = background();

    browser.colorScheme("dark");
    String dark = background();
    assertThat(dark).isNotEqualTo(light);
    // the style follows the media query at once, the page's script its change event, a task later
    browser.until(d -> browser.find("#theme-toggle").getAttribute("aria-pressed").equals("true"));
    assertThat(darkClass()).isTrue();

    browser.click("#theme-toggle");
    assertThat(background()).isEqualTo(light);
    assertThat(darkClass()).isFalse();
    browser.driver().navigate().refresh();
    browser.visible("#create-namespace");
    assertThat(background()).isEqualTo(light);
    assertThat(darkClass()).isFalse();
    assertThat(browser.find("#theme-toggle").getAttribute("aria-pressed")).isEqualTo("false");
    browser.script("localStorage.removeItem('vfps-dark-mode')");
  }

  /** The class the .NET vfps's tests look for on html. */
  private static boolean darkClass() {
    return (Boolean) browser.script("return document.documentElement.classList.contains('dark')");
  }

  private static String background() {
    return (String) browser.script("return getComputedStyle(document.body).backgroundColor");
  }
}
