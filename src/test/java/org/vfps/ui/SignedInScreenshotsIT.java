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
import org.openqa.selenium.logging.LogType;
import org.vfps.ClassResources;
import org.vfps.HttpTestClient;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.auth.TestOidcProvider;
import org.vfps.server.VfpsServer;

/**
 * The pages with authorization on, signed in, in both colour schemes, on a database of their own
 * with example data: an admin's pages (a namespace's with Configure access), the Access control
 * page and the Access tokens page of a service with tokens off, and a reader's view of a namespace
 * with the controls it may not use. Each is saved under target/ui-screenshots, meets the contrast
 * minimum, and the browser logs no error.
 */
@Browser.Required
class SignedInScreenshotsIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static final String STUDY = "study-2026-cardio";

  private static TestOidcProvider provider;
  private static VfpsServer server;
  private static HttpTestClient http;
  private static Browser browser;
  private static Map<String, String> admin;

  @BeforeAll
  static void start() {
    provider =
        resources.own(
            new TestOidcProvider()
                .user("admin", "Alice Admin", "vfps-admin")
                .user("rita", "Rita Reader", "data-steward")
                .start());
    Map<String, String> env = provider.signInSettings();
    env.put("ConnectionStrings__PostgreSQL", TestPostgres.uri(TestPostgres.freshDatabase()));
    env.put("ForceRunDatabaseMigrations", "true");
    env.put("Authorization__AdminRoles__0", "vfps-admin");
    env.put("Authorization__NamespaceRules__0__Namespace", STUDY);
    env.put("Authorization__NamespaceRules__0__ReadRoles__0", "cardio-team");
    env.put("Authorization__NamespaceRules__0__WriteRoles__0", "cardio-team");
    env.put("Authorization__NamespaceRules__0__ReverseLookupRoles__0", "cardio-trustee");
    env.put("Authorization__NamespaceRules__1__Namespace", "lab-samples");
    env.put("Authorization__NamespaceRules__1__WriteRoles__0", "lab-robot");
    env.put("Authorization__NamespaceRules__2__Namespace", "*");
    env.put("Authorization__NamespaceRules__2__ReadRoles__0", "data-steward");
    server = resources.own(TestService.start(env));
    http = resources.own(new HttpTestClient(server.httpPort()));
    admin = Map.of("authorization", "Bearer " + provider.token("alice", "vfps-admin"));
    namespace(STUDY, "Patient ids of the cardiology study", "SECURE_RANDOM_BASE64URL_ENCODED", 16);
    namespace("https://example.org/fhir/sid/mrn", "Medical record numbers", "UUID7", 36);
    namespace("lab-samples", "Sample barcodes", "FULL_RANDOM_BASE62_ENCODED", 12);
    for (int i = 1; i <= 42; i++) {
      assertThat(
              http.send(
                      "POST",
                      "/v1/namespaces/" + STUDY + "/pseudonyms",
                      admin,
                      new JsonObject().put("originalValue", "MRN-" + (1000 + i)).encode())
                  .status())
          .isEqualTo(200);
    }
    browser = resources.own(new Browser(server.httpPort()));
  }

  private static void namespace(String name, String description, String method, int length) {
    assertThat(
            http.send(
                    "POST",
                    "/v1/namespaces",
                    admin,
                    new JsonObject()
                        .put("name", name)
                        .put("description", description)
                        .put("pseudonymGenerationMethod", "PSEUDONYM_GENERATION_METHOD_" + method)
                        .put("pseudonymLength", length)
                        .encode())
                .status())
        .isEqualTo(200);
  }

  /**
   * Signs in as the user from the page at {@code path}, and forgets what the provider's page
   * logged.
   */
  private static void signIn(String path, String user) {
    browser.clearCookies();
    browser.open(path);
    browser.click("#user-" + user);
    browser.until(driver -> browser.currentPath().equals(path));
    browser.visible("#account-name");
    browser.driver().manage().logs().get(LogType.BROWSER);
  }

  @Test
  void signedInPagesInBothThemes(@TempDir Path dir) throws IOException {
    Path visits = dir.resolve("visits.csv");
    Files.writeString(
        visits,
        "patient_id;visit_date;diagnosis\r\nMRN-1001;2026-01-12;I21.0\r\nMRN-1002;2026-01-13;I25.1\r\n");
    String study = "/ui/namespaces/" + STUDY + "/pseudonyms";
    List<String> problems = new ArrayList<>();
    for (String scheme : List.of("light", "dark")) {
      browser.colorScheme(scheme);
      signIn("/ui/namespaces", "admin");
      browser.textContaining("#account-name", "Alice Admin");
      browser.script("window.scrollTo(0, document.body.scrollHeight)");
      browser.textContaining("td.count[data-namespace='" + STUDY + "']", "42");
      browser.script("window.scrollTo(0, 0)");
      problems.addAll(inspect("signed-in-namespaces-" + scheme));

      browser.open(study);
      browser.visible("#originalValue").sendKeys("MRN-1042", Keys.ENTER);
      browser.visible("#pseudonymizeResult code");
      browser.click("#pseudonyms tbody tr:nth-child(2) button.reveal");
      browser.visible("#pseudonyms td.original code");
      problems.addAll(inspect("signed-in-namespace-" + scheme));

      browser.open("/ui/csv");
      browser.visible("#source-file").click();
      browser.visible("#csvFileInput").sendKeys(visits.toAbsolutePath().toString());
      browser.textContaining("#columns", "patient_id");
      problems.addAll(inspect("signed-in-csv-" + scheme));

      browser.open("/ui/access-control");
      assertThat(browser.textContaining("#rules", "All namespaces")).contains("data-steward");
      assertThat(browser.visible("#effective-roles tr[data-namespace='" + STUDY + "']").getText())
          .contains("cardio-team", "cardio-trustee", "data-steward");
      problems.addAll(inspect("access-control-rules-" + scheme));

      // this service has access tokens off
      browser.open("/ui/access-tokens");
      assertThat(browser.textContaining("#tokens-disabled", "disabled"))
          .contains("Authorization__AccessTokens__IsEnabled");
      assertThat(browser.visible("#nav-service-accounts").isDisplayed()).isTrue();
      problems.addAll(inspect("access-tokens-disabled-" + scheme));

      signIn(study, "rita");
      browser.textContaining(
          "#lookup-message", "You may not look up original values in this namespace.");
      problems.addAll(inspect("reader-namespace-" + scheme));

      browser.open("/ui/access-control");
      browser.textContaining("#admins-only", "administrators only");
      problems.addAll(inspect("reader-access-control-" + scheme));
    }
    assertThat(problems).isEmpty();
  }

  private static List<String> inspect(String name) {
    browser.screenshot(name);
    return browser.problems(name);
  }
}
