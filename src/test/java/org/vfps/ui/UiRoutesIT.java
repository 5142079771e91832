package org.vfps.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.ClassResources;
import org.vfps.HttpTestClient;
import org.vfps.HttpTestClient.Response;
import org.vfps.TestService;
import org.vfps.server.BuildInfo;
import org.vfps.server.VfpsServer;

/** What /ui answers over plain HTTP: the page, its assets, the session, and what is not there. */
class UiRoutesIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static final Pattern ASSET = Pattern.compile("(?:src|href)=\"(/ui/assets/[^\"]+)\"");
  private static final Pattern IMPORT = Pattern.compile("from '(\\.{1,2}/[^']+)'");

  private static VfpsServer server;
  private static HttpTestClient http;

  @BeforeAll
  static void start() {
    server = resources.own(TestService.start());
    http = resources.own(new HttpTestClient(server.httpPort()));
  }

  @Test
  void everyRouteOfTheAppAnswersThePageUncached() {
    String study = "study-" + UUID.randomUUID();
    String url = "https://example.org/fhir/ids/" + UUID.randomUUID();
    for (String name : List.of(study, url)) {
      assertThat(
              http.postJson(
                      "/v1/namespaces",
                      new JsonObject()
                          .put("name", name)
                          .put("pseudonymGenerationMethod", "PSEUDONYM_GENERATION_METHOD_UUID4")
                          .put("pseudonymLength", 36)
                          .encode())
                  .status())
          .isEqualTo(200);
    }
    for (String path :
        List.of(
            "/ui/",
            "/ui/namespaces",
            "/ui/namespaces/" + study + "/pseudonyms",
            "/ui/namespaces/" + URLEncoder.encode(url, StandardCharsets.UTF_8) + "/pseudonyms",
            "/ui/csv",
            "/ui/access-control",
            "/ui/access-tokens",
            "/ui/service-accounts",
            "/ui/service-accounts/etl-pseudonymizer")) {
      Response page = http.get(path);
      assertThat(page.status()).as(path).isEqualTo(200);
      assertThat(page.contentType()).isEqualTo("text/html; charset=utf-8");
      assertThat(page.headers().firstValue("cache-control")).hasValue("no-cache");
      assertThat(page.body()).contains("<main id=\"main\"");
      assertSecured(page, path);
    }
  }

  @Test
  void theBarePathRedirectsToTheApp() {
    Response response = http.get("/ui");
    assertThat(response.status()).isEqualTo(302);
    assertThat(response.headers().firstValue("location")).hasValue("/ui/");
  }

  @Test
  void aPathUnderUiThatIsNoPageAnswersTheAppWithNotFound() {
    for (String path :
        List.of(
            "/ui/nope",
            "/ui/namespaces/study",
            "/ui/namespaces/study/pseudonyms/extra",
            "/ui/namespaces/%E0%A4/pseudonyms",
            "/ui/namespaces/no-such-namespace-" + UUID.randomUUID() + "/pseudonyms",
            "/ui/csv/extra",
            "/ui/access-tokens/extra",
            "/ui/service-accounts/etl/tokens")) {
      Response page = http.get(path);
      assertThat(page.status()).as(path).isEqualTo(404);
      assertThat(page.contentType()).as(path).isEqualTo("text/html; charset=utf-8");
      assertThat(page.body()).as(path).contains("<main id=\"main\"");
      assertSecured(page, path);
    }
  }

  @Test
  void missingAssetsAndSignInPathsKeepTheJsonNotFound() {
    for (String path :
        List.of(
            "/ui/assets/nope.js",
            "/ui/assets/",
            "/ui/assets/../index.html",
            "/ui/authentication/nope")) {
      Response response = http.get(path);
      assertThat(response.status()).as(path).isEqualTo(404);
      assertThat(response.contentType()).as(path).startsWith("application/json");
      assertThat(response.json().getInteger("code")).as(path).isEqualTo(5);
    }
  }

  @Test
  void thePageLoadsOnlyScriptsAndStylesOfItsOwnWithoutInlineScript() {
    String page = http.get("/ui/").body();
    assertThat(page)
        .doesNotContain("http://", "https://", "style=")
        .doesNotContainPattern(" on[a-z]+=");
    // every script element names its source: nothing inline, which the policy would block
    assertThat(page.split("<script").length - 1)
        .isEqualTo(page.split("<script[^>]* src=\"/ui/assets/").length - 1);

    List<String> assets = new ArrayList<>();
    Matcher matcher = ASSET.matcher(page);
    while (matcher.find()) {
      assets.add(matcher.group(1));
    }
    assertThat(assets).contains("/ui/assets/app.js", "/ui/assets/app.css");
    // the modules the app imports, followed one level at a time
    for (int i = 0; i < assets.size(); i++) {
      String asset = assets.get(i);
      Response response = http.get(asset);
      assertThat(response.status()).as(asset).isEqualTo(200);
      assertThat(response.headers().firstValue("cache-control")).as(asset).hasValue("no-cache");
      assertThat(response.headers().firstValue("last-modified")).as(asset).isPresent();
      assertSecured(response, asset);
      if (asset.endsWith(".js")) {
        assertThat(response.contentType()).startsWith("text/javascript");
        Matcher imports = IMPORT.matcher(response.body());
        while (imports.find()) {
          String resolved = URI.create("http://x" + asset).resolve(imports.group(1)).getPath();
          if (!assets.contains(resolved)) {
            assets.add(resolved);
          }
        }
      }
    }
    assertThat(assets)
        .contains(
            "/ui/assets/api.js",
            "/ui/assets/csv.js",
            "/ui/assets/batch.js",
            "/ui/assets/pages/csv.js");
  }

  @Test
  void anAssetIsRevalidatedWithNotModified() throws Exception {
    Response first = http.get("/ui/assets/app.css");
    String lastModified = first.headers().firstValue("last-modified").orElseThrow();
    HttpResponse<String> again =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + server.httpPort() + "/ui/assets/app.css"))
                    .header("If-Modified-Since", lastModified)
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(again.statusCode()).isEqualTo(304);
    assertThat(again.body()).isEmpty();
  }

  @Test
  void theSessionSaysAuthorizationIsOffAndEveryoneMayDoEverything() {
    Response response = http.get("/ui/session");

    assertThat(response.status()).isEqualTo(200);
    assertThat(response.contentType()).isEqualTo("application/json; charset=utf-8");
    assertThat(response.headers().firstValue("cache-control")).hasValue("no-store");
    JsonObject session = response.json();
    assertThat(session.getBoolean("authorization")).isFalse();
    assertThat(session.containsKey("user")).isTrue();
    assertThat(session.getValue("user")).isNull();
    assertThat(session.getJsonArray("roles")).isEmpty();
    JsonObject permissions = session.getJsonObject("permissions");
    assertThat(permissions.getBoolean("admin")).isTrue();
    for (String permission : List.of("read", "write", "reverseLookup")) {
      assertThat(permissions.getJsonArray(permission)).containsExactly("*");
    }
    assertThat(session.getString("version")).isEqualTo(BuildInfo.current().version());
    assertThat(session.getString("revision")).isEqualTo(BuildInfo.current().revision());
    assertThat(session.getJsonObject("limits").getInteger("maxRequestBodyBytes"))
        .isEqualTo(1048576);
    // tokens need authorization on; the lifetimes are the defaults, in days
    assertThat(session.getJsonObject("accessTokens").getMap())
        .isEqualTo(Map.of("enabled", false, "defaultLifetimeDays", 90, "maximumLifetimeDays", 365));
    // the methods the settings decide, for the namespace form: SHA-256 on, no VOPRF server
    JsonObject generation = session.getJsonObject("generation");
    assertThat(generation.getBoolean("sha256")).isTrue();
    assertThat(generation.containsKey("voprfLength")).isTrue();
    assertThat(generation.getValue("voprfLength")).isNull();
  }

  private static void assertSecured(Response response, String what) {
    String policy = response.headers().firstValue("content-security-policy").orElse("");
    assertThat(policy)
        .as(what)
        .contains("default-src 'none'", "script-src 'self'", "frame-ancestors 'none'")
        .doesNotContain("unsafe-inline", "unsafe-eval");
    assertThat(response.headers().firstValue("x-content-type-options")).hasValue("nosniff");
  }
}
