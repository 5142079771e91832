package org.vfps.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.vfps.ClassResources;
import org.vfps.HttpTestClient;
import org.vfps.HttpTestClient.Response;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.objectstore.TestObjectStore;
import org.vfps.server.VfpsServer;

/**
 * CSV jobs on the CSV page in Chromium, against the real service with the test JVM's S3 store and
 * PostgreSQL: a file pseudonymized and revealed on the server (uploaded straight to the store), an
 * export and an import, the list of jobs, and a service without an object store, whose page says
 * that jobs are off while the browser's processing still works.
 */
@Browser.Required
class CsvJobPagesIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static final Duration JOB_DEADLINE = Duration.ofSeconds(45);

  private static VfpsServer server;
  private static HttpTestClient http;
  private static Browser browser;
  private static final HttpClient objectStore =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  @BeforeAll
  static void start() {
    // the test store's CORS rule lets every origin upload, the page's included
    Map<String, String> environment = new HashMap<>(TestObjectStore.environment());
    environment.put("ConnectionStrings__PostgreSQL", TestPostgres.uri());
    server = resources.own(TestService.start(environment));
    http = resources.own(new HttpTestClient(server.httpPort()));
    browser = resources.own(new Browser(server.httpPort()));
  }

  @BeforeEach
  void lightTheme() {
    browser.colorScheme("light");
    // what an earlier test left in the console (the refused create of jobs off) is not this one's
    browser.driver().manage().logs().get(LogType.BROWSER);
  }

  private static String unique(String prefix) {
    return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  private static String createNamespace(String prefix) {
    String name = unique(prefix);
    Response created =
        http.postJson(
            "/v1/namespaces",
            new JsonObject()
                .put("name", name)
                .put("pseudonymLength", 16)
                .put("pseudonymPrefix", "j-")
                .encode());
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    return name;
  }

  /** The stored pseudonym of each value, creating none (Resolve). */
  private static Map<String, String> resolve(String namespace, List<String> originals) {
    Map<String, String> pseudonyms = new HashMap<>();
    for (String original : originals) {
      Response resolved =
          http.postJson(
              "/v1/namespaces/" + namespace + "/pseudonyms:resolve",
              new JsonObject().put("originalValue", original).encode());
      assertThat(resolved.status()).as(resolved.body()).isEqualTo(200);
      pseudonyms.put(
          original, resolved.json().getJsonObject("pseudonym").getString("pseudonymValue"));
    }
    return pseudonyms;
  }

  private static List<String> batchCreate(String namespace, List<String> originals) {
    Response created =
        http.postJson(
            "/v1/namespaces/" + namespace + "/pseudonyms:batchCreate",
            new JsonObject().put("originalValues", new JsonArray(originals)).encode());
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    JsonArray pseudonyms = created.json().getJsonArray("pseudonyms");
    List<String> values = new ArrayList<>();
    for (int i = 0; i < pseudonyms.size(); i++) {
      values.add(pseudonyms.getJsonObject(i).getString("pseudonymValue"));
    }
    return values;
  }

  /** Records every status the job panel shows from now on, in window.statuses. */
  private static void recordStatuses() {
    browser.script(
        "window.statuses = []; const status = document.getElementById('job-status');"
            + "new MutationObserver(() => window.statuses.push(status.textContent))"
            + ".observe(status, {childList: true, characterData: true, subtree: true});");
  }

  @SuppressWarnings("unchecked")
  private static List<String> statuses() {
    return (List<String>) browser.script("return window.statuses");
  }

  /**
   * Waits for the shown job to end and returns its status; a failure names the page's messages and
   * what the browser's console said (a CORS refusal of the upload, say).
   */
  private static String awaitEnd() {
    new WebDriverWait(browser.driver(), JOB_DEADLINE)
        .until(
            d ->
                List.of("Completed", "Failed", "Cancelled")
                        .contains(d.findElement(By.id("job-status")).getText())
                    || !d.findElements(By.cssSelector("#csv-message.error")).isEmpty());
    String status = browser.find("#job-status").getText();
    if (!status.equals("Completed")) {
      String console =
          browser.driver().manage().logs().get(LogType.BROWSER).getAll().stream()
              .map(LogEntry::getMessage)
              .collect(Collectors.joining("\n"));
      throw new AssertionError(
          "The job did not complete: status '"
              + status
              + "', page message '"
              + browser.find("#csv-message").getText()
              + "', job error '"
              + browser.find("#job-error").getText()
              + "'; the browser console:\n"
              + console);
    }
    return status;
  }

  /** The result behind the panel's download link, fetched as any client would, without the UI. */
  private static String downloaded() throws IOException, InterruptedException {
    String url = browser.visible("#job-download").getAttribute("href");
    assertThat(url).startsWith("http://127.0.0.1:").doesNotContain(server.httpPort() + "/");
    HttpResponse<String> response =
        objectStore.send(
            HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build(),
            HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Disposition"))
        .hasValueSatisfying(disposition -> assertThat(disposition).startsWith("attachment"));
    return response.body().replace("\r\n", "\n");
  }

  private static void chooseFile(Path file) {
    browser.click("#source-file");
    browser.visible("#csvFileInput").sendKeys(file.toAbsolutePath().toString());
  }

  @Test
  void aFileIsPseudonymizedAndRevealedOnTheServerWithItsProgressShown(@TempDir Path dir)
      throws Exception {
    String namespace = createNamespace("job-pseudonymize");
    String alice = unique("alice");
    String bob = unique("bob");
    String input =
        "pid,name\n" + alice + ",first\n" + bob + ",second\n,blank\n" + alice + ",again\n";
    Path file = dir.resolve("patients.csv");
    Files.writeString(file, input, StandardCharsets.UTF_8);

    browser.open("/ui/csv");
    browser.visible("#where-server").click();
    assertThat(browser.find("#start").getText()).isEqualTo("Pseudonymize on the server");
    assertThat(browser.find("#where-hint").getText()).contains("object store (S3)");
    chooseFile(file);
    browser.textContaining("#columns", "pid");
    new Select(browser.find("#column-0-action")).selectByValue("replace");
    new Select(browser.find("#column-0-namespace")).selectByValue(namespace);
    recordStatuses();
    browser.click("#start");

    awaitEnd();
    assertThat(statuses()).contains("Uploading").last().isEqualTo("Completed");
    assertThat(browser.find("#job-rows").getText()).isEqualTo("4");
    assertThat(browser.find("#job-missing").getText()).isEqualTo("1");
    assertThat(browser.find("#job-unresolved").getText()).isEqualTo("0");
    assertThat(browser.find("#job-mistyped").getText()).isEqualTo("0");
    assertThat(browser.find("#job-progress").getDomProperty("value")).isEqualTo("1");
    assertThat(browser.findAll("#job-cancel")).allMatch(cancel -> !cancel.isDisplayed());
    browser.screenshot("csv-job-completed");
    assertThat(browser.problems("csv-job-completed")).isEmpty();
    String result = downloaded();
    Map<String, String> pseudonyms = resolve(namespace, List.of(alice, bob));
    assertThat(result)
        .isEqualTo(
            "pid,name\n"
                + pseudonyms.get(alice)
                + ",first\n"
                + pseudonyms.get(bob)
                + ",second\n,blank\n"
                + pseudonyms.get(alice)
                + ",again\n");
    assertThat(browser.find("#job-download").getAttribute("href")).doesNotContain(alice, bob);
    assertThat(browser.currentPath()).isEqualTo("/ui/csv");

    // and back, revealed on the server into a new column
    Path pseudonymized = dir.resolve("patients-pseudonymized.csv");
    Files.writeString(pseudonymized, result, StandardCharsets.UTF_8);
    browser.open("/ui/csv");
    browser.visible("#direction-reveal").click();
    browser.click("#where-server");
    chooseFile(pseudonymized);
    browser.textContaining("#columns", "pid");
    new Select(browser.find("#column-0-action")).selectByValue("add");
    new Select(browser.find("#column-0-namespace")).selectByValue(namespace);
    browser.click("#start");
    awaitEnd();
    assertThat(downloaded())
        .isEqualTo(
            "pid,name,pid_original\n"
                + pseudonyms.get(alice)
                + ",first,"
                + alice
                + "\n"
                + pseudonyms.get(bob)
                + ",second,"
                + bob
                + "\n,blank,\n"
                + pseudonyms.get(alice)
                + ",again,"
                + alice
                + "\n");
  }

  @Test
  void anExportHoldsEveryPairOfTheNamespaceUnderTheChosenHeader() throws Exception {
    String namespace = createNamespace("job-export");
    List<String> originals = List.of(unique("a"), unique("b"), unique("c"));
    List<String> pseudonyms = batchCreate(namespace, originals);

    browser.open("/ui/csv");
    browser.visible("#direction-export").click();
    assertThat(browser.find("#where-server").isEnabled()).isFalse();
    assertThat(browser.find("#source-paste").isDisplayed()).isFalse();
    new Select(browser.visible("#export-namespace")).selectByValue(namespace);
    browser.find("#export-original").clear();
    browser.find("#export-original").sendKeys("mrn");
    browser.find("#export-pseudonym").clear();
    browser.find("#export-pseudonym").sendKeys("psn");
    assertThat(browser.find("#start").getText()).isEqualTo("Export");
    browser.click("#start");

    awaitEnd();
    List<String> lines = List.of(downloaded().split("\n"));
    assertThat(lines.getFirst()).isEqualTo("mrn,psn");
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < originals.size(); i++) {
      expected.add(originals.get(i) + "," + pseudonyms.get(i));
    }
    assertThat(lines.subList(1, lines.size())).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(browser.find("#job-rows").getText()).isEqualTo("3");
  }

  @Test
  void anImportReportsTheStatusOfEveryRow(@TempDir Path dir) throws Exception {
    String namespace = createNamespace("job-import");
    String present = unique("present");
    String presentPseudonym = batchCreate(namespace, List.of(present)).getFirst();
    String fresh = unique("fresh");
    // the namespace's format: "j-" and 32 characters of base64url (16 random bytes)
    String freshPseudonym = "j-" + UUID.randomUUID().toString().replace("-", "");
    String input =
        String.join(
            "\n",
            "note;original;pseudonym",
            "new;" + fresh + ";" + freshPseudonym,
            "same;" + present + ";" + presentPseudonym,
            "other original;" + unique("someone") + ";" + presentPseudonym,
            "blank;;" + "j-" + UUID.randomUUID().toString().substring(0, 8),
            "");
    Path file = dir.resolve("pairs.csv");
    Files.writeString(file, input, StandardCharsets.UTF_8);

    browser.open("/ui/csv");
    browser.visible("#direction-import").click();
    chooseFile(file);
    // the page reads the file's head before it guesses the delimiter
    browser.await().until(driver -> ";".equals(browser.find("#delimiter").getDomProperty("value")));
    new Select(browser.visible("#import-original")).selectByVisibleText("original");
    new Select(browser.find("#import-pseudonym")).selectByVisibleText("pseudonym");
    new Select(browser.find("#import-namespace")).selectByValue(namespace);
    browser.click("#start");

    awaitEnd();
    List<String> statuses =
        List.of(downloaded().split("\n")).stream()
            .map(line -> line.substring(line.lastIndexOf(';') + 1))
            .toList();
    assertThat(statuses)
        .containsExactly(
            "status", "Imported", "AlreadyPresent", "PseudonymValueConflict", "MissingValue");
    Response imported = http.get("/v1/namespaces/" + namespace + "/pseudonyms/" + freshPseudonym);
    assertThat(imported.status()).as(imported.body()).isEqualTo(200);
    assertThat(imported.json().getJsonObject("pseudonym").getString("originalValue"))
        .isEqualTo(fresh);
  }

  @Test
  void theJobsListShowsTheJobsAndOpensOneWithItsDownload() {
    String namespace = createNamespace("job-list");
    batchCreate(namespace, List.of(unique("listed")));
    Response created =
        http.postJson(
            "/v1/csv-jobs",
            new JsonObject()
                .put("direction", "CSV_JOB_DIRECTION_EXPORT")
                .put("fileName", namespace + ".csv")
                .put(
                    "columnMappings",
                    new JsonArray()
                        .add(
                            new JsonObject()
                                .put("sourceColumn", "original")
                                .put("targetColumn", "pseudonym")
                                .put("namespace", namespace)))
                .encode());
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    String id = created.json().getString("id");

    browser.open("/ui/csv");
    String row = "#jobs-table tr[data-job-id='" + id + "']";
    // the list is read again while the job is queued or running
    browser.textContaining(row, "Completed");
    assertThat(browser.find(row).getText()).contains(namespace + ".csv", "Export", "1");
    assertThat(browser.findAll(row + " #job-" + id + "-download")).hasSize(1);

    browser.click("#job-" + id + "-show");
    browser.visible("#job");
    assertThat(browser.find("#job").getDomAttribute("data-job-id")).isEqualTo(id);
    browser.textContaining("#job-status", "Completed");
    assertThat(browser.visible("#job-download").getAttribute("href")).startsWith("http");
    assertThat(browser.driver().switchTo().activeElement()).isEqualTo(browser.find("#job-heading"));
  }

  @Test
  void aJobLeftAwaitingItsUploadIsCancelledFromTheList() {
    String namespace = createNamespace("job-abandoned");
    Response created =
        http.postJson(
            "/v1/csv-jobs",
            new JsonObject()
                .put("direction", "CSV_JOB_DIRECTION_PSEUDONYMIZE")
                .put("fileName", "never-uploaded.csv")
                .put(
                    "columnMappings",
                    new JsonArray()
                        .add(
                            new JsonObject().put("sourceColumn", "id").put("namespace", namespace)))
                .encode());
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    String id = created.json().getString("id");

    browser.open("/ui/csv");
    String row = "#jobs-table tr[data-job-id='" + id + "']";
    assertThat(browser.textContaining(row, "Awaiting upload")).contains("never-uploaded.csv");
    assertThat(browser.find("#job-" + id + "-cancel").getAttribute("aria-label"))
        .contains("awaits its upload")
        .endsWith("UTC, which awaits its upload");
    browser.click("#job-" + id + "-cancel");

    browser.textContaining(row, "Cancelled");
    assertThat(browser.findAll("#job-" + id + "-cancel")).isEmpty();
    assertThat(browser.textContaining("#jobs-message", "cancelled")).contains("UTC");
    assertThat(http.get("/v1/csv-jobs/" + id).json().getString("status"))
        .isEqualTo("CSV_JOB_STATUS_CANCELLED");
  }

  @Test
  void withoutAnObjectStoreThePageSaysJobsAreOffAndTheBrowserStillWorks() {
    VfpsServer off = TestService.start();
    try {
      String namespace = createNamespace("job-off");
      browser.go("http://127.0.0.1:" + off.httpPort() + "/ui/csv");
      browser.visible("#where-server").click();
      browser.find("#pasteInput").sendKeys("one\ntwo\n");
      new Select(browser.visible("#column-0-namespace")).selectByValue(namespace);
      browser.click("#start");

      assertThat(browser.visible("#jobs-off").getText())
          .contains("CSV jobs are off on this service.", "An administrator must configure S3");
      assertThat(browser.textContaining("#csv-message", "CSV jobs are off"))
          .contains("Choose In this browser");
      assertThat(browser.find("#where-server").isEnabled()).isFalse();
      assertThat(browser.find("#where-browser").isSelected()).isTrue();
      assertThat(browser.find("#direction-import").isEnabled()).isFalse();
      assertThat(browser.find("#direction-export").isEnabled()).isFalse();
      assertThat(browser.find("#where-hint").getText()).contains("administrator configures S3");
      assertThat(browser.find("#start").getText()).isEqualTo("Pseudonymize");
      browser.screenshot("csv-jobs-off");

      browser.click("#start");
      browser.visible("#download");
      String[] pseudonyms = browser.find("#pasteOutput").getDomProperty("value").split("\n");
      assertThat(pseudonyms).hasSize(2).allMatch(p -> p.startsWith("j-"));
      assertThat(browser.findAll("#csv-message.error")).isEmpty();
      // the list of jobs needs no object store
      assertThat(browser.findAll("#jobs-message.error")).isEmpty();
      assertThat(browser.find("#jobs").getText()).isNotEmpty();
    } finally {
      off.close();
    }
  }
}
