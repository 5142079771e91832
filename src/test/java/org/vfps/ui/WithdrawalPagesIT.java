package org.vfps.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.vfps.ClassResources;
import org.vfps.HttpTestClient;
import org.vfps.HttpTestClient.Response;
import org.vfps.TestService;
import org.vfps.server.VfpsServer;

/**
 * Consent withdrawal in Chromium, against the real service and PostgreSQL: one value on a
 * namespace's page and a column of a CSV on the CSV page, each deleted or anonymized after a
 * confirmation, proven with the REST API's reverse lookup afterwards.
 */
@Browser.Required
class WithdrawalPagesIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static final String DELETE_EFFECT =
      " is deleted. Data already released under them can no longer be linked to the person; a new"
          + " pseudonymization gives a new pseudonym. This cannot be undone.";
  private static final String ANONYMIZE_EFFECT =
      "The original value is replaced by one that reveals nothing; the pseudonyms stay, so released"
          + " data keep their links, but nobody can look the person up from them any more. A new"
          + " pseudonymization gives a new pseudonym. This cannot be undone.";

  private static VfpsServer server;
  private static HttpTestClient http;
  private static Browser browser;

  @BeforeAll
  static void start() {
    server = resources.own(TestService.start());
    http = resources.own(new HttpTestClient(server.httpPort()));
    browser = resources.own(new Browser(server.httpPort()));
  }

  @BeforeEach
  void lightTheme() {
    browser.colorScheme("light");
  }

  private static String unique(String prefix) {
    return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  /** A namespace in which a value may have several pseudonyms. */
  private static String createNamespace(String prefix) {
    String name = unique(prefix);
    Response created =
        http.postJson(
            "/v1/namespaces",
            new JsonObject()
                .put("name", name)
                .put("pseudonymLength", 16)
                .put("pseudonymPrefix", "w-")
                .put("allowsMultiplePseudonyms", true)
                .encode());
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    return name;
  }

  /** The value's pseudonyms, grown to count. */
  private static List<String> pseudonymsOf(String namespace, String original, int count) {
    Response created =
        http.postJson(
            "/v1/namespaces/" + namespace + "/pseudonyms",
            new JsonObject().put("originalValue", original).put("count", count).encode());
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    return values(created.json().getJsonArray("pseudonyms"));
  }

  /** The pseudonyms of the values, in their order (BatchCreate, at most 1,000 at a time). */
  private static List<String> batchCreate(String namespace, List<String> originals) {
    List<String> pseudonyms = new ArrayList<>();
    for (int from = 0; from < originals.size(); from += 1_000) {
      List<String> chunk = originals.subList(from, Math.min(originals.size(), from + 1_000));
      Response created =
          http.postJson(
              "/v1/namespaces/" + namespace + "/pseudonyms:batchCreate",
              new JsonObject().put("originalValues", new JsonArray(chunk)).encode());
      assertThat(created.status()).as(created.body()).isEqualTo(200);
      pseudonyms.addAll(values(created.json().getJsonArray("pseudonyms")));
    }
    return pseudonyms;
  }

  private static List<String> values(JsonArray pseudonyms) {
    List<String> values = new ArrayList<>();
    for (int i = 0; i < pseudonyms.size(); i++) {
      values.add(pseudonyms.getJsonObject(i).getString("pseudonymValue"));
    }
    return values;
  }

  /** The reverse lookup of the REST API. */
  private static Response lookUp(String namespace, String pseudonym) {
    return http.get("/v1/namespaces/" + namespace + "/pseudonyms/" + pseudonym);
  }

  private static void openNamespace(String namespace) {
    browser.open("/ui/namespaces/" + namespace + "/pseudonyms");
    browser.visible("#withdrawValue");
    browser.until(d -> !browser.find("#pseudonyms-summary").getText().isEmpty());
    browser.driver().manage().logs().get(LogType.BROWSER);
  }

  /** Types the value, picks the way and opens the confirmation; returns its text. */
  private static String askToWithdraw(String value, String how) {
    browser.find("#withdrawValue").sendKeys(value);
    browser.click("#withdraw-" + how);
    browser.click("#withdraw button[type=submit]");
    return browser.visible("#confirm-panel").getText();
  }

  /** The original value is nowhere but on the page: not in the address, storage or console. */
  private static void assertNotKept(String value) {
    assertThat(browser.currentPath()).doesNotContain(value);
    assertThat(
            (String)
                browser.script(
                    "return JSON.stringify(Object.entries(localStorage))"
                        + " + JSON.stringify(Object.entries(sessionStorage))"))
        .doesNotContain(value);
    assertThat(browser.driver().manage().logs().get(LogType.BROWSER).getAll())
        .extracting(LogEntry::getMessage)
        .noneMatch(message -> message.contains(value));
  }

  @Test
  void deletingAValueAsksFirstThenListsItsDeletedPseudonymsWhichAreUnknownAfterwards() {
    String namespace = createNamespace("withdraw-delete");
    String person = unique("patient");
    List<String> deleted = pseudonymsOf(namespace, person, 2);
    String other = pseudonymsOf(namespace, unique("other"), 1).getFirst();
    openNamespace(namespace);
    browser.textContaining("#pseudonyms-summary", "3 pseudonyms");

    String confirmation = askToWithdraw(person, "delete");
    assertThat(confirmation)
        .contains("Withdraw consent for " + person + " in " + namespace + "?")
        .contains("Every pseudonym of this value in " + namespace + DELETE_EFFECT);
    assertThat(browser.find("#confirm-panel-button").getText()).isEqualTo("Delete for good");
    assertThat(browser.driver().switchTo().activeElement())
        .isEqualTo(browser.find("#confirm-panel-button"));
    // nothing happens before the confirmation
    assertThat(lookUp(namespace, deleted.getFirst()).status()).isEqualTo(200);

    browser.click("#confirm-panel-button");
    assertThat(browser.textContaining("#withdraw-message", "Consent withdrawn"))
        .isEqualTo("Consent withdrawn: the value's 2 pseudonyms deleted.");
    assertThat(browser.find("#withdrawResult").getText()).startsWith("Deleted");
    assertThat(
            browser.findAll("#withdrawList tbody tr td:nth-child(2)").stream()
                .map(WebElement::getText)
                .toList())
        .containsExactlyElementsOf(deleted);
    assertThat(browser.findAll("#confirm-panel")).isEmpty();
    assertThat(browser.find("#withdrawValue").getDomProperty("value")).isEmpty();
    browser.textContaining("#pseudonyms-summary", "1 pseudonym,");

    for (String pseudonym : deleted) {
      Response gone = lookUp(namespace, pseudonym);
      assertThat(gone.status()).isEqualTo(404);
      assertThat(gone.json().getString("message")).doesNotContain(person);
    }
    assertThat(lookUp(namespace, other).status()).isEqualTo(200);
    // a new pseudonymization gives a new pseudonym
    assertThat(pseudonymsOf(namespace, person, 1)).doesNotContainAnyElementsOf(deleted);
    assertNotKept(person);
  }

  @Test
  void anonymizingKeepsThePseudonymsWhoseOriginalValueIsThenWithdrawn() {
    String namespace = createNamespace("withdraw-anonymize");
    String person = unique("patient");
    String kept = pseudonymsOf(namespace, person, 1).getFirst();
    openNamespace(namespace);

    String confirmation = askToWithdraw(person, "anonymize");
    assertThat(confirmation).contains(person, ANONYMIZE_EFFECT);
    assertThat(browser.find("#confirm-panel-button").getText()).isEqualTo("Anonymize for good");
    browser.click("#confirm-panel-button");

    assertThat(browser.textContaining("#withdraw-message", "Consent withdrawn"))
        .isEqualTo("Consent withdrawn: the original value is anonymized, its 1 pseudonym kept.");
    assertThat(browser.find("#withdrawResult").getText()).startsWith("Kept");
    assertThat(browser.find("#withdrawList tbody").getText()).contains(kept);
    browser.textContaining("#pseudonyms-summary", "1 pseudonym,");

    Response withdrawn = lookUp(namespace, kept);
    assertThat(withdrawn.status()).isEqualTo(404);
    assertThat(withdrawn.json().getString("message")).contains("withdrawn").doesNotContain(person);
    // and so says the page's lookup
    browser.find("#lookupValue").sendKeys(kept, Keys.ENTER);
    assertThat(browser.textContaining("#lookup-message", "withdrawn")).doesNotContain(person);
    assertNotKept(person);
  }

  @Test
  void aValueWithoutPseudonymsIsNotFoundAndCancelOrEscapeWithdrawNothing() {
    String namespace = createNamespace("withdraw-none");
    String person = unique("patient");
    String pseudonym = pseudonymsOf(namespace, person, 1).getFirst();
    openNamespace(namespace);

    browser.click("#withdraw button[type=submit]");
    browser.textContaining("#withdraw-message", "Enter the original value");
    assertThat(browser.findAll("#confirm-panel")).isEmpty();

    askToWithdraw(person, "delete");
    new Actions(browser.driver()).sendKeys(Keys.ESCAPE).perform();
    assertThat(browser.findAll("#confirm-panel")).isEmpty();
    assertThat(browser.driver().switchTo().activeElement().getText()).isEqualTo("Withdraw…");
    browser.click("#withdraw button[type=submit]");
    browser.visible("#confirm-panel");
    browser.click("#confirm-panel button.secondary");
    assertThat(browser.findAll("#confirm-panel")).isEmpty();
    assertThat(lookUp(namespace, pseudonym).status()).isEqualTo(200);

    browser.find("#withdrawValue").clear();
    askToWithdraw("nobody-" + UUID.randomUUID(), "anonymize");
    browser.click("#confirm-panel-button");
    assertThat(browser.textContaining("#withdraw-message", "no pseudonym"))
        .isEqualTo("This value has no pseudonym in the namespace.");
    assertThat(browser.find("#withdraw-message").getAttribute("role")).isEqualTo("alert");
    assertThat(lookUp(namespace, pseudonym).status()).isEqualTo(200);
  }

  /** Counts the page's withdrawal batches from now on, with the largest. */
  private static void countBatches() {
    browser.script(
        "window.batches = []; const fetchOriginal = window.fetch;"
            + "window.fetch = (url, init) => {"
            + "  if (String(url).includes(':batchDelete') || String(url).includes(':batchAnonymize')) {"
            + "    window.batches.push(JSON.parse(init.body).originalValues.length);"
            + "  }"
            + "  return fetchOriginal(url, init);"
            + "};");
  }

  @SuppressWarnings("unchecked")
  private static List<Long> batches() {
    return (List<Long>) browser.script("return window.batches");
  }

  /** Runs the confirmed withdrawal to its download link and returns the report. */
  private static String confirmAndDownload(Path dir) {
    browser.click("#confirm-panel-button");
    new WebDriverWait(browser.driver(), Duration.ofMinutes(2))
        .until(
            d ->
                !d.findElements(By.id("download")).isEmpty()
                    || !d.findElements(By.cssSelector("#csv-message.error")).isEmpty());
    assertThat(browser.findAll("#csv-message.error")).isEmpty();
    return browser.download("#download", dir);
  }

  @Test
  void aCsvColumnIsDeletedInChunksAndReportedRowByRow(@TempDir Path dir) throws Exception {
    String namespace = createNamespace("withdraw-csv");
    List<String> known = new ArrayList<>();
    for (int i = 0; i < 2_500; i++) {
      known.add("P" + i + "-" + namespace);
    }
    List<String> pseudonyms = batchCreate(namespace, known);
    // every known value once, the first ten twice (the second time in a later chunk), then blank
    // and placeholder cells and values without pseudonyms
    StringBuilder csv = new StringBuilder("note;pid\n");
    StringBuilder expected = new StringBuilder("note;pid;withdrawal\n");
    int values = 0;
    List<String> rows = new ArrayList<>(known);
    rows.addAll(known.subList(0, 10));
    rows.addAll(List.of("", "  ", "NA", "unknown-1", "unknown-2"));
    for (int i = 0; i < rows.size(); i++) {
      String pid = rows.get(i);
      String outcome =
          pid.isBlank() || pid.equals("NA")
              ? "missing"
              : pid.startsWith("unknown") ? "not found" : "deleted";
      values += outcome.equals("missing") ? 0 : 1;
      csv.append("row ").append(i).append(';').append(pid).append('\n');
      expected.append("row ").append(i).append(';').append(pid).append(';').append(outcome);
      expected.append('\n');
    }
    Path input = dir.resolve("withdrawn.csv");
    Files.writeString(input, csv, StandardCharsets.UTF_8);

    browser.open("/ui/csv");
    browser.visible("#direction-withdraw").click();
    browser.click("#source-file");
    browser.visible("#csvFileInput").sendKeys(input.toAbsolutePath().toString());
    new Select(browser.visible("#withdraw-column")).selectByVisibleText("pid");
    new Select(browser.find("#withdraw-namespace")).selectByValue(namespace);
    assertThat(browser.find("#withdraw-delete").isSelected()).isTrue();
    assertThat(browser.find("#start").getText()).isEqualTo("Withdraw consent…");
    countBatches();
    browser.click("#start");

    String confirmation = browser.visible("#confirm-panel").getText();
    assertThat(confirmation)
        .contains(
            "Withdraw consent for the 2,502 distinct values of pid in " + namespace + "?",
            "Every pseudonym of these 2,502 values in " + namespace + " is deleted.",
            "can no longer be linked to the persons",
            "This cannot be undone.");
    // the ten values on two rows each are sent once: the confirmation counts what is sent
    assertThat(values).isEqualTo(2_512);
    assertThat(batches()).isEmpty();
    assertThat(lookUp(namespace, pseudonyms.getFirst()).status()).isEqualTo(200);

    String report = confirmAndDownload(dir);
    assertThat(browser.find("#download").getAttribute("download"))
        .isEqualTo("withdrawn-withdrawal.csv");
    assertThat(report).isEqualTo(expected.toString());
    assertThat(batches()).allMatch(size -> size <= 1_000).hasSizeGreaterThanOrEqualTo(3);
    assertThat(batches().stream().mapToLong(Long::longValue).sum()).isEqualTo(2_500 + 2);
    assertThat(browser.find("#progress-text").getText())
        .contains("2,502 distinct values sent", "2,500 deleted", "2 not found");
    for (String pseudonym : List.of(pseudonyms.getFirst(), pseudonyms.getLast())) {
      assertThat(lookUp(namespace, pseudonym).status()).isEqualTo(404);
    }
  }

  @Test
  void aPastedListIsAnonymizedAndTheReportShownOnThePage(@TempDir Path dir) {
    String namespace = createNamespace("withdraw-list");
    String first = unique("alice");
    String second = unique("bob");
    List<String> pseudonyms = batchCreate(namespace, List.of(first, second));

    browser.open("/ui/csv");
    browser.visible("#direction-withdraw").click();
    // a blank line, a value twice and a last line break: 3 distinct values are sent
    browser
        .find("#pasteInput")
        .sendKeys(first + "\n\n" + second + "\nnobody-" + first + "\n" + first + "\n");
    // no namespace is chosen for a withdrawal until the user chooses one
    Select namespaces = new Select(browser.visible("#withdraw-namespace"));
    assertThat(namespaces.getFirstSelectedOption().getDomProperty("value")).isEmpty();
    browser.click("#start");
    browser.textContaining("#csv-message", "Choose the namespace of the values.");
    assertThat(browser.findAll("#confirm-panel")).isEmpty();
    namespaces.selectByValue(namespace);
    browser.click("#withdraw-anonymize");
    browser.click("#start");

    assertThat(browser.visible("#confirm-panel").getText())
        .contains(
            "Withdraw consent for the 3 distinct values of Column 1 in " + namespace + "?",
            "The original values are replaced by ones that reveal nothing; the pseudonyms stay",
            "This cannot be undone.");
    String report = confirmAndDownload(dir);
    String shown = browser.find("#pasteOutput").getDomProperty("value");
    assertThat(report)
        .isEqualTo(shown)
        .isEqualTo(
            first
                + ",anonymized\n,missing\n"
                + second
                + ",anonymized\nnobody-"
                + first
                + ",not found\n"
                + first
                + ",anonymized\n");
    assertThat(browser.find("#progress-text").getText()).contains("3 distinct values sent");
    for (String pseudonym : pseudonyms) {
      Response withdrawn = lookUp(namespace, pseudonym);
      assertThat(withdrawn.status()).isEqualTo(404);
      assertThat(withdrawn.json().getString("message")).contains("withdrawn");
    }
    assertNotKept(first);
  }

  @Test
  void theWithdrawalControlsMeetTheContrastMinimumInBothThemes() {
    String namespace = createNamespace("withdraw-shown");
    pseudonymsOf(namespace, "shown", 1);
    List<String> problems = new ArrayList<>();
    for (String scheme : List.of("light", "dark")) {
      browser.colorScheme(scheme);
      openNamespace(namespace);
      askToWithdraw("shown", "anonymize");
      browser.script("document.getElementById('confirm-panel').scrollIntoView()");
      browser.screenshot("namespace-withdraw-" + scheme);
      problems.addAll(browser.problems("namespace-withdraw-" + scheme));

      browser.open("/ui/csv");
      browser.visible("#direction-withdraw").click();
      browser.find("#pasteInput").sendKeys("one\ntwo\n");
      browser.visible("#withdraw-column");
      new Select(browser.find("#withdraw-namespace")).selectByValue(namespace);
      browser.click("#start");
      browser.visible("#confirm-panel");
      browser.screenshot("csv-withdraw-" + scheme);
      problems.addAll(browser.problems("csv-withdraw-" + scheme));
    }
    assertThat(problems).isEmpty();
  }
}
