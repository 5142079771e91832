package org.vfps.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.Select;
import org.vfps.ClassResources;
import org.vfps.HttpTestClient;
import org.vfps.HttpTestClient.Response;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.auth.TestOidcProvider;
import org.vfps.server.VfpsServer;

/**
 * The Access tokens and Service accounts pages and a namespace's Configure access in Chromium,
 * signed in at the test provider, against the real service with access tokens on and PostgreSQL:
 * what the pages do is proven with the real API, a token read off the page included.
 */
@Browser.Required
class AccessPagesIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static final String ADMIN_ROLE = "vfps-admin";
  private static final String RULE_ROLE = "configured-auditor";

  /** The users of this run, so that no token of an earlier run on the shared database shows. */
  private static final String ADMIN = unique("ada");

  private static final String USER = unique("nico");

  /** "vfps_pat_" and "vfps_sat_". */
  private static final int TOKEN_PREFIX_LENGTH = 9;

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
                .user(ADMIN, "Ada Admin", ADMIN_ROLE)
                .user(USER, "Nico Staff", "staff")
                .start());
    Map<String, String> env = provider.signInSettings();
    env.put("ConnectionStrings__PostgreSQL", TestPostgres.uri());
    env.put("Authorization__AdminRoles__0", ADMIN_ROLE);
    env.put("Authorization__AccessTokens__IsEnabled", "true");
    // the last use of a token reaches the lists within a second
    env.put("Authorization__AccessTokens__UsageFlushInterval", "00:00:01");
    env.put("Authorization__NamespaceRules__0__Namespace", "*");
    env.put("Authorization__NamespaceRules__0__ReverseLookupRoles__0", RULE_ROLE);
    server = resources.own(TestService.start(env));
    http = resources.own(new HttpTestClient(server.httpPort()));
    admin = Map.of("authorization", "Bearer " + provider.token("ada-api", ADMIN_ROLE));
    browser = resources.own(new Browser(server.httpPort()));
  }

  @BeforeEach
  void lightTheme() {
    browser.colorScheme("light");
  }

  private static String unique(String prefix) {
    return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  private static String createNamespace(String prefix) {
    String name = unique(prefix);
    Response created =
        http.send(
            "POST",
            "/v1/namespaces",
            admin,
            new JsonObject()
                .put("name", name)
                .put("pseudonymGenerationMethod", "PSEUDONYM_GENERATION_METHOD_UUID4")
                .put("pseudonymLength", 36)
                .encode());
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    return name;
  }

  private static JsonObject createGrant(JsonObject grant) {
    Response created = http.send("POST", "/x/v1/access/grants", admin, grant.encode());
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    return created.json().getJsonObject("grant");
  }

  private static List<JsonObject> grantsOf(String namespace) {
    Response listed = http.send("GET", "/x/v1/access/grants?namespace=" + namespace, admin, null);
    assertThat(listed.status()).as(listed.body()).isEqualTo(200);
    return objects(listed.json().getJsonArray("grants"));
  }

  private static List<JsonObject> objects(JsonArray array) {
    List<JsonObject> found = new ArrayList<>();
    for (int i = 0; i < array.size(); i++) {
      found.add(array.getJsonObject(i));
    }
    return found;
  }

  /** The status of creating a pseudonym in the namespace with the token as bearer. */
  private static int createPseudonymWith(String token, String namespace) {
    return http.send(
            "POST",
            "/v1/namespaces/" + namespace + "/pseudonyms",
            Map.of("authorization", "Bearer " + token),
            new JsonObject().put("originalValue", unique("patient")).encode())
        .status();
  }

  /** The token id of a token's text: between its prefix and the dot. */
  private static String tokenIdOf(String secret) {
    return secret.substring(TOKEN_PREFIX_LENGTH, secret.indexOf('.'));
  }

  /** Signs in as the user from the page at {@code path}, and forgets what the provider logged. */
  private static void signIn(String path, String user) {
    browser.clearCookies();
    browser.open(path);
    browser.click("#user-" + user);
    browser.until(driver -> browser.currentPath().equals(path));
    browser.visible("#account-name");
    browser.driver().manage().logs().get(LogType.BROWSER);
  }

  private static boolean rowHasClass(String css, String cssClass) {
    return Boolean.TRUE.equals(
        browser.script(
            "const row = document.querySelector(arguments[0]);"
                + " return row !== null && row.classList.contains(arguments[1]);",
            css,
            cssClass));
  }

  private static boolean present(String css) {
    return Boolean.TRUE.equals(
        browser.script("return document.querySelector(arguments[0]) !== null;", css));
  }

  /** Creates a token with the form on the page; returns the secret the page shows. */
  private static String createTokenInThePage(String name, String days) {
    WebElement lifetime = browser.visible("#token-lifetime");
    if (days != null) {
      lifetime.sendKeys(Keys.chord(Keys.CONTROL, "a"), days);
    }
    browser.find("#token-name").sendKeys(name);
    browser.click("#create-token button[type=submit]");
    return browser.visible("#token-secret-value").getDomProperty("value");
  }

  @Test
  void aServiceAccountTokenFromThePageWorksWithTheGrantMadeThereUntilItIsRevokedThere() {
    String namespace = createNamespace("etl-target");
    String account = unique("etl");
    signIn("/ui/service-accounts", ADMIN);
    assertThat(browser.visible("#nav-service-accounts").isDisplayed()).isTrue();

    browser.visible("#service-account-name").sendKeys(account);
    browser.find("#service-account-description").sendKeys("the nightly ETL");
    browser.click("#create-service-account button[type=submit]");
    assertThat(browser.textContaining("#create-service-account-message", "created"))
        .contains(account);
    assertThat(browser.visible("tr[data-service-account='" + account + "']").getText())
        .contains("the nightly ETL", ADMIN);

    browser.click("tr[data-service-account='" + account + "'] a.manage");
    browser.until(driver -> browser.currentPath().equals("/ui/service-accounts/" + account));
    assertThat(browser.visible("#token-lifetime").getDomProperty("value")).isEqualTo("90");
    browser.textContaining("#account-grants-area", "No grants");
    String secret = createTokenInThePage("etl 2027", null);
    assertThat(secret).startsWith("vfps_sat_").hasSize(75);
    assertThat(browser.find("#token-secret").getText())
        .contains("etl 2027", "will not be shown again");
    String tokenId = tokenIdOf(secret);
    String row = "#tokens tr[data-token-id='" + tokenId + "']";
    assertThat(browser.visible(row).getText()).contains("etl 2027", tokenId, "Never");
    // the account has no grant yet: its token authenticates, and may do nothing
    assertThat(createPseudonymWith(secret, namespace)).isEqualTo(403);
    browser.click("#token-secret-done");
    browser.until(driver -> !present("#token-secret"));

    browser.open("/ui/namespaces/" + namespace + "/pseudonyms");
    new Select(browser.visible("#grant-type")).selectByValue("GRANTEE_TYPE_SERVICE_ACCOUNT");
    browser.find("#grant-grantee").sendKeys(account);
    browser.find("#grant-write").click();
    browser.click("#add-grant button[type=submit]");
    assertThat(browser.textContaining("#add-grant-message", "Grant added")).contains(account);
    String grantRow = "#namespace-grants tr[data-grantee='" + account + "']";
    assertThat(browser.visible(grantRow + " input[data-flag='canWrite']").isSelected()).isTrue();
    assertThat(browser.find(grantRow + " input[data-flag='canRead']").isSelected()).isFalse();
    assertThat(createPseudonymWith(secret, namespace)).isEqualTo(200);

    browser.open("/ui/service-accounts/" + account);
    assertThat(browser.visible("#account-grants tr[data-namespace='" + namespace + "']").getText())
        .isEqualTo(namespace + " No Yes No");
    browser.click(row + " button.revoke");
    assertThat(browser.visible("#confirm-row").getText()).contains("etl 2027", tokenId);
    browser.click("#confirm-row-button");
    browser.textContaining("#tokens-message", "revoked");
    browser.until(driver -> rowHasClass(row, "revoked"));
    assertThat(browser.find(row + " button.revoke").isEnabled()).isFalse();

    assertThat(createPseudonymWith(secret, namespace)).isEqualTo(401);
  }

  @Test
  void aToggledRightIsSavedAtOnceAndStaysAfterAReloadBesideTheReadOnlyRules() {
    String namespace = createNamespace("toggled");
    String role = unique("reader");
    String everywhere = unique("auditor");
    createGrant(
        new JsonObject()
            .put("namespace", namespace)
            .put("granteeType", "GRANTEE_TYPE_ROLE")
            .put("grantee", role)
            .put("canRead", true));
    JsonObject global =
        createGrant(
            new JsonObject()
                .put("allNamespaces", true)
                .put("granteeType", "GRANTEE_TYPE_ROLE")
                .put("grantee", everywhere)
                .put("canRead", true));
    try {
      String path = "/ui/namespaces/" + namespace + "/pseudonyms";
      signIn(path, ADMIN);
      String row = "#namespace-grants tr[data-grantee='" + role + "']";
      String write = row + " input[data-flag='canWrite']";
      String read = row + " input[data-flag='canRead']";
      assertThat(browser.visible(write).isSelected()).isFalse();
      assertThat(browser.find(read).isSelected()).isTrue();

      browser.click(write);
      browser.textContaining("#grants-message", "Saved");
      browser.click(read);
      browser.until(driver -> grantsOf(namespace).getFirst().getBoolean("canRead") == false);
      JsonObject stored = grantsOf(namespace).getFirst();
      assertThat(stored.getBoolean("canWrite")).isTrue();
      assertThat(stored.getBoolean("canReverseLookup")).isFalse();

      browser.driver().navigate().refresh();
      assertThat(browser.visible(write).isSelected()).isTrue();
      assertThat(browser.find(read).isSelected()).isFalse();
      assertThat(browser.find(row + " input[data-flag='canReverseLookup']").isSelected()).isFalse();

      // beside them, read-only: the configuration and the grants of all namespaces
      assertThat(browser.textContaining("#namespace-admin-roles", ADMIN_ROLE))
          .contains("may do everything");
      assertThat(browser.visible("#namespace-rules tr[data-namespace='*']").getText())
          .isEqualTo("All namespaces (*) – – " + RULE_ROLE);
      assertThat(
              browser
                  .visible("#all-namespaces-grants tr[data-grantee='" + everywhere + "']")
                  .getText())
          .isEqualTo("Role " + everywhere + " Yes No No");
      assertThat(browser.findAll("#all-namespaces-grants input, #namespace-rules input")).isEmpty();
      assertThat(browser.find("#configure-access").getText()).contains("editable", "read-only");

      browser.click(row + " button.danger-outline");
      assertThat(browser.visible("#confirm-row").getText()).contains(role, namespace);
      browser.click("#confirm-row-button");
      browser.textContaining("#grants-message", "deleted");
      assertThat(grantsOf(namespace)).isEmpty();
      browser.textContaining("#namespace-grants-area", "No grants");
      assertThat(present(row)).isFalse();
    } finally {
      http.send("DELETE", "/x/v1/access/grants/" + global.getString("id"), admin, null);
    }
  }

  @Test
  void aUserWhoIsNoAdminCreatesAndDeletesAPersonalTokenAndIsRefusedTheServiceAccounts() {
    signIn("/ui/access-tokens", USER);
    assertThat(browser.visible("#nav-access-tokens").isDisplayed()).isTrue();
    assertThat(browser.find("#nav-service-accounts").isDisplayed()).isFalse();
    JsonObject session =
        new JsonObject(
            (String)
                browser.asyncScript(
                    "const done = arguments[arguments.length - 1];"
                        + " fetch('/ui/session').then((r) => r.text()).then(done);"));
    assertThat(session.getJsonObject("accessTokens").getMap())
        .isEqualTo(Map.of("enabled", true, "defaultLifetimeDays", 90, "maximumLifetimeDays", 365));
    assertThat(browser.findAll("#tokens-view")).isEmpty();

    browser.visible("#token-lifetime").sendKeys(Keys.chord(Keys.CONTROL, "a"), "400");
    browser.find("#token-name").sendKeys("too long");
    browser.click("#create-token button[type=submit]");
    assertThat(browser.textContaining("#create-token-message", "from 1 to 365")).isNotEmpty();
    browser.find("#token-name").clear();

    String name = unique("laptop scripts");
    String secret = createTokenInThePage(name, "30");
    assertThat(secret).startsWith("vfps_pat_");
    String tokenId = tokenIdOf(secret);
    String row = "#tokens tr[data-token-id='" + tokenId + "']";
    assertThat(browser.visible(row).getText()).contains(name, tokenId, "Never");

    // the secret on the page is the token: the API takes it, and knows its lifetime
    Response listed =
        http.send("GET", "/x/v1/access/tokens", Map.of("authorization", "Bearer " + secret), null);
    assertThat(listed.status()).isEqualTo(200);
    List<JsonObject> tokens = objects(listed.json().getJsonArray("accessTokens"));
    assertThat(tokens).extracting(t -> t.getString("tokenId")).containsExactly(tokenId);
    JsonObject token = tokens.getFirst();
    assertThat(Duration.between(Instant.now(), Instant.parse(token.getString("expiresAt"))))
        .isBetween(Duration.ofDays(30).minusMinutes(5), Duration.ofDays(30));
    browser.until(
        driver -> {
          browser.driver().navigate().refresh();
          return !browser.visible(row + " td.last-used").getText().equals("Never");
        });

    browser.click(row + " button.delete");
    assertThat(browser.visible("#confirm-row").getText()).contains(name, tokenId);
    browser.click("#confirm-row-button");
    browser.textContaining("#tokens-message", "deleted");
    browser.until(driver -> !present(row));
    assertThat(
            http.send(
                    "GET", "/x/v1/access/tokens", Map.of("authorization", "Bearer " + secret), null)
                .status())
        .isEqualTo(401);

    browser.open("/ui/service-accounts");
    assertThat(browser.textContaining("#admins-only", "administrators only"))
        .contains("staff", "no right on any namespace");
    assertThat(browser.findAll("#create-service-account, #service-accounts")).isEmpty();
  }

  @Test
  void anAdminSwitchesToEveryTokenAndSeesWhoseEachIsAndWhichExpireSoon() {
    String other = unique("olga");
    Response made =
        http.send(
            "POST",
            "/x/v1/access/tokens",
            Map.of("authorization", "Bearer " + provider.token(other, "staff")),
            new JsonObject().put("name", "olga's script").put("lifetimeDays", 30).encode());
    assertThat(made.status()).as(made.body()).isEqualTo(200);
    String tokenId = made.json().getJsonObject("accessToken").getString("tokenId");
    // as if made 28 of its 30 days ago
    TestPostgres.execute(
        TestPostgres.database(),
        "UPDATE access_tokens SET created_at = now() - interval '28 days',"
            + " expires_at = now() + interval '2 days' WHERE token_id = '"
            + tokenId
            + "'");
    String row = "#tokens tr[data-token-id='" + tokenId + "']";

    signIn("/ui/access-tokens", ADMIN);
    browser.textContaining("#tokens-heading", "Your tokens");
    browser.until(driver -> !browser.findAll("#tokens-area table, #tokens-area .empty").isEmpty());
    assertThat(present(row)).isFalse();

    browser.click("#tokens-view-all");
    browser.textContaining("#tokens-heading", "All tokens");
    assertThat(browser.visible(row).getText()).contains("olga's script", other, "staff");
    assertThat(browser.find(row + " td.expires").getText()).contains("Expires soon");
    assertThat(browser.currentPath()).isEqualTo("/ui/access-tokens?all=true");
    browser.screenshot("access-tokens-all-light");

    browser.driver().navigate().refresh();
    assertThat(browser.visible(row).getText()).contains("olga's script");
    assertThat(browser.find("#tokens-view-all").isSelected()).isTrue();
  }

  @Test
  void aSignedInWithdrawalGoesThroughAndOneTheServiceRefusesShowsItsMessage() {
    String namespace = createNamespace("consent");
    List<String> people = List.of(unique("patient"), unique("patient"));
    for (String person : people) {
      Response created =
          http.send(
              "POST",
              "/v1/namespaces/" + namespace + "/pseudonyms",
              admin,
              new JsonObject().put("originalValue", person).encode());
      assertThat(created.status()).as(created.body()).isEqualTo(200);
    }
    JsonObject grant =
        createGrant(
            new JsonObject()
                .put("namespace", namespace)
                .put("granteeType", "GRANTEE_TYPE_ROLE")
                .put("grantee", "staff")
                .put("canRead", true)
                .put("canWrite", true)
                .put("canReverseLookup", true));
    signIn("/ui/namespaces/" + namespace + "/pseudonyms", USER);

    // the session's cookie and CSRF token carry the POST under /x/v1/
    // the grant reaches the session with this replica's next read of the grants
    browser.until(
        d -> {
          browser.driver().navigate().refresh();
          return browser.visible("#withdrawValue").isEnabled();
        });
    browser.find("#withdrawValue").sendKeys(people.get(0));
    browser.click("#withdraw button[type=submit]");
    browser.click("#confirm-panel-button");
    browser.textContaining("#withdraw-message", "Consent withdrawn");

    // the page was drawn with the grant; the service no longer has it
    assertThat(
            http.send("DELETE", "/x/v1/access/grants/" + grant.getString("id"), admin, null)
                .status())
        .isEqualTo(200);
    Response refused =
        http.send(
            "POST",
            "/x/v1/namespaces/" + namespace + "/pseudonyms:delete",
            Map.of("authorization", "Bearer " + provider.token(USER, "staff")),
            new JsonObject().put("originalValue", people.get(1)).encode());
    assertThat(refused.status()).as(refused.body()).isEqualTo(403);
    String message = refused.json().getString("message");
    browser.find("#withdrawValue").sendKeys(people.get(1));
    browser.click("#withdraw button[type=submit]");
    browser.click("#confirm-panel-button");
    assertThat(browser.textContaining("#withdraw-message", message)).isEqualTo(message);
    assertThat(browser.find("#withdraw-message").getAttribute("role")).isEqualTo("alert");
  }

  @Test
  void theAccessPagesMeetTheContrastMinimumInBothThemesAndLogNoError() {
    String namespace = createNamespace("shown");
    String account = unique("shown");
    assertThat(
            http.send(
                    "POST",
                    "/x/v1/access/service-accounts",
                    admin,
                    new JsonObject()
                        .put("name", account)
                        .put("description", "the FHIR pseudonymizer")
                        .encode())
                .status())
        .isEqualTo(200);
    createGrant(
        new JsonObject()
            .put("namespace", namespace)
            .put("granteeType", "GRANTEE_TYPE_SERVICE_ACCOUNT")
            .put("grantee", account)
            .put("canWrite", true));
    List<String> problems = new ArrayList<>();
    for (String scheme : List.of("light", "dark")) {
      browser.colorScheme(scheme);
      signIn("/ui/access-tokens", ADMIN);
      createTokenInThePage("screenshot " + scheme, null);
      problems.addAll(inspect("access-tokens-" + scheme));

      browser.open("/ui/service-accounts");
      browser.visible("tr[data-service-account='" + account + "']");
      problems.addAll(inspect("service-accounts-" + scheme));

      browser.open("/ui/service-accounts/" + account);
      browser.visible("#account-grants");
      createTokenInThePage("etl " + scheme, null);
      problems.addAll(inspect("service-account-" + scheme));

      browser.open("/ui/namespaces/" + namespace + "/pseudonyms");
      browser.visible("#namespace-grants");
      browser.visible("#namespace-rules");
      browser.script("document.getElementById('configure-access').scrollIntoView()");
      problems.addAll(inspect("configure-access-" + scheme));
    }
    assertThat(problems).isEmpty();
  }

  private static List<String> inspect(String name) {
    browser.screenshot(name);
    return browser.problems(name);
  }
}
