package org.vfps.ui;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.StaticHandler;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import org.vfps.access.Permissions;
import org.vfps.auth.SignIn;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.namespace.GenerationSupport;
import org.vfps.namespace.NamespaceService;
import org.vfps.text.StrictDecoding;

/**
 * The admin UI under {@code /ui}: one HTML page for every route of the app (so that a deep link
 * survives a reload), its assets, {@code GET /ui/session}, which tells the page who is signed in,
 * what they may do, whether access tokens are on and which methods make pseudonyms, and the sign-in
 * under {@code /ui/authentication/}. With a sign-in, a page requested without a session is answered
 * with a redirect to the login, which comes back to it. Every other {@code GET /ui/...} path, and
 * the page of a namespace that does not exist, is answered the same page with status 404, where the
 * app draws its "not found" view; missing assets and sign-in paths keep the router's JSON 404.
 *
 * <p>Every answer carries a strict {@code Content-Security-Policy} (scripts, styles and requests
 * from this origin only, no inline script, no framing). Nothing is cached without revalidation: the
 * assets are small and change with every release.
 */
public final class UiRoutes {

  /** The routes of the app; each answers the same page, which draws the route. */
  static final List<String> PAGES =
      List.of(
          "/ui/",
          "/ui/namespaces",
          "/ui/namespaces/:name/pseudonyms",
          "/ui/csv",
          "/ui/access-control",
          "/ui/access-tokens",
          "/ui/service-accounts",
          "/ui/service-accounts/:account");

  /**
   * The pages' policy: everything from this origin only, but for the uploads of CSV jobs, which go
   * straight to the object store ({@code %s}: its origin, or nothing).
   */
  static final String CONTENT_SECURITY_POLICY =
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
          + " connect-src 'self'%s; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

  private static final String PAGE = "ui/index.html";
  private static final String ASSETS = "ui/assets";

  /**
   * What the UI needs.
   *
   * @param version the service's version, shown in the footer
   * @param revision the git revision the service was built from, shown beside the version
   * @param maxRequestBodyBytes the HTTP body limit, which bounds the batches the CSV page sends
   * @param authorization whether authorization is on
   * @param signIn the sign-in; empty when authorization is off or no client is configured
   * @param permissions the rules, for what the pages show a user may do
   * @param namespaces the namespaces, for the Access control page
   * @param accessTokens whether access tokens are on and their lifetimes, for the token forms
   * @param generation which methods make new pseudonyms here, for the namespace form
   * @param objectStoreOrigin where the CSV page uploads the files of server-side jobs to ({@code
   *     scheme://host[:port]}); empty when CSV jobs are off
   * @param trustedProxy whether a peer's IP address is a proxy whose {@code X-Forwarded-Proto} and
   *     {@code X-Forwarded-Host} count ({@code Http__TrustedProxies})
   */
  public record Dependencies(
      String version,
      String revision,
      int maxRequestBodyBytes,
      boolean authorization,
      Optional<SignIn> signIn,
      Permissions permissions,
      NamespaceService namespaces,
      AccessTokenSettings accessTokens,
      GenerationSupport generation,
      Optional<String> objectStoreOrigin,
      Predicate<String> trustedProxy) {

    public Dependencies {
      Objects.requireNonNull(trustedProxy, "trustedProxy");
      Objects.requireNonNull(objectStoreOrigin, "objectStoreOrigin");
      Objects.requireNonNull(version, "version");
      Objects.requireNonNull(revision, "revision");
      Objects.requireNonNull(signIn, "signIn");
      Objects.requireNonNull(permissions, "permissions");
      Objects.requireNonNull(namespaces, "namespaces");
      Objects.requireNonNull(accessTokens, "accessTokens");
      Objects.requireNonNull(generation, "generation");
    }
  }

  /**
   * What the token forms need to know of {@code Authorization__AccessTokens__*}.
   *
   * @param enabled whether access tokens are on ({@code IsEnabled})
   * @param defaultLifetime the lifetime of a token created without one ({@code DefaultLifetime})
   * @param maximumLifetime the longest lifetime; zero for no cap ({@code MaximumLifetime})
   */
  public record AccessTokenSettings(
      boolean enabled, Duration defaultLifetime, Duration maximumLifetime) {

    public AccessTokenSettings {
      Objects.requireNonNull(defaultLifetime, "defaultLifetime");
      Objects.requireNonNull(maximumLifetime, "maximumLifetime");
    }
  }

  private final Optional<SignIn> signIn;
  private final NamespaceService namespaces;
  private final SessionRoutes sessions;
  private final SignInRoutes signInRoutes;
  private final String contentSecurityPolicy;

  public UiRoutes(Dependencies dependencies) {
    this.contentSecurityPolicy =
        CONTENT_SECURITY_POLICY.formatted(
            dependencies.objectStoreOrigin().map(origin -> " " + origin).orElse(""));
    this.signIn = dependencies.signIn();
    this.namespaces = dependencies.namespaces();
    SessionCookies cookies = new SessionCookies(dependencies.trustedProxy());
    this.sessions =
        new SessionRoutes(
            dependencies.authorization(),
            dependencies.signIn(),
            dependencies.permissions(),
            dependencies.namespaces(),
            new JsonObject()
                .put("version", dependencies.version())
                .put("revision", dependencies.revision())
                .put(
                    "limits",
                    new JsonObject().put("maxRequestBodyBytes", dependencies.maxRequestBodyBytes()))
                .put("accessTokens", accessTokens(dependencies.accessTokens()))
                .put("generation", generation(dependencies.generation())),
            cookies);
    this.signInRoutes =
        new SignInRoutes(dependencies.authorization(), dependencies.signIn(), cookies);
  }

  /**
   * What the token forms need: whether tokens are on, and the lifetimes in whole days (rounded
   * down), the maximum null when there is none.
   */
  private static JsonObject accessTokens(AccessTokenSettings tokens) {
    Duration maximum = tokens.maximumLifetime();
    return new JsonObject()
        .put("enabled", tokens.enabled())
        .put("defaultLifetimeDays", tokens.defaultLifetime().toDays())
        .put("maximumLifetimeDays", maximum.isZero() ? null : maximum.toDays());
  }

  /**
   * What the namespace form needs of the methods that depend on the deployment: whether SHA-256
   * makes new pseudonyms, and the length VOPRF's settings fix, null without a VOPRF server.
   */
  private static JsonObject generation(GenerationSupport generation) {
    return new JsonObject()
        .put("sha256", generation.sha256Enabled())
        .put(
            "voprfLength",
            generation.voprfLength().isPresent() ? generation.voprfLength().getAsInt() : null);
  }

  /** Adds the UI's routes to the router. */
  public void mount(Router router) {
    router.route("/ui/*").handler(this::secure);
    // the route "/ui" matches "/ui/" too, which is the app itself
    router
        .get("/ui")
        .handler(
            rc -> {
              if (rc.request().path().equals("/ui")) {
                rc.response().setStatusCode(302).putHeader(HttpHeaders.LOCATION, "/ui/").end();
              } else {
                rc.next();
              }
            });
    sessions.mount(router);
    signInRoutes.mount(router);
    for (String page : PAGES) {
      router.get(page).handler(this::page);
    }
    router
        .get("/ui/assets/*")
        .handler(
            rc -> {
              rc.response().putHeader(HttpHeaders.CACHE_CONTROL, "no-cache");
              rc.next();
            })
        // caching on: Last-Modified and 304 answers; the Cache-Control above is kept
        .handler(
            StaticHandler.create(ASSETS)
                .setCachingEnabled(true)
                .setDirectoryListing(false)
                .setDefaultContentEncoding("UTF-8"));
    // last: what no route above answered
    router.get("/ui/*").handler(UiRoutes::unknownPage);
  }

  /**
   * The app's page with status 404 for a path that is no page, without a sign-in first: the app
   * shows its "page not found" view with a way back. Paths of assets and of the sign-in, which are
   * no pages, keep the router's JSON 404.
   */
  private static void unknownPage(RoutingContext rc) {
    String path = rc.request().path();
    if (path.startsWith("/ui/assets/") || path.startsWith("/ui/authentication/")) {
      rc.next();
      return;
    }
    sendPage(rc.response().setStatusCode(404), rc);
  }

  private void secure(RoutingContext rc) {
    rc.response()
        .putHeader("Content-Security-Policy", contentSecurityPolicy)
        .putHeader("X-Content-Type-Options", "nosniff")
        .putHeader("X-Frame-Options", "DENY")
        .putHeader("Referrer-Policy", "same-origin")
        .putHeader("Cross-Origin-Opener-Policy", "same-origin");
    rc.next();
  }

  /**
   * The app's page, or, with a sign-in, a redirect to the login when the request has no session
   * that is current or can be renewed (a signed-out one is none); the login returns to the page's
   * path and query.
   */
  private void page(RoutingContext rc) {
    HttpServerRequest request = rc.request();
    if (StrictDecoding.decodePercentEncoded(request.path()).isEmpty()) {
      // a namespace name that is no UTF-8: no page the app can draw
      unknownPage(rc);
      return;
    }
    if (signIn.isEmpty()) {
      pageOf(rc);
      return;
    }
    SignIn flow = signIn.get();
    SessionCookies.session(flow, request)
        .onSuccess(
            found -> {
              if (found.filter(flow::usable).isPresent()) {
                pageOf(rc);
              } else {
                String target = request.query() == null ? request.path() : request.uri();
                rc.response()
                    .setStatusCode(302)
                    .putHeader(HttpHeaders.CACHE_CONTROL, "no-store")
                    .putHeader(
                        HttpHeaders.LOCATION,
                        ReturnUrls.login(ReturnUrls.local(target).orElse(ReturnUrls.HOME)))
                    .end();
              }
            })
        .onFailure(rc::fail);
  }

  /** The page of the request's route; 404 for a namespace that does not exist. */
  private void pageOf(RoutingContext rc) {
    String namespace = rc.pathParam("name");
    if (namespace == null) {
      sendPage(rc.response(), rc);
      return;
    }
    // a namespace that does not exist has no page; its existence the API tells anyone as well
    namespaces
        .resolve(namespace)
        .onComplete(
            found -> {
              boolean missing =
                  found.cause() instanceof ServiceException e && e.code() == ErrorCode.NOT_FOUND;
              sendPage(rc.response().setStatusCode(missing ? 404 : 200), rc);
            });
  }

  private static void sendPage(HttpServerResponse response, RoutingContext rc) {
    response
        .putHeader(HttpHeaders.CACHE_CONTROL, "no-cache")
        .putHeader(HttpHeaders.CONTENT_TYPE, "text/html; charset=utf-8")
        .sendFile(PAGE)
        .onFailure(rc::fail);
  }
}
