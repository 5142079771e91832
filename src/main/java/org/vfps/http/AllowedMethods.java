package org.vfps.http;

import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code Allow} header of a 405 (RFC 9110 requires one): the methods of the router's routes
 * whose path matches. Vert.x knows them while it routes but does not hand them to an error handler,
 * so they are found again here, only on the way to a 405.
 */
final class AllowedMethods {

  private AllowedMethods() {}

  /**
   * The methods the routes of {@code path} answer, comma-separated, in alphabetical order. A path
   * of a custom method ({@code /v1/csv-jobs/{id}:start}) is that method's alone, though its last
   * segment would also fill the variable of a plainer route.
   */
  static String of(Router router, String path) {
    Set<String> custom = new TreeSet<>();
    for (Route route : router.getRoutes()) {
      io.vertx.openapi.contract.Operation operation =
          route.getMetadata(io.vertx.ext.web.openapi.router.RouterBuilder.KEY_META_DATA_OPERATION);
      if (operation != null
          && operation.getOpenAPIPath().contains(":")
          && route.methods() != null
          && path.matches(CustomMethodRoutes.customMethodRegex(operation.getOpenAPIPath()))) {
        route.methods().stream().map(HttpMethod::name).forEach(custom::add);
      }
    }
    if (!custom.isEmpty()) {
      return String.join(", ", custom);
    }
    Set<String> methods = new TreeSet<>();
    for (Route route : router.getRoutes()) {
      // a route of every method has none (null) and never causes a 405
      if (route.methods() != null
          && !route.methods().isEmpty()
          && route.getPath() != null
          && matches(route.getPath(), route.isExactPath(), path)) {
        route.methods().stream().map(HttpMethod::name).forEach(methods::add);
      }
    }
    return String.join(", ", methods);
  }

  /**
   * Whether a route path matches a request path: a {@code :name} segment matches any one segment; a
   * path that is not exact (it ended in {@code *}) is a prefix.
   */
  static boolean matches(String routePath, boolean exact, String path) {
    if (!exact) {
      return path.startsWith(routePath);
    }
    String[] routeSegments = routePath.split("/", -1);
    String[] segments = path.split("/", -1);
    if (routeSegments.length != segments.length) {
      return false;
    }
    for (int i = 0; i < segments.length; i++) {
      boolean variable = routeSegments[i].startsWith(":") && !segments[i].isEmpty();
      if (!variable && !routeSegments[i].equals(segments[i])) {
        return false;
      }
    }
    return true;
  }
}
