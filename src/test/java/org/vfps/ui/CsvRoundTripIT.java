package org.vfps.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.vfps.ClassResources;
import org.vfps.HttpTestClient;
import org.vfps.TestService;
import org.vfps.server.VfpsServer;

/**
 * A CSV of 10,000 rows through the page and the service: pseudonymized with BatchCreate, then
 * revealed with BatchGet, it comes back as it was. Runs once the service has the batch routes.
 */
@Browser.Required
class CsvRoundTripIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static VfpsServer server;
  private static HttpTestClient http;
  private static Browser browser;

  @BeforeAll
  static void start() {
    server = resources.own(TestService.start());
    http = resources.own(new HttpTestClient(server.httpPort()));
    browser = resources.own(new Browser(server.httpPort()));
  }

  @Test
  void pseudonymizingAndRevealingGivesTheFileBack(@TempDir Path dir) throws IOException {
    String namespace = "round-trip-" + UUID.randomUUID();
    assertThat(
            http.postJson(
                    "/v1/namespaces",
                    new JsonObject()
                        .put("name", namespace)
                        .put("pseudonymLength", 16)
                        .put("pseudonymPrefix", "rt-")
                        .encode())
                .status())
        .isEqualTo(200);
    StringBuilder original = new StringBuilder("pid,name,note\n");
    Set<String> distinct = new HashSet<>();
    for (int i = 0; i < 10_000; i++) {
      String pid = i % 50 == 0 ? "" : i % 77 == 0 ? "NA" : "P" + (i % 4_000);
      if (pid.startsWith("P")) {
        distinct.add(pid);
      }
      original
          .append(
              CsvPageIT.Csv.row(
                  List.of(pid, "Name, \"" + i + "\"", i % 3 == 0 ? "line\nbreak" : "plain"), ','))
          .append('\n');
    }
    Path input = dir.resolve("patients.csv");
    Files.writeString(input, original, StandardCharsets.UTF_8);

    String pseudonymized = run(input, false, namespace, dir);
    assertThat(pseudonymized).isNotEqualTo(original.toString()).contains("rt-");
    // at the start of a line, where the pid column is: a pseudonym may end in "P12" (CI met one)
    assertThat(pseudonymized).doesNotContain("\nP12,", "\nP3999,");
    // each value counted once over the whole run, though later calls send it again; and the
    // finished run's own rate
    String progress = browser.find("#progress-text").getText();
    assertThat(progress)
        .contains("10,000 rows", String.format("%,d distinct values sent", distinct.size()))
        .doesNotContain(" 0 rows/s")
        .containsPattern("· [1-9][0-9,]* rows/s");

    Path output = dir.resolve("patients-pseudonymized.csv");
    Files.writeString(output, pseudonymized, StandardCharsets.UTF_8);
    String revealed = run(output, true, namespace, dir);

    assertThat(revealed).isEqualTo(original.toString());
  }

  @Test
  void revealingInTheBrowserNeutralizesCellsASpreadsheetWouldRunUnlessAskedNotTo(
      @TempDir Path dir) {
    String namespace = "formulas-" + UUID.randomUUID();
    assertThat(
            http.postJson(
                    "/v1/namespaces",
                    new JsonObject()
                        .put("name", namespace)
                        .put("pseudonymLength", 16)
                        .put("pseudonymPrefix", "f-")
                        .encode())
                .status())
        .isEqualTo(200);
    List<String> originals = List.of("=1+1", "-5", "@SUM(A1:A2)", "+49 30", "plain");
    StringBuilder pasted = new StringBuilder();
    for (String original : originals) {
      HttpTestClient.Response created =
          http.postJson(
              "/v1/namespaces/" + namespace + "/pseudonyms",
              new JsonObject().put("originalValue", original).encode());
      assertThat(created.status()).as(created.body()).isEqualTo(200);
      pasted
          .append(created.json().getJsonObject("pseudonym").getString("pseudonymValue"))
          .append('\n');
    }

    String neutralized = reveal(pasted.toString(), namespace, true, dir);
    assertThat(neutralized).isEqualTo("\"'=1+1\"\n\"'-5\"\n\"'@SUM(A1:A2)\"\n\"'+49 30\"\nplain\n");
    assertThat(browser.find("#progress-text").getText()).contains("4 cells neutralized");

    String raw = reveal(pasted.toString(), namespace, false, dir);
    assertThat(raw).isEqualTo(String.join("\n", originals) + "\n");
  }

  @Test
  void aBrowserRunSkipsAndReportsValuesTheServiceRefusesOrStopsAtTheFirstNamingItsRow() {
    String namespace = "refusing-" + UUID.randomUUID();
    assertThat(
            http.postJson(
                    "/v1/namespaces",
                    new JsonObject()
                        .put("name", namespace)
                        .put("pseudonymLength", 16)
                        .put("originalValueValidationRegex", "^ok[0-9]+$")
                        .encode())
                .status())
        .isEqualTo(200);
    String pasted = "ok1\nbad\n\nok2\nok1\nbad\n";

    // stop at the first: one message naming the row, nothing left saying it is starting
    browser.open("/ui/csv");
    browser.visible("#pasteInput").sendKeys(pasted);
    new Select(browser.visible("#column-0-namespace")).selectByValue(namespace);
    assertThat(browser.find("#refused-stop").isSelected()).isTrue();
    browser.click("#start");
    String stopped = browser.textContaining("#csv-message.error", "Row 2");
    assertThat(stopped)
        .isEqualTo(
            "Row 2: The original value does not match the required pattern '^ok[0-9]+$' for"
                + " namespace '"
                + namespace
                + "'.");
    assertThat(browser.find("#progress-text").getText()).doesNotContain("Starting");
    assertThat(browser.findAll("#download")).isEmpty();

    // skip and report: the refused rows listed, the others made
    browser.open("/ui/csv");
    browser.visible("#pasteInput").sendKeys(pasted);
    new Select(browser.visible("#column-0-namespace")).selectByValue(namespace);
    browser.click("#refused-skip");
    browser.click("#start");
    browser.visible("#refusals-table");
    List<String> reported =
        browser.findAll("#refusals-table tbody tr").stream().map(row -> row.getText()).toList();
    String reason =
        "The original value does not match the required pattern '^ok[0-9]+$' for namespace '"
            + namespace
            + "'.";
    assertThat(reported).containsExactly("2 1 " + reason, "6 1 " + reason);
    String[] output = browser.find("#pasteOutput").getDomProperty("value").split("\n", -1);
    assertThat(output).hasSize(7);
    assertThat(output[0]).isNotEmpty().isEqualTo(output[4]);
    assertThat(output[1]).isEmpty();
    assertThat(output[3]).isNotEmpty().isNotEqualTo(output[0]);
    assertThat(output[5]).isEmpty();
    assertThat(browser.find("#progress-text").getText())
        .contains("6 rows", "3 distinct values sent", "2 refused cells left empty");
    assertThat(browser.find("#csv-message").getText()).contains("2 refused cells were left empty");
  }

  /** Reveals the pasted pseudonyms in this browser; returns the text of the download. */
  private static String reveal(String pasted, String namespace, boolean neutralize, Path dir) {
    browser.open("/ui/csv");
    browser.visible("#direction-reveal").click();
    browser.find("#pasteInput").sendKeys(pasted);
    new Select(browser.visible("#column-0-namespace")).selectByValue(namespace);
    if (!neutralize) {
      // on by default
      assertThat(browser.find("#neutralizeFormulas").isSelected()).isTrue();
      browser.click("#neutralizeFormulas");
    }
    browser.click("#start");
    new WebDriverWait(browser.driver(), Duration.ofMinutes(1))
        .until(
            d ->
                !d.findElements(By.id("download")).isEmpty()
                    || !d.findElements(By.cssSelector("#csv-message.error")).isEmpty());
    assertThat(browser.findAll("#csv-message.error")).isEmpty();
    return browser.download("#download", dir);
  }

  /** Runs the page on the file and returns the text of the download it offers. */
  private static String run(Path file, boolean reveal, String namespace, Path dir) {
    browser.open("/ui/csv");
    browser.visible(reveal ? "#direction-reveal" : "#direction-pseudonymize").click();
    browser.click("#source-file");
    browser.visible("#csvFileInput").sendKeys(file.toAbsolutePath().toString());
    browser.textContaining("#columns", "pid");
    new Select(browser.find("#column-0-action")).selectByValue("replace");
    new Select(browser.find("#column-0-namespace")).selectByValue(namespace);
    browser.click("#start");
    // a deadline for the whole file, not a measure of its speed
    new WebDriverWait(browser.driver(), Duration.ofMinutes(5))
        .until(
            d ->
                !d.findElements(By.id("download")).isEmpty()
                    || !d.findElements(By.cssSelector("#csv-message.error")).isEmpty());
    assertThat(browser.findAll("#csv-message.error")).isEmpty();
    return browser.download("#download", dir);
  }
}
