package org.vfps.ui;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.vfps.ClassResources;
import org.vfps.HttpTestClient;
import org.vfps.TestCertificates;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.auth.TestOidcProvider;
import org.vfps.auth.TestSessions;
import org.vfps.config.ConnectionSettings;
import org.vfps.server.VfpsServer;
import org.vfps.storage.Database;
import org.vfps.storage.Migrations;

/**
 * The sign-in over plain HTTP, step by step as a browser takes it: a sign-in started on one replica
 * and finished on the other, what the session reports, what a callback without its flow or with a
 * used code gets, the cookies' attributes under TLS and behind a proxy (trusted or not), a form
 * sign-out and a signed-out session on both replicas, what the cookie authenticates (the pages' API
 * only, never FHIR) and its CSRF check under every spelling of a path, and a service without a
 * sign-in client.
 */
class SignInFlowIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static final Pattern FLOW = Pattern.compile("name=\"flow\" value=\"([^\"]+)\"");

  private static TestOidcProvider provider;
  private static VfpsServer first;
  private static VfpsServer second;
  private static String namespace;
  private static ConnectionSettings database;
  private static final HttpClient CLIENT = client(null);

  @BeforeAll
  static void start() {
    provider =
        resources.own(
            new TestOidcProvider()
                .user("admin", "Alice Admin", "vfps-admin")
                .user("reader", "Rita Reader", "study-read", "unrelated")
                .start());
    namespace = "flow-" + UUID.randomUUID().toString().substring(0, 8);
    // a database of this class's own, so that it knows every namespace there is
    database = TestPostgres.freshDatabase();
    Migrations.migrate(database);
    Map<String, String> wildcard =
        Map.of(
            "ConnectionStrings__PostgreSQL", TestPostgres.uri(database),
            "Authorization__NamespaceRules__1__Namespace", "*",
            "Authorization__NamespaceRules__1__ReadRoles__0", "all-read",
            "Authorization__NamespaceRules__1__ReadRoles__1", "study-read");
    first = resources.own(TestService.start(SignInIT.settings(provider, namespace, wildcard)));
    Map<String, String> plain = new HashMap<>(wildcard);
    plain.put("Authorization__UsePushedAuthorizationRequests", "false");
    // behind a proxy on this host
    plain.put("Http__TrustedProxies", "127.0.0.0/8, ::1");
    second = resources.own(TestService.start(SignInIT.settings(provider, namespace, plain)));
    Answer created =
        send(
            HttpRequest.newBuilder(URI.create(origin(first) + "/v1/namespaces"))
                .header("authorization", "Bearer " + provider.token("alice", "vfps-admin"))
                .header("content-type", "application/json")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        new JsonObject()
                            .put("name", namespace)
                            .put("pseudonymLength", 16)
                            .encode())));
    assertThat(created.status()).isEqualTo(200);
  }

  /** What a server answered; redirects are not followed. */
  record Answer(int status, HttpHeaders headers, String body) {

    String location() {
      return headers.firstValue("location").orElseThrow();
    }

    /** The Set-Cookie header of the cookie of that name, attributes and all. */
    String setCookie(String name) {
      return headers.allValues("set-cookie").stream()
          .filter(cookie -> cookie.startsWith(name + "="))
          .findFirst()
          .orElseThrow(() -> new AssertionError("no cookie " + name + " in " + headers));
    }

    /** The value of a cookie this answer sets. */
    String cookie(String name) {
      String header = setCookie(name);
      int end = header.indexOf(';');
      return header.substring(name.length() + 1, end < 0 ? header.length() : end);
    }

    JsonObject json() {
      return new JsonObject(body);
    }
  }

  private static HttpClient client(SSLContext tls) {
    HttpClient.Builder builder =
        HttpClient.newBuilder()
            .followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(Duration.ofSeconds(5));
    if (tls != null) {
      builder.sslContext(tls);
    }
    return builder.build();
  }

  private static Answer send(HttpRequest.Builder request) {
    return send(CLIENT, request);
  }

  private static Answer send(HttpClient client, HttpRequest.Builder request) {
    try {
      HttpResponse<String> response =
          client.send(
              request.timeout(Duration.ofSeconds(30)).build(),
              HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      return new Answer(response.statusCode(), response.headers(), response.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static Answer get(String url, String... headers) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).GET();
    if (headers.length > 0) {
      request.headers(headers);
    }
    return send(request);
  }

  private static String origin(VfpsServer server) {
    return "http://127.0.0.1:" + server.httpPort();
  }

  /** A started sign-in: the flow cookie's name and value, and the callback the provider chose. */
  record Flow(String cookieName, String cookieValue, String callback) {

    String cookieHeader() {
      return cookieName + "=" + cookieValue;
    }
  }

  /**
   * Starts a sign-in on {@code server} and signs the user in at the provider, as the browser would;
   * yields the flow up to the callback, which is not called.
   */
  private static Flow startAndChoose(VfpsServer server, String user, String returnUrl) {
    Answer login =
        get(
            origin(server)
                + "/ui/authentication/login?returnUrl="
                + URLEncoder.encode(returnUrl, StandardCharsets.UTF_8));
    assertThat(login.status()).isEqualTo(302);
    String setCookie =
        login.headers().allValues("set-cookie").stream()
            .filter(cookie -> cookie.startsWith("vfps_signin_"))
            .findFirst()
            .orElseThrow();
    String cookieName = setCookie.substring(0, setCookie.indexOf('='));
    Answer form = get(login.location());
    assertThat(form.status()).as(form.body()).isEqualTo(200);
    Matcher flow = FLOW.matcher(form.body());
    assertThat(flow.find()).isTrue();
    Answer chosen =
        send(
            HttpRequest.newBuilder(
                    URI.create(provider.issuer() + "/protocol/openid-connect/auth/login"))
                .header("content-type", "application/x-www-form-urlencoded")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "flow=" + flow.group(1) + "&user=" + user)));
    assertThat(chosen.status()).isEqualTo(302);
    return new Flow(cookieName, login.cookie(cookieName), chosen.location());
  }

  /** The callback of the flow, sent to {@code server} with the flow's cookie. */
  private static Answer finish(VfpsServer server, Flow flow, String cookieHeader) {
    URI callback = URI.create(flow.callback());
    String target = origin(server) + callback.getRawPath() + "?" + callback.getRawQuery();
    return cookieHeader == null ? get(target) : get(target, "cookie", cookieHeader);
  }

  /** A signed-in session of the user on the first service: the session cookie's header. */
  private static String signIn(String user) {
    Flow flow = startAndChoose(first, user, "/ui/");
    Answer done = finish(first, flow, flow.cookieHeader());
    assertThat(done.status()).isEqualTo(302);
    return "vfps_session=" + done.cookie("vfps_session");
  }

  @Test
  void aSignInStartedOnOneReplicaIsFinishedOnTheOther() {
    Flow flow = startAndChoose(first, "admin", "/ui/csv?from=deep-link");
    assertThat(flow.callback()).startsWith(origin(first) + "/ui/authentication/callback?code=");

    Answer done = finish(second, flow, flow.cookieHeader());

    assertThat(done.status()).isEqualTo(302);
    assertThat(done.location()).isEqualTo("/ui/csv?from=deep-link");
    assertThat(done.setCookie(flow.cookieName())).contains("Max-Age=0");
    String session = "vfps_session=" + done.cookie("vfps_session");
    JsonObject reported = get(origin(first) + "/ui/session", "cookie", session).json();
    assertThat(reported.getJsonObject("user").getString("subject")).isEqualTo("admin");
  }

  @Test
  void theSessionSaysWhoIsSignedInAndWhatTheRulesLetThemDo() {
    JsonObject reader = get(origin(first) + "/ui/session", "cookie", signIn("reader")).json();

    assertThat(reader.getBoolean("authorization")).isTrue();
    assertThat(reader.getJsonObject("signIn").getBoolean("configured")).isTrue();
    assertThat(reader.getJsonObject("user").getMap())
        .containsEntry("subject", "reader")
        .containsEntry("name", "Rita Reader")
        .containsEntry("username", "reader")
        .containsEntry("email", "reader@example.org");
    // every role of the token, sorted: a database grant may name any of them
    assertThat(reader.getJsonArray("roles")).containsExactly("study-read", "unrelated");
    JsonObject permissions = reader.getJsonObject("permissions");
    assertThat(permissions.getBoolean("admin")).isFalse();
    assertThat(permissions.getJsonArray("read")).containsExactly("*");
    assertThat(permissions.getJsonArray("write")).isEmpty();
    assertThat(permissions.getJsonArray("reverseLookup")).isEmpty();
    assertThat(reader.getString("csrfToken")).hasSizeGreaterThan(20);
    assertThat(reader.getString("expiresAt")).endsWith("Z");
    assertThat(get(origin(first) + "/ui/access", "cookie", signIn("reader")).status())
        .isEqualTo(403);

    String admin = signIn("admin");
    JsonObject adminSession = get(origin(first) + "/ui/session", "cookie", admin).json();
    assertThat(adminSession.getJsonObject("permissions").getBoolean("admin")).isTrue();
    assertThat(adminSession.getJsonObject("permissions").getJsonArray("reverseLookup"))
        .containsExactly("*");
    JsonObject access = get(origin(first) + "/ui/access", "cookie", admin).json();
    assertThat(access.getJsonArray("adminRoles")).containsExactly("vfps-admin");
    assertThat(access.getJsonArray("rules"))
        .extracting(rule -> ((JsonObject) rule).getString("namespace"))
        .containsExactly(namespace, "*");
    JsonObject effective =
        access.getJsonArray("namespaces").stream()
            .map(JsonObject.class::cast)
            .filter(entry -> entry.getString("namespace").equals(namespace))
            .findFirst()
            .orElseThrow();
    assertThat(effective.getJsonArray("readRoles")).containsExactly("all-read", "study-read");
    assertThat(effective.getJsonArray("writeRoles")).containsExactly("study-write");
    assertThat(effective.getJsonArray("reverseLookupRoles")).containsExactly("study-auditor");
    assertThat(get(origin(first) + "/ui/access").status()).isEqualTo(401);
  }

  @Test
  void theAccessPageListsTheFirstThousandNamespacesByNameAndSaysSo() {
    String admin = signIn("admin");
    JsonObject before = get(origin(first) + "/ui/access", "cookie", admin).json();
    assertThat(before.getBoolean("namespacesTruncated")).isFalse();
    TestPostgres.execute(
        database,
        "INSERT INTO namespaces SELECT 'zz-' || lpad(i::text, 4, '0'), '', 0, 16, '', '', now(),"
            + " now() FROM generate_series(1, 1000) i ON CONFLICT DO NOTHING");

    JsonObject access = get(origin(first) + "/ui/access", "cookie", admin).json();

    assertThat(access.getBoolean("namespacesTruncated")).isTrue();
    List<String> listed =
        access.getJsonArray("namespaces").stream()
            .map(entry -> ((JsonObject) entry).getString("namespace"))
            .toList();
    assertThat(listed).hasSize(1_000).isSorted().contains(namespace).doesNotContain("zz-1000");
  }

  @Test
  void aCallbackWithoutItsFlowOrWithAUsedCodeIsRefused() {
    Flow flow = startAndChoose(first, "admin", "/ui/");
    Flow other = startAndChoose(first, "admin", "/ui/");

    assertThat(finish(first, flow, null).status()).isEqualTo(400);
    // another flow's cookie under this flow's name
    Answer foreign = finish(first, flow, flow.cookieName() + "=" + other.cookieValue());
    assertThat(foreign.status()).isEqualTo(400);
    assertThat(foreign.body()).contains("unknown or has expired");
    assertThat(finish(first, flow, flow.cookieHeader()).status()).isEqualTo(302);
    Answer replayed = finish(first, flow, flow.cookieHeader());
    assertThat(replayed.status()).isEqualTo(400);
    assertThat(replayed.body()).contains("invalid_grant");
    assertThat(replayed.headers().allValues("set-cookie"))
        .noneMatch(cookie -> cookie.startsWith("vfps_session="));

    Answer denied =
        get(
            origin(first)
                + "/ui/authentication/callback?error=access_denied&error_description=%3Cb%3Eno"
                + "&state="
                + flow.cookieName().substring("vfps_signin_".length()));
    assertThat(denied.status()).isEqualTo(401);
    assertThat(denied.body()).contains("(access_denied)").doesNotContain("<b>");
    assertThat(get(origin(first) + "/ui/authentication/callback?code=x").status()).isEqualTo(400);
  }

  @Test
  void aTamperedSessionCookieIsNoCredential() {
    String session = signIn("admin");
    int middle = session.length() / 2;
    char flipped = session.charAt(middle) == 'A' ? 'B' : 'A';
    String tampered = session.substring(0, middle) + flipped + session.substring(middle + 1);

    Answer refused = get(origin(first) + "/v1/namespaces/" + namespace, "cookie", tampered);

    assertThat(refused.status()).isEqualTo(401);
    assertThat(refused.json().getString("message")).contains("not one of vfps");
    assertThat(get(origin(first) + "/ui/session", "cookie", tampered).json().getValue("user"))
        .isNull();
    Answer page = get(origin(first) + "/ui/namespaces", "cookie", tampered);
    assertThat(page.status()).isEqualTo(302);
    assertThat(page.location()).isEqualTo("/ui/authentication/login?returnUrl=%2Fui%2Fnamespaces");
    assertThat(get(origin(first) + "/v1/namespaces/" + namespace, "cookie", session).status())
        .isEqualTo(200);
  }

  @Test
  void aFormSignOutEndsTheSessionAndGoesToTheProvider() {
    String session = signIn("admin");
    String token =
        get(origin(first) + "/ui/session", "cookie", session).json().getString("csrfToken");

    Answer out =
        send(
            HttpRequest.newBuilder(URI.create(origin(first) + "/ui/authentication/logout"))
                .header("cookie", session)
                .header("content-type", "application/x-www-form-urlencoded")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "csrfToken=" + URLEncoder.encode(token, StandardCharsets.UTF_8))));

    assertThat(out.status()).isEqualTo(303);
    assertThat(out.location())
        .isEqualTo(
            provider.issuer()
                + "/protocol/openid-connect/logout?client_id=vfps-web&post_logout_redirect_uri="
                + URLEncoder.encode(origin(first) + "/ui/", StandardCharsets.UTF_8));
    assertThat(out.setCookie("vfps_session")).contains("Max-Age=0");
  }

  /** The session's CSRF token, as a page reads it. */
  private static String csrfToken(String session) {
    return get(origin(first) + "/ui/session", "cookie", session).json().getString("csrfToken");
  }

  private static Map<String, String> bearer() {
    return Map.of("authorization", "Bearer " + provider.token("alice", "vfps-admin"));
  }

  /** Whether the original value has a pseudonym in the namespace (asked with a bearer token). */
  private static boolean pseudonymized(HttpTestClient http, String original) {
    int status =
        http.send(
                "POST",
                "/v1/namespaces/" + namespace + "/pseudonyms:resolve",
                bearer(),
                new JsonObject().put("originalValue", original).encode())
            .status();
    assertThat(status).isIn(200, 404);
    return status == 200;
  }

  private static String parameters(String... namesAndValues) {
    JsonArray parameters = new JsonArray();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      parameters.add(
          new JsonObject()
              .put("name", namesAndValues[i])
              .put("valueString", namesAndValues[i + 1]));
    }
    return new JsonObject().put("resourceType", "Parameters").put("parameter", parameters).encode();
  }

  @Test
  void theSessionCookieAuthenticatesTheUisApiOnlyNeverFhir() {
    String session = signIn("admin");
    String token = csrfToken(session);
    HttpTestClient http = resources.own(new HttpTestClient(first.httpPort()));
    String original = "navigated-" + UUID.randomUUID();
    String query = "?domain=" + namespace + "&original=" + original;

    // a link on another site that a signed-in browser follows: SameSite=Lax sends the cookie
    Answer navigated =
        get(
            origin(first) + "/ttp-fhir/fhir/gpas/$pseudonymize-allow-create" + query,
            "cookie",
            session);
    assertThat(navigated.status()).isEqualTo(401);
    assertThat(navigated.body()).contains("OperationOutcome", "no credentials");
    // the FHIR operations of every base ignore the cookie, with its CSRF token too
    Map<String, String> cookieAndToken =
        Map.of("cookie", session, "x-csrf-token", token, "content-type", "application/fhir+json");
    for (String target :
        List.of(
            "/v1/fhir/$create-pseudonym|namespace|originalValue",
            "/ttp-fhir/fhir/gpas/$pseudonymizeAllowCreate|target|original",
            "/ttp-fhir/fhir/gpas/$pseudonymize-allow-create|target|original")) {
      String[] parts = target.split("\\|");
      Answer posted =
          send(
              HttpRequest.newBuilder(URI.create(origin(first) + parts[0]))
                  .headers(
                      cookieAndToken.entrySet().stream()
                          .flatMap(h -> java.util.stream.Stream.of(h.getKey(), h.getValue()))
                          .toArray(String[]::new))
                  .POST(
                      HttpRequest.BodyPublishers.ofString(
                          parameters(parts[1], namespace, parts[2], original))));
      assertThat(posted.status()).as(parts[0]).isEqualTo(401);
    }
    assertThat(pseudonymized(http, original)).isFalse();

    // the GET form works for a client with credentials
    Answer withCredentials =
        get(
            origin(first) + "/ttp-fhir/fhir/gpas/$pseudonymize-allow-create" + query,
            "authorization",
            bearer().get("authorization"));
    assertThat(withCredentials.status()).isEqualTo(200);
    assertThat(pseudonymized(http, original)).isTrue();
    // and the cookie still authenticates the pages' API
    assertThat(get(origin(first) + "/v1/namespaces/" + namespace, "cookie", session).status())
        .isEqualTo(200);
  }

  /**
   * The spellings of a path that the router matches as the path itself: an empty segment, a dot
   * segment, a percent-encoded letter, a segment and its {@code ..}.
   */
  private static List<String> spellings(String path) {
    return List.of(
        "/" + path,
        "/." + path,
        "/%" + Integer.toHexString(path.charAt(1)) + path.substring(2),
        "/x/.." + path);
  }

  @Test
  void theCsrfCheckReadsThePathAsTheRouterMatchesIt() {
    String session = signIn("admin");
    String token = csrfToken(session);
    HttpTestClient http = resources.own(new HttpTestClient(first.httpPort()));
    String original = "kept-" + UUID.randomUUID();
    assertThat(
            http.send(
                    "POST",
                    "/v1/namespaces/" + namespace + "/pseudonyms",
                    bearer(),
                    new JsonObject().put("originalValue", original).encode())
                .status())
        .isEqualTo(200);

    for (String target : spellings("/v1/namespaces")) {
      String name = "forged-" + UUID.randomUUID().toString().substring(0, 8);
      String draft = new JsonObject().put("name", name).put("pseudonymLength", 16).encode();

      HttpTestClient.Response forged = http.raw("POST", target, Map.of("cookie", session), draft);

      assertThat(forged.status()).as(target).isEqualTo(403);
      assertThat(forged.body()).as(target).contains("X-CSRF-Token");
      assertThat(http.send("GET", "/v1/namespaces/" + name, bearer(), null).status())
          .as(target)
          .isEqualTo(404);
      HttpTestClient.Response withToken =
          http.raw("POST", target, Map.of("cookie", session, "X-CSRF-Token", token), draft);
      assertThat(withToken.status()).as(target).isEqualTo(200);
    }
    String anonymize = "/x/v1/namespaces/" + namespace + "/pseudonyms:anonymize";
    String body = new JsonObject().put("originalValue", original).encode();
    for (String target : spellings(anonymize)) {
      HttpTestClient.Response forged = http.raw("POST", target, Map.of("cookie", session), body);

      assertThat(forged.status()).as(target).isEqualTo(403);
      assertThat(pseudonymized(http, original)).as(target).isTrue();
    }
  }

  /** Opens and seals sessions under the key of this class's database. */
  private static TestSessions sessions() {
    io.vertx.core.Vertx vertx = io.vertx.core.Vertx.vertx();
    try (Database opened = Database.connect(vertx, database)) {
      return new TestSessions(opened.uiSessionKey().await());
    } finally {
      vertx.close().await();
    }
  }

  @Test
  void aSessionIsNotRenewedPastItsEnd() {
    String session = signIn("admin");
    TestSessions sessions = sessions();
    String renewable =
        "vfps_session=" + sessions.expired(session.substring("vfps_session=".length()), true);
    String past =
        "vfps_session=" + sessions.pastItsEnd(session.substring("vfps_session=".length()));
    long refreshes = provider.grants().stream().filter("refresh_token"::equals).count();

    Answer ended = get(origin(first) + "/ui/session", "cookie", past);

    assertThat(ended.json().getValue("user")).isNull();
    assertThat(ended.setCookie("vfps_session")).contains("Max-Age=0");
    assertThat(provider.grants().stream().filter("refresh_token"::equals).count())
        .isEqualTo(refreshes);
    Answer page = get(origin(first) + "/ui/namespaces", "cookie", past);
    assertThat(page.status()).isEqualTo(302);
    assertThat(page.location()).startsWith("/ui/authentication/login");
    // before its end, the same session is renewed
    Answer renewed = get(origin(first) + "/ui/session", "cookie", renewable);
    assertThat(renewed.json().getJsonObject("user").getString("subject")).isEqualTo("admin");
  }

  @Test
  void aSignedOutSessionIsRefusedOnEveryReplica() {
    String session = signIn("admin");
    String token = csrfToken(session);
    TestSessions sessions = sessions();
    String ended =
        "vfps_session=" + sessions.expired(session.substring("vfps_session=".length()), true);
    assertThat(get(origin(second) + "/v1/namespaces/" + namespace, "cookie", session).status())
        .isEqualTo(200);

    Answer out =
        send(
            HttpRequest.newBuilder(URI.create(origin(first) + "/ui/authentication/logout"))
                .header("cookie", session)
                .header("x-csrf-token", token)
                .header("accept", "application/json")
                .POST(HttpRequest.BodyPublishers.noBody()));
    assertThat(out.status()).isEqualTo(200);

    for (VfpsServer server : List.of(first, second)) {
      Answer api = get(origin(server) + "/v1/namespaces/" + namespace, "cookie", session);
      assertThat(api.status()).isEqualTo(401);
      assertThat(api.json().getString("message")).contains("signed out");
      assertThat(get(origin(server) + "/ui/session", "cookie", session).json().getValue("user"))
          .isNull();
      Answer page = get(origin(server) + "/ui/namespaces", "cookie", session);
      assertThat(page.status()).isEqualTo(302);
      assertThat(page.location()).startsWith("/ui/authentication/login");
      // the login starts a new sign-in at the provider instead of going back to the page
      Answer login =
          get(origin(server) + "/ui/authentication/login?returnUrl=%2Fui%2F", "cookie", session);
      assertThat(login.location()).startsWith(provider.issuer());
      // a copy of the cookie whose time is up is not renewed with its refresh token
      long refreshes = provider.grants().stream().filter("refresh_token"::equals).count();
      Answer renewal = get(origin(server) + "/ui/session", "cookie", ended);
      assertThat(renewal.json().getValue("user")).isNull();
      assertThat(provider.grants().stream().filter("refresh_token"::equals).count())
          .isEqualTo(refreshes);
    }
    // another sign-in of the same user is not affected
    assertThat(
            get(origin(second) + "/v1/namespaces/" + namespace, "cookie", signIn("admin")).status())
        .isEqualTo(200);
  }

  @Test
  void forwardedHeadersCountOnlyFromTrustedProxies() {
    // the first service trusts no proxy: a client's X-Forwarded-* headers are its own words
    Answer untrusted =
        get(
            origin(first) + "/ui/authentication/login?returnUrl=%2Fui%2F",
            "x-forwarded-proto",
            "https",
            "x-forwarded-host",
            "evil.example");
    assertThat(untrusted.status()).isEqualTo(302);
    // the request was pushed: the provider shows what it holds once the browser arrives
    assertThat(get(untrusted.location()).status()).isEqualTo(200);
    assertThat(provider.authorizationRequests().getLast().parameters())
        .containsEntry("redirect_uri", origin(first) + "/ui/authentication/callback");
    assertThat(untrusted.headers().allValues("set-cookie")).noneMatch(c -> c.contains("Secure"));

    // the second trusts the loopback address, where this test's requests come from
    Answer trusted =
        get(
            origin(second) + "/ui/authentication/login?returnUrl=%2Fui%2F",
            "x-forwarded-proto",
            "https",
            "x-forwarded-host",
            "vfps.example.org");
    assertThat(URLDecoder.decode(trusted.location(), StandardCharsets.UTF_8))
        .contains("redirect_uri=https://vfps.example.org/ui/authentication/callback");
  }

  @Test
  void theCookiesAreSecureWhenTheBrowserSpeaksHttps(@TempDir Path directory) {
    // behind a proxy that ends TLS and says so
    Answer proxied =
        get(
            origin(second) + "/ui/authentication/login?returnUrl=%2Fui%2F",
            "x-forwarded-proto",
            "https",
            "x-forwarded-host",
            "vfps.example.org");
    assertThat(proxied.status()).isEqualTo(302);
    assertThat(URLDecoder.decode(proxied.location(), StandardCharsets.UTF_8))
        .contains("redirect_uri=https://vfps.example.org/ui/authentication/callback");
    String flowCookie =
        proxied.headers().allValues("set-cookie").stream()
            .filter(cookie -> cookie.startsWith("vfps_signin_"))
            .findFirst()
            .orElseThrow();
    assertThat(flowCookie.toLowerCase(java.util.Locale.ROOT))
        .contains(
            "; path=/ui/authentication/",
            "; max-age=600",
            "; secure",
            "; httponly",
            "; samesite=lax");
    Answer direct = get(origin(second) + "/ui/authentication/login?returnUrl=%2Fui%2F");
    assertThat(direct.headers().allValues("set-cookie")).noneMatch(c -> c.contains("Secure"));
    assertThat(
            get(
                    origin(second) + "/ui/authentication/login",
                    "x-forwarded-host",
                    "evil.example/path")
                .status())
        .isEqualTo(400);

    // TLS on the listener
    TestCertificates certificates = TestCertificates.authority(directory);
    TestCertificates.Issued issued =
        certificates.issue("server", TestCertificates.KeyType.RSA_PKCS8);
    Map<String, String> env =
        SignInIT.settings(
            provider,
            namespace,
            Map.of("ConnectionStrings__PostgreSQL", TestPostgres.uri(database)));
    env.put("Kestrel__Certificates__Default__Path", issued.certificate().toString());
    env.put("Kestrel__Certificates__Default__KeyPath", issued.key().toString());
    env.put("Authorization__UsePushedAuthorizationRequests", "false");
    try (VfpsServer tls = TestService.start(env)) {
      String origin = "https://127.0.0.1:" + tls.httpPort();
      Answer login =
          send(
              client(certificates.clientContext()),
              HttpRequest.newBuilder(
                      URI.create(origin + "/ui/authentication/login?returnUrl=%2Fui%2F"))
                  .GET());
      assertThat(URLDecoder.decode(login.location(), StandardCharsets.UTF_8))
          .contains("redirect_uri=" + origin + "/ui/authentication/callback");
      assertThat(login.headers().allValues("set-cookie"))
          .anyMatch(cookie -> cookie.startsWith("vfps_signin_") && cookie.contains("; Secure"));
    }
  }

  @Test
  void withoutAClientTheUiSaysSignInIsNotConfiguredAndTheApiWorks() {
    ListAppender<ILoggingEvent> logs = new ListAppender<>();
    Logger root = (Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);
    logs.start();
    root.addAppender(logs);
    Map<String, String> env =
        SignInIT.settings(
            provider,
            namespace,
            Map.of("ConnectionStrings__PostgreSQL", TestPostgres.uri(database)));
    env.remove("Authorization__ClientId");
    env.remove("Authorization__ClientSecret");
    VfpsServer server;
    try {
      server = TestService.start(env);
    } finally {
      root.detachAppender(logs);
      logs.stop();
    }
    try (server) {
      List<String> warnings =
          logs.list.stream()
              .filter(event -> event.getLevel() == Level.WARN)
              .map(ILoggingEvent::getFormattedMessage)
              .filter(message -> message.contains("sign-in is not configured"))
              .toList();
      assertThat(warnings).hasSize(1);
      assertThat(warnings.get(0)).contains("Authorization__ClientId", "the API is not affected");

      String origin = origin(server);
      JsonObject session = get(origin + "/ui/session").json();
      assertThat(session.getJsonObject("signIn").getBoolean("configured")).isFalse();
      assertThat(session.getValue("user")).isNull();
      assertThat(session.getJsonObject("permissions").getJsonArray("read"))
          .isEqualTo(new JsonArray());
      assertThat(get(origin + "/ui/namespaces").status()).isEqualTo(200);
      Answer login = get(origin + "/ui/authentication/login");
      assertThat(login.status()).isEqualTo(503);
      assertThat(login.body()).contains("Sign-in is not configured", "Authorization__ClientId");
      assertThat(
              get(
                      origin + "/v1/namespaces/" + namespace,
                      "authorization",
                      "Bearer " + provider.token("rita", "study-read"))
                  .status())
          .isEqualTo(200);
      assertThat(get(origin + "/v1/namespaces/" + namespace, "cookie", signIn("admin")).status())
          .isEqualTo(401);

      Browser.assumeInstalled();
      try (Browser browser = new Browser(server.httpPort())) {
        browser.open("/ui/namespaces");
        assertThat(browser.textContaining("#sign-in-not-configured", "Authorization__ClientSecret"))
            .contains("The API works without them.");
        assertThat(browser.find("h1").getText()).isEqualTo("Sign-in is not configured");
      }
    }
  }
}
