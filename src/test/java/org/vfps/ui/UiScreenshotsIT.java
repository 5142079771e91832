package org.vfps.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.Keys;
import org.openqa.selenium.support.ui.Select;
import org.vfps.ClassResources;
import org.vfps.HttpTestClient;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.server.VfpsServer;

/**
 * Every page in both colour schemes, on a database of its own with example data: each is saved as a
 * screenshot under target/ui-screenshots, its text meets the WCAG AA contrast minimum, and the
 * browser logs no error (a blocked script or style would be one).
 */
@Browser.Required
class UiScreenshotsIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static VfpsServer server;
  private static HttpTestClient http;
  private static Browser browser;

  @BeforeAll
  static void start() throws IOException {
    server =
        resources.own(
            TestService.start(
                Map.of(
                    "ConnectionStrings__PostgreSQL",
                    TestPostgres.uri(TestPostgres.freshDatabase()),
                    "ForceRunDatabaseMigrations",
                    "true")));
    http = resources.own(new HttpTestClient(server.httpPort()));
    browser = resources.own(new Browser(server.httpPort()));
    namespace(
        "study-2026-cardio",
        "Patient ids of the cardiology study",
        "SECURE_RANDOM_BASE64URL_ENCODED",
        16,
        "cardio-",
        "");
    namespace("https://example.org/fhir/sid/mrn", "Medical record numbers", "UUID7", 36, "", "");
    namespace(
        "lab-samples",
        "Sample barcodes",
        "FULL_RANDOM_BASE62_ENCODED",
        12,
        "",
        "-L",
        new JsonObject().put("originalValueValidationRegex", "^S[0-9]{5}$"));
    namespace(
        "study-2026-cardio-visits",
        "Visit ids, several per patient pseudonym",
        "FULL_RANDOM_BASE32_ENCODED",
        12,
        "v-",
        "",
        new JsonObject()
            .put("allowsMultiplePseudonyms", true)
            .put("parentName", "study-2026-cardio")
            .put("parentValidationMode", "PARENT_VALIDATION_MODE_ENSURE_EXISTS"));
    namespace(
        "biobank-gpas",
        "Sample ids as gPAS made them: digits, a Damm check digit, groups of three",
        "X_SECURE_RANDOM_ALPHABET",
        9,
        "BB-",
        "",
        new JsonObject()
            .put(
                "xFormat",
                new JsonObject()
                    .put("alphabet", "0123456789")
                    .put("checkDigit", "CHECK_DIGIT_DAMM")
                    .put("groupSize", 3)
                    .put("groupDelimiter", "-")));
    for (int i = 1; i <= 42; i++) {
      pseudonym("study-2026-cardio", "MRN-" + (1000 + i));
    }
    for (int i = 1; i <= 5; i++) {
      pseudonym("biobank-gpas", "S" + (80000 + i));
    }
    for (int i = 1; i <= 7; i++) {
      pseudonym("lab-samples", "S" + (70000 + i));
    }
  }

  private static void namespace(
      String name, String description, String method, int length, String prefix, String suffix) {
    namespace(name, description, method, length, prefix, suffix, new JsonObject());
  }

  private static void namespace(
      String name,
      String description,
      String method,
      int length,
      String prefix,
      String suffix,
      JsonObject settings) {
    assertThat(
            http.postJson(
                    "/v1/namespaces",
                    new JsonObject()
                        .put("name", name)
                        .put("description", description)
                        .put("pseudonymGenerationMethod", "PSEUDONYM_GENERATION_METHOD_" + method)
                        .put("pseudonymLength", length)
                        .put("pseudonymPrefix", prefix)
                        .put("pseudonymSuffix", suffix)
                        .mergeIn(settings)
                        .encode())
                .status())
        .isEqualTo(200);
  }

  private static void pseudonym(String namespace, String original) {
    assertThat(
            http.postJson(
                    "/v1/namespaces/" + namespace + "/pseudonyms",
                    new JsonObject().put("originalValue", original).encode())
                .status())
        .isEqualTo(200);
  }

  @Test
  void everyPageInBothThemes(@TempDir Path dir) throws IOException {
    Path visits = dir.resolve("visits.csv");
    Files.writeString(
        visits,
        "patient_id;visit_date;diagnosis;notes\r\n"
            + "MRN-1001;2026-01-12;I21.0;\"first visit; referred\"\r\n"
            + "MRN-1002;2026-01-13;I25.1;\r\n"
            + "NA;2026-01-15;I10;walk-in\r\n"
            + "MRN-1003;2026-02-01;I48.0;\"follow-up\"\r\n");
    List<String> problems = new ArrayList<>();
    for (String scheme : List.of("light", "dark")) {
      browser.colorScheme(scheme);

      browser.open("/ui/namespaces");
      browser.visible("#create-namespace");
      // counted when near the screen
      browser.script("window.scrollTo(0, document.body.scrollHeight)");
      browser.textContaining("td.count[data-namespace='study-2026-cardio']", "42");
      browser.textContaining("td.count[data-namespace='lab-samples']", "7");
      browser.script("window.scrollTo(0, 0)");
      browser.find("#regex").sendKeys("^MRN-[0-9]{4}$");
      browser.find("#regex-samples").sendKeys("MRN-1042\nmrn-1042\nMRN-10420");
      browser.textContaining("#regex-summary", "1 of 3");
      problems.addAll(inspect("namespaces-" + scheme));

      browser.click("[id='delete-namespace-lab-samples']");
      browser.visible("#confirmDeleteNamespaceName").sendKeys("lab-");
      problems.addAll(inspect("namespaces-delete-" + scheme));

      browser.open("/ui/namespaces");
      browser.visible("#create-namespace");
      browser.find("#name").sendKeys("biobank-gpas-2");
      new Select(browser.find("#method"))
          .selectByValue("PSEUDONYM_GENERATION_METHOD_X_SECURE_RANDOM_ALPHABET");
      browser.find("#length").sendKeys(Keys.chord(Keys.CONTROL, "a"), "9");
      browser.find("#prefix").sendKeys("BB-");
      browser.find("#group-size").sendKeys(Keys.chord(Keys.CONTROL, "a"), "3");
      browser.textContaining("#format-capacity", "10^9");
      browser.script("window.scrollTo(0, document.body.scrollHeight)");
      browser.textContaining("td.count[data-namespace='biobank-gpas']", "5");
      browser.textContaining("td.count[data-namespace='lab-samples']", "7");
      browser.script("document.getElementById('format-fields').scrollIntoView()");
      problems.addAll(inspect("namespaces-alphabet-" + scheme));

      browser.open("/ui/namespaces/biobank-gpas/pseudonyms");
      browser.visible("#originalValue").sendKeys("S80003", Keys.ENTER);
      String sample = browser.visible("#pseudonymizeResult code").getText();
      // one digit mistyped: the service's refusal
      String mistyped =
          sample.substring(0, 3) + (sample.charAt(3) == '1' ? '2' : '1') + sample.substring(4);
      browser.find("#lookupValue").sendKeys(mistyped, Keys.ENTER);
      browser.textContaining("#lookup-message", "mistyped");
      // the browser logs the refusal's 400, and nothing else
      assertThat(browser.problems("mistyped-" + scheme))
          .singleElement()
          .asString()
          .contains("/v1/namespaces/biobank-gpas/pseudonyms/", "status of 400");
      browser.textContaining("#pseudonyms-summary", "5 pseudonyms");
      problems.addAll(inspect("namespace-alphabet-" + scheme));

      browser.open("/ui/namespaces/study-2026-cardio/pseudonyms");
      browser.visible("#originalValue").sendKeys("MRN-1042", Keys.ENTER);
      browser.visible("#pseudonymizeResult code");
      browser.textContaining("#pseudonyms-summary", "42 pseudonyms");
      browser.click("#pseudonyms tbody tr:nth-child(2) button.reveal");
      browser.visible("#pseudonyms td.original code");
      problems.addAll(inspect("namespace-" + scheme));

      browser.open("/ui/namespaces/study-2026-cardio-visits/pseudonyms");
      browser.textContaining("#fact-parent", "study-2026-cardio");
      browser.visible("#originalValue").sendKeys(firstPseudonym("study-2026-cardio"));
      browser.find("#count").sendKeys(Keys.chord(Keys.CONTROL, "a"), "3", Keys.ENTER);
      browser.textContaining("#pseudonymizeResult", "3 pseudonyms");
      browser.textContaining("#pseudonyms-summary", "3 pseudonyms");
      problems.addAll(inspect("namespace-several-" + scheme));

      browser.open("/ui/csv");
      browser.visible("#source-file").click();
      browser.visible("#csvFileInput").sendKeys(visits.toAbsolutePath().toString());
      browser.textContaining("#columns", "patient_id");
      browser.script(
          "const a = document.getElementById('column-0-action');"
              + "a.value = 'replace'; a.dispatchEvent(new Event('change'));"
              + "const n = document.getElementById('column-0-namespace');"
              + "n.value = 'study-2026-cardio'; n.dispatchEvent(new Event('change'));");
      problems.addAll(inspect("csv-" + scheme));

      browser.open("/ui/access-control");
      browser.textContaining("main", "Authorization is off");
      problems.addAll(inspect("access-control-" + scheme));
    }
    assertThat(problems).isEmpty();
  }

  @Test
  void theChecksSeeLowContrastAndConsoleErrors() {
    browser.colorScheme("light");
    browser.open("/ui/access-control");
    browser.textContaining("main", "Authorization is off");
    browser.script(
        "const p = document.createElement('p'); p.textContent = 'faint';"
            + "p.style.color = '#aaaaaa'; document.querySelector('main').append(p);"
            + "console.error('something broke');");

    List<String> problems = browser.problems("self-check");

    assertThat(problems)
        .anyMatch(problem -> problem.contains("contrast faint"))
        .anyMatch(problem -> problem.contains("something broke"));
  }

  /** The newest pseudonym of the namespace, through REST. */
  private static String firstPseudonym(String namespace) {
    return http.get("/v1/namespaces/" + namespace + "/pseudonyms?pageSize=1")
        .json()
        .getJsonArray("pseudonyms")
        .getJsonObject(0)
        .getString("pseudonymValue");
  }

  /** Saves the screenshot; returns contrast failures and browser errors. */
  private static List<String> inspect(String name) {
    browser.screenshot(name);
    return browser.problems(name);
  }
}
