package org.vfps.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.vfps.ClassResources;
import org.vfps.HttpTestClient;
import org.vfps.HttpTestClient.Response;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.auth.TestOidcProvider;
import org.vfps.auth.TestSessions;
import org.vfps.auth.UiSession;
import org.vfps.server.VfpsServer;
import org.vfps.storage.Database;

/**
 * Authorization on, in Chromium: signing in at the OIDC provider of the tests (with a pushed
 * authorization request and without), a deep link that survives it, what a reader, a writer and an
 * auditor may do and see disabled, the CSRF protection, signing out, a session that works on a
 * second replica, a session that ends or is renewed, and a return URL that would leave the service.
 */
@Browser.Required
class SignInIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static TestOidcProvider provider;

  /** Pushes its authorization requests (the default). */
  private static VfpsServer pushing;

  /** Does not ({@code UsePushedAuthorizationRequests=false}); shares the database. */
  private static VfpsServer plain;

  private static HttpTestClient http;
  private static Browser browser;
  private static TestSessions sessions;
  private static String namespace;
  private static String namespacePage;
  private static String original;
  private static String pseudonym;

  @BeforeAll
  static void start() {
    provider =
        resources.own(
            new TestOidcProvider()
                .user("admin", "Alice Admin", "vfps-admin", "offline_access")
                .user("reader", "Rita Reader", "study-read")
                .user("writer", "Walt Writer", "study-read", "study-write")
                .user("auditor", "Aude Auditor", "study-read", "study-auditor")
                .start());
    namespace = "sign-in-" + UUID.randomUUID().toString().substring(0, 8);
    namespacePage = "/ui/namespaces/" + namespace + "/pseudonyms";
    pushing = resources.own(TestService.start(settings(provider, namespace, Map.of())));
    plain =
        resources.own(
            TestService.start(
                settings(
                    provider,
                    namespace,
                    Map.of("Authorization__UsePushedAuthorizationRequests", "false"))));
    http = resources.own(new HttpTestClient(pushing.httpPort()));
    Map<String, String> admin =
        Map.of("authorization", "Bearer " + provider.token("alice", "vfps-admin"));
    assertThat(
            http.send(
                    "POST",
                    "/v1/namespaces",
                    admin,
                    new JsonObject().put("name", namespace).put("pseudonymLength", 16).encode())
                .status())
        .isEqualTo(200);
    original = "MRN-" + UUID.randomUUID();
    pseudonym =
        http.send(
                "POST",
                "/v1/namespaces/" + namespace + "/pseudonyms",
                admin,
                new JsonObject().put("originalValue", original).encode())
            .json()
            .getJsonObject("pseudonym")
            .getString("pseudonymValue");
    Vertx vertx = Vertx.vertx();
    try (Database database = Database.connect(vertx, TestPostgres.database())) {
      sessions = new TestSessions(database.uiSessionKey().await());
    } finally {
      vertx.close().await();
    }
    browser = resources.own(new Browser(pushing.httpPort()));
  }

  /** Authorization on with the UI's client, and the role model of the tests on the namespace. */
  static Map<String, String> settings(
      TestOidcProvider provider, String namespace, Map<String, String> more) {
    Map<String, String> env = provider.signInSettings();
    env.put("ConnectionStrings__PostgreSQL", TestPostgres.uri());
    env.put("Authorization__AdminRoles__0", "vfps-admin");
    env.put("Authorization__NamespaceRules__0__Namespace", namespace);
    env.put("Authorization__NamespaceRules__0__ReadRoles__0", "study-read");
    env.put("Authorization__NamespaceRules__0__WriteRoles__0", "study-write");
    env.put("Authorization__NamespaceRules__0__ReverseLookupRoles__0", "study-auditor");
    env.putAll(more);
    return env;
  }

  @BeforeEach
  void signedOut() {
    // off the previous test's page first: a read it still makes (the CSV page lists the jobs)
    // would meet the cleared session and sign in again in the middle of this test
    browser.go("about:blank");
    browser.clearCookies();
    browser.colorScheme("light");
  }

  /** Opens a page of the first service, signs in as the user and waits until it is back there. */
  private static void openSignedIn(String path, String user) {
    browser.open(path);
    browser.click("#user-" + user);
    browser.until(driver -> browser.currentPath().equals(path));
    browser.visible("#account-name");
  }

  private static String origin(VfpsServer server) {
    return "http://127.0.0.1:" + server.httpPort();
  }

  private static Map<String, Object> sessionCookie() {
    return browser.cookies().stream()
        .filter(cookie -> "vfps_session".equals(cookie.get("name")))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void aDeepLinkSurvivesTheSignInWithAPushedAuthorizationRequest() {
    int before = provider.authorizationRequests().size();

    browser.open(namespacePage);
    browser.visible("#user-admin");

    assertThat(browser.driver().getCurrentUrl()).startsWith(provider.origin());
    TestOidcProvider.AuthorizationRequest request = provider.authorizationRequests().get(before);
    assertThat(request.pushed()).isTrue();
    assertThat(request.parameters())
        .containsEntry("client_id", TestOidcProvider.CLIENT_ID)
        .containsEntry("code_challenge_method", "S256")
        .containsEntry("redirect_uri", origin(pushing) + "/ui/authentication/callback")
        .containsKeys("state", "nonce", "code_challenge");

    browser.click("#user-admin");
    browser.until(driver -> browser.currentPath().equals(namespacePage));
    assertThat(browser.textContaining("#account-name", "Alice Admin")).isEqualTo("Alice Admin");
    // every role of the token, since a database grant may name any of them
    assertThat(browser.find("#account-roles").getText()).endsWith("offline_access, vfps-admin");
    browser.textContaining("main h1", namespace);
    Map<String, Object> cookie = sessionCookie();
    assertThat(cookie)
        .containsEntry("httpOnly", true)
        .containsEntry("sameSite", "Lax")
        .containsEntry("secure", false)
        .containsEntry("path", "/");
    assertThat(((String) cookie.get("value")).length()).isLessThan(4_000);
    assertThat(browser.cookies())
        .noneMatch(other -> ((String) other.get("name")).startsWith("vfps_signin_"));

    // a change goes through: the page sends the session's CSRF token
    browser.visible("#originalValue").sendKeys(original, Keys.ENTER);
    assertThat(browser.visible("#pseudonymizeResult code").getText()).isEqualTo(pseudonym);
  }

  @Test
  void aPathThatIsNoPageShowsPageNotFoundWithoutASignIn() {
    int before = provider.authorizationRequests().size();

    browser.open("/ui/no-such-page");

    browser.textContaining("#not-found h1", "Page not found");
    assertThat(browser.currentPath()).isEqualTo("/ui/no-such-page");
    assertThat(provider.authorizationRequests()).hasSize(before);
  }

  @Test
  void signsInWithoutAPushedRequestWhereTheSettingSaysSo() {
    int before = provider.authorizationRequests().size();

    browser.go(origin(plain) + "/ui/namespaces");
    browser.click("#user-admin");

    TestOidcProvider.AuthorizationRequest request = provider.authorizationRequests().get(before);
    assertThat(request.pushed()).isFalse();
    assertThat(request.parameters())
        .containsEntry("code_challenge_method", "S256")
        .containsEntry("redirect_uri", origin(plain) + "/ui/authentication/callback");
    browser.until(driver -> driver.getCurrentUrl().equals(origin(plain) + "/ui/namespaces"));
    browser.textContaining("#account-name", "Alice Admin");
    browser.visible("tr[data-namespace='" + namespace + "']");
  }

  @Test
  void aReaderSeesTheControlsItMayNotUseDisabledWithTheReason() {
    openSignedIn("/ui/namespaces", "reader");

    browser.textContaining("#create-message", "Only administrators may do this.");
    assertThat(browser.find("#name").isEnabled()).isFalse();
    assertThat(browser.find("#create-namespace button[type='submit']").isEnabled()).isFalse();
    WebElement delete = browser.visible("[id='delete-namespace-" + namespace + "']");
    assertThat(delete.isEnabled()).isFalse();
    assertThat(delete.getAttribute("title")).isEqualTo("Only administrators may do this.");
    // only what it may read is listed
    assertThat(browser.findAll("#namespaces tbody tr"))
        .extracting(row -> row.getAttribute("data-namespace"))
        .containsExactly(namespace);

    browser.click("a.browse");
    browser.until(driver -> browser.currentPath().equals(namespacePage));
    browser.textContaining(
        "#pseudonymize-message", "You may not create pseudonyms in this namespace.");
    browser.textContaining(
        "#lookup-message", "You may not look up original values in this namespace.");
    assertThat(browser.find("#originalValue").isEnabled()).isFalse();
    assertThat(browser.find("#lookupValue").isEnabled()).isFalse();
    WebElement reveal = browser.visible("#pseudonyms button.reveal");
    assertThat(reveal.isEnabled()).isFalse();
    assertThat(reveal.getAttribute("title"))
        .isEqualTo("You may not look up original values in this namespace.");

    browser.open("/ui/access-control");
    assertThat(browser.textContaining("#admins-only", "administrators only"))
        .contains("study-read");
    assertThat(status("GET", "/ui/access")).isEqualTo(403);
  }

  @Test
  void theAuditorMayRevealAndTheWriterMayNot() {
    openSignedIn(namespacePage, "auditor");
    String revealButton = "button[aria-label='Reveal the original value of " + pseudonym + "']";
    browser.click(revealButton);
    assertThat(browser.visible("#pseudonyms td.original code.revealed").getText())
        .isEqualTo(original);
    browser.visible("#lookupValue").sendKeys(pseudonym, Keys.ENTER);
    assertThat(browser.visible("#lookupResult code").getText()).isEqualTo(original);
    assertThat(browser.find("#originalValue").isEnabled()).isFalse();

    browser.clearCookies();
    openSignedIn(namespacePage, "writer");
    WebElement reveal = browser.visible(revealButton);
    assertThat(reveal.isEnabled()).isFalse();
    assertThat(reveal.getAttribute("title"))
        .isEqualTo("You may not look up original values in this namespace.");
    assertThat(browser.find("#lookupValue").isEnabled()).isFalse();
    // forced past the page, the API refuses it
    assertThat(status("GET", "/v1/namespaces/" + namespace + "/pseudonyms/" + pseudonym))
        .isEqualTo(403);
    // what it may do, it can
    browser.visible("#originalValue").sendKeys(original, Keys.ENTER);
    assertThat(browser.visible("#pseudonymizeResult code").getText()).isEqualTo(pseudonym);
  }

  /** The status of a request the page's script makes with the session cookie (and no token). */
  private static int status(String method, String path) {
    return ((Number)
            browser.asyncScript(
                "const done = arguments[arguments.length - 1];"
                    + "fetch(arguments[1], {method: arguments[0], credentials: 'same-origin'})"
                    + ".then((r) => done(r.status), () => done(-1));",
                method,
                path))
        .intValue();
  }

  @Test
  void aForgedRequestWithTheSessionCookieButNotItsTokenIsRefused() {
    openSignedIn("/ui/namespaces", "admin");
    String cookie = "vfps_session=" + browser.cookie("vfps_session").orElseThrow();
    String forged = "forged-" + UUID.randomUUID();
    String body = new JsonObject().put("name", forged).put("pseudonymLength", 16).encode();

    Response refused = http.send("POST", "/v1/namespaces", Map.of("cookie", cookie), body);
    assertThat(refused.status()).isEqualTo(403);
    assertThat(refused.json().getInteger("code")).isEqualTo(7);
    assertThat(refused.json().getString("message")).contains("CSRF token (X-CSRF-Token)");
    assertThat(
            http.send("POST", "/v1/namespaces", Map.of("cookie", cookie, "x-csrf-token", "x"), body)
                .status())
        .isEqualTo(403);
    assertThat(http.send("DELETE", "/v1/namespaces/" + namespace, Map.of("cookie", cookie), null))
        .extracting(Response::status)
        .isEqualTo(403);
    Response fhir =
        http.send(
            "POST",
            "/v1/fhir/$create-pseudonym",
            Map.of("cookie", cookie, "content-type", "application/fhir+json"),
            null);
    // FHIR takes no cookie at all: as if it were absent
    assertThat(fhir.status()).isEqualTo(401);
    assertThat(fhir.body()).contains("OperationOutcome", "no credentials");
    assertThat(http.send("POST", "/ui/authentication/logout", Map.of("cookie", cookie), null))
        .extracting(Response::status)
        .isEqualTo(403);
    assertThat(http.send("GET", "/v1/namespaces/" + forged, Map.of("cookie", cookie), null))
        .extracting(Response::status)
        .isEqualTo(404);
    assertThat(http.send("GET", "/v1/namespaces/" + namespace, Map.of("cookie", cookie), null))
        .extracting(Response::status)
        .isEqualTo(200);

    // from a page of another origin, which cannot read the token: refused before it is read
    String other = "other-origin-" + UUID.randomUUID();
    String form =
        """
        <!DOCTYPE html><html><body>
        <form method="post" action="%s/v1/namespaces" enctype="text/plain">
        <input type="hidden" name='{"name": "%s", "pseudonymLength": 16, "x": "' value='"}'>
        </form>
        <script>document.forms[0].submit();</script>
        </body></html>
        """
            .formatted(origin(pushing), other);
    browser.go(provider.page("forge-" + other + ".html", form));
    browser.until(driver -> driver.getCurrentUrl().equals(origin(pushing) + "/v1/namespaces"));
    assertThat(browser.textContaining("body", "CSRF")).contains("cross-site request forgery");
    assertThat(http.send("GET", "/v1/namespaces/" + other, Map.of("cookie", cookie), null))
        .extracting(Response::status)
        .isEqualTo(404);

    // with the session's token, which the page reads from /ui/session, it goes through
    String token =
        http.send("GET", "/ui/session", Map.of("cookie", cookie), null)
            .json()
            .getString("csrfToken");
    Map<String, String> withToken = Map.of("cookie", cookie, "x-csrf-token", token);
    assertThat(http.send("POST", "/v1/namespaces", withToken, body).status()).isEqualTo(200);
    assertThat(http.send("DELETE", "/v1/namespaces/" + forged, withToken, null).status())
        .isEqualTo(200);
  }

  @Test
  void signingOutEndsTheSessionHereAndAtTheProvider() {
    openSignedIn("/ui/namespaces", "admin");
    int before = provider.endSessionRequests().size();
    String cookie = "vfps_session=" + browser.cookie("vfps_session").orElseThrow();

    browser.click("#sign-out");

    // back at /ui/, which needs a sign-in again: the provider's form
    browser.visible("#user-admin");
    Map<String, String> request = provider.endSessionRequests().get(before);
    assertThat(request)
        .containsEntry("client_id", TestOidcProvider.CLIENT_ID)
        .containsEntry("post_logout_redirect_uri", origin(pushing) + "/ui/");
    assertThat(browser.cookie("vfps_session")).isEmpty();
    // a copy of the cookie is refused too, here and on the other replica
    for (VfpsServer server : List.of(pushing, plain)) {
      try (HttpTestClient client = new HttpTestClient(server.httpPort())) {
        assertThat(client.send("GET", "/v1/namespaces", Map.of("cookie", cookie), null).status())
            .isEqualTo(401);
      }
    }
  }

  @Test
  void aSessionOfOneReplicaWorksOnTheOther() {
    openSignedIn("/ui/namespaces", "admin");
    int requests = provider.authorizationRequests().size();

    browser.go(origin(plain) + namespacePage);
    browser.textContaining("#account-name", "Alice Admin");
    browser.visible("#originalValue").sendKeys(original, Keys.ENTER);

    assertThat(browser.visible("#pseudonymizeResult code").getText()).isEqualTo(pseudonym);
    assertThat(browser.driver().getCurrentUrl()).isEqualTo(origin(plain) + namespacePage);
    assertThat(provider.authorizationRequests()).hasSize(requests);
  }

  @Test
  void anEndedSessionSignsInAgainAndComesBack() {
    openSignedIn(namespacePage, "admin");
    // the page's own reads are done, so that the change below is the first to meet the end
    browser.textContaining("#pseudonyms-summary", "pseudonym");
    browser.until(driver -> !browser.find("#children").getText().equals("…"));
    browser.setCookie(
        "vfps_session", sessions.expired(browser.cookie("vfps_session").orElseThrow(), false));

    // a change on the page meets the ended session: the page signs in again and comes back
    browser.visible("#originalValue").sendKeys(original, Keys.ENTER);
    browser.click("#user-admin");
    browser.until(driver -> browser.currentPath().equals(namespacePage));
    browser.visible("#originalValue").sendKeys(original, Keys.ENTER);
    assertThat(browser.visible("#pseudonymizeResult code").getText()).isEqualTo(pseudonym);

    // a page asked for with an ended session goes to the sign-in first
    browser.setCookie(
        "vfps_session", sessions.expired(browser.cookie("vfps_session").orElseThrow(), false));
    browser.open("/ui/csv");
    browser.click("#user-admin");
    browser.until(driver -> browser.currentPath().equals("/ui/csv"));
    browser.visible("#account-name");
  }

  @Test
  void anEndedSessionIsRenewedWithItsRefreshToken() {
    openSignedIn("/ui/namespaces", "admin");
    String cookie = browser.cookie("vfps_session").orElseThrow();
    UiSession before = sessions.open(cookie);
    long refreshes = provider.grants().stream().filter("refresh_token"::equals).count();
    browser.setCookie("vfps_session", sessions.expired(cookie, true));

    browser.open(namespacePage);

    browser.textContaining("main h1", namespace);
    browser.textContaining("#account-name", "Alice Admin");
    assertThat(provider.grants().stream().filter("refresh_token"::equals).count())
        .isEqualTo(refreshes + 1);
    UiSession renewed = sessions.open(browser.cookie("vfps_session").orElseThrow());
    assertThat(renewed.expiresAt()).isGreaterThan(Instant.now().getEpochSecond());
    assertThat(renewed.csrfToken()).isEqualTo(before.csrfToken());
    assertThat(renewed.subject()).isEqualTo("admin");
  }

  @Test
  void accessTokensWithoutSubSignInAndRenewAsTheIdTokensSubject() {
    provider.accessTokensWithSub(false);
    try {
      openSignedIn("/ui/namespaces", "admin");
      String cookie = browser.cookie("vfps_session").orElseThrow();
      assertThat(sessions.open(cookie).subject()).isEqualTo("admin");
      browser.setCookie("vfps_session", sessions.expired(cookie, true));

      browser.open(namespacePage);

      browser.textContaining("main h1", namespace);
      UiSession renewed = sessions.open(browser.cookie("vfps_session").orElseThrow());
      assertThat(renewed.expiresAt()).isGreaterThan(Instant.now().getEpochSecond());
      assertThat(renewed.subject()).isEqualTo("admin");
    } finally {
      provider.accessTokensWithSub(true);
    }
  }

  @Test
  void aReturnUrlThatLeavesTheServiceIsRefused() {
    int requests = provider.authorizationRequests().size();
    for (String target :
        List.of(
            "https://evil.example/",
            "//evil.example/ui/",
            "/\\evil.example",
            "/ui/../v1/namespaces",
            "/ui/%2e%2e/v1/namespaces")) {
      Response response =
          http.get(
              "/ui/authentication/login?returnUrl="
                  + URLEncoder.encode(target, StandardCharsets.UTF_8));
      assertThat(response.status()).as(target).isEqualTo(400);
      assertThat(response.headers().firstValue("location")).as(target).isEmpty();
    }

    browser.open(
        "/ui/authentication/login?returnUrl="
            + URLEncoder.encode("https://evil.example/", StandardCharsets.UTF_8));

    assertThat(browser.textContaining("#sign-in-problem", "not a page of this service"))
        .doesNotContain("evil");
    assertThat(provider.authorizationRequests()).hasSize(requests);
  }
}
