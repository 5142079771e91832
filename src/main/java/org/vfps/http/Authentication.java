package org.vfps.http;

import io.vertx.core.Future;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.net.SocketAddress;
import org.vfps.access.Caller;
import org.vfps.access.Operation;
import org.vfps.auth.Authenticator;

/**
 * The HTTP edge's side of authentication: the caller of a request, from its {@code Authorization}
 * header, and the {@code WWW-Authenticate} challenge of a 401 answer ({@code Bearer}, with {@code
 * error="invalid_token"} when credentials were sent, as RFC 6750 asks).
 */
final class Authentication {

  private static final String WWW_AUTHENTICATE = "WWW-Authenticate";

  private final Authenticator authenticator;

  Authentication(Authenticator authenticator) {
    this.authenticator = authenticator;
  }

  /** The caller of the request, which asks for {@code operation}. */
  Future<Caller> caller(HttpServerRequest request, Operation operation) {
    SocketAddress remote = request.remoteAddress();
    return authenticator.authenticate(
        request.getHeader(HttpHeaders.AUTHORIZATION),
        remote == null ? "" : remote.hostAddress(),
        operation);
  }

  /** Adds the challenge to the response when its status is 401. */
  static void challenge(int status, HttpServerRequest request, HttpServerResponse response) {
    if (status == 401) {
      response.putHeader(
          WWW_AUTHENTICATE,
          request.getHeader(HttpHeaders.AUTHORIZATION) == null
              ? "Bearer"
              : "Bearer error=\"invalid_token\"");
    }
  }
}
