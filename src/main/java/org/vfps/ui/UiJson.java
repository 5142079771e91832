package org.vfps.ui;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import org.vfps.error.ErrorCode;

/**
 * The JSON answers of the UI's own endpoints, never cached; errors in the API's shape {@code
 * {"code": <gRPC status code>, "message": "...", "details": []}}, so the pages read both alike.
 */
final class UiJson {

  private UiJson() {}

  static void send(RoutingContext rc, int status, JsonObject body) {
    rc.response()
        .setStatusCode(status)
        .putHeader(HttpHeaders.CACHE_CONTROL, "no-store")
        .putHeader(HttpHeaders.CONTENT_TYPE, "application/json; charset=utf-8")
        .end(body.toBuffer());
  }

  static void error(RoutingContext rc, int status, ErrorCode code, String message) {
    send(
        rc,
        status,
        new JsonObject()
            .put("code", grpcCode(code))
            .put("message", message)
            .put("details", new JsonArray()));
  }

  /** The gRPC status code of the errors the UI's endpoints answer with. */
  private static int grpcCode(ErrorCode code) {
    return switch (code) {
      case PERMISSION_DENIED -> 7;
      case UNAVAILABLE -> 14;
      case UNAUTHENTICATED -> 16;
      default -> 13;
    };
  }
}
