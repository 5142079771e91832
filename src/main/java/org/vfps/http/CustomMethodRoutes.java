package org.vfps.http;

import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The routes of the contract's custom methods ({@code
 * /v1/namespaces/{namespace}/pseudonyms:batchCreate}, {@code /v1/csv-jobs/{id}:start}) matched as
 * written, and every contract route named after its path template.
 */
final class CustomMethodRoutes {

  private static final Pattern PATH_VARIABLE = Pattern.compile("\\{[^}]+}");

  private CustomMethodRoutes() {}

  /**
   * Names each contract route after its path template as written ({@code /v1/csv-jobs/{id}:start}),
   * the {@code route} label of the HTTP server metrics, and makes the routes of custom methods
   * ({@code .../pseudonyms:batchCreate}) match their path as written. Vert.x reads {@code :name}
   * anywhere in a route's path as a path parameter, so such a suffix would become a parameter that
   * matches any text, and {@code :batchGet} would reach the {@code :batchCreate} route; these
   * routes match a regex with the suffix as literal text instead.
   */
  static void matchLiterally(Router router) {
    Map<String, Set<HttpMethod>> methodsByTemplate = new TreeMap<>();
    for (Route route : router.getRoutes()) {
      io.vertx.openapi.contract.Operation operation =
          route.getMetadata(RouterBuilder.KEY_META_DATA_OPERATION);
      if (operation == null) {
        continue;
      }
      String template = pathTemplate(operation.getOpenAPIPath());
      route.setName(template);
      if (operation.getOpenAPIPath().contains(":")) {
        route.pathRegex(customMethodRegex(operation.getOpenAPIPath()));
        methodsByTemplate.computeIfAbsent(template, t -> new HashSet<>()).addAll(route.methods());
      }
    }
    // a custom method's path is its own: another method there is a 405, though the path's last
    // segment would also fill the variable of a plainer route (GET /v1/csv-jobs/{id}); the guard
    // sees only the other methods, so that a call of the path's own method passes one route alone
    // and is labelled by its template alone
    methodsByTemplate.forEach(
        (template, methods) -> {
          Route guard = router.routeWithRegex(literalPathRegex(template)).order(-1);
          guard.setName(template);
          for (HttpMethod method : HttpMethod.values()) {
            if (!methods.contains(method)) {
              guard.method(method);
            }
          }
          String allowed =
              String.join(", ", methods.stream().map(HttpMethod::name).sorted().toList());
          guard.handler(
              rc -> {
                rc.response().putHeader(io.vertx.core.http.HttpHeaders.ALLOW, allowed);
                rc.fail(405);
              });
        });
  }

  /** The path of an operation as the contract writes it, from the path the parser read. */
  static String pathTemplate(String parsedPath) {
    return parsedPath.replace(ApiContract.CUSTOM_METHOD_AFTER_VARIABLE, "}:");
  }

  /** The regex of the path of a custom method's operation as the parser read it. */
  static String customMethodRegex(String parsedPath) {
    return literalPathRegex(pathTemplate(parsedPath));
  }

  /**
   * The regex of a contract path: its text literal, each {@code {variable}} one segment, captured
   * as {@code p0}, {@code p1}, ..., which Vert.x names after the route's parameters in order.
   */
  static String literalPathRegex(String contractPath) {
    StringBuilder regex = new StringBuilder();
    Matcher variable = PATH_VARIABLE.matcher(contractPath);
    int literalFrom = 0;
    int index = 0;
    while (variable.find()) {
      regex
          .append(Pattern.quote(contractPath.substring(literalFrom, variable.start())))
          .append("(?<p")
          .append(index++)
          .append(">[^/]+)");
      literalFrom = variable.end();
    }
    return regex.append(Pattern.quote(contractPath.substring(literalFrom))).toString();
  }
}
