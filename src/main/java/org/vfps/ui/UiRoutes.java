package org.vfps.ui;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.StaticHandler;
import java.util.List;

/**
 * The admin UI under {@code /ui}: one HTML page for every route of the app (so that a deep link
 * survives a reload), its assets, and {@code GET /ui/session}, which tells the page who is signed
 * in and what they may do. Every other {@code /ui/...} path is left to the router's 404.
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
          "/ui/access-control");

  static final String CONTENT_SECURITY_POLICY =
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
          + " connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

  private static final String PAGE = "ui/index.html";
  private static final String ASSETS = "ui/assets";

  private final JsonObject session;

  /**
   * @param version the service's version, shown in the footer
   * @param maxRequestBodyBytes the HTTP body limit, which bounds the batches the CSV page sends
   */
  public UiRoutes(String version, int maxRequestBodyBytes) {
    // authorization is off: everyone may do everything (an admin, as the .NET service has it)
    JsonArray everyNamespace = new JsonArray().add("*");
    this.session =
        new JsonObject()
            .put("authorization", false)
            .put("user", null)
            .put("roles", new JsonArray())
            .put(
                "permissions",
                new JsonObject()
                    .put("admin", true)
                    .put("read", everyNamespace)
                    .put("write", everyNamespace)
                    .put("reverseLookup", everyNamespace))
            .put("version", version)
            .put("limits", new JsonObject().put("maxRequestBodyBytes", maxRequestBodyBytes));
  }

  /** Adds the UI's routes to the router. */
  public void mount(Router router) {
    router.route("/ui/*").handler(UiRoutes::secure);
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
    router
        .get("/ui/session")
        .handler(
            rc ->
                rc.response()
                    .putHeader(HttpHeaders.CACHE_CONTROL, "no-store")
                    .putHeader(HttpHeaders.CONTENT_TYPE, "application/json; charset=utf-8")
                    .end(session.toBuffer()));
    for (String page : PAGES) {
      router.get(page).handler(UiRoutes::page);
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
  }

  private static void secure(RoutingContext rc) {
    rc.response()
        .putHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        .putHeader("X-Content-Type-Options", "nosniff")
        .putHeader("X-Frame-Options", "DENY")
        .putHeader("Referrer-Policy", "same-origin")
        .putHeader("Cross-Origin-Opener-Policy", "same-origin");
    rc.next();
  }

  private static void page(RoutingContext rc) {
    rc.response()
        .putHeader(HttpHeaders.CACHE_CONTROL, "no-cache")
        .putHeader(HttpHeaders.CONTENT_TYPE, "text/html; charset=utf-8")
        .sendFile(PAGE)
        .onFailure(rc::fail);
  }
}
