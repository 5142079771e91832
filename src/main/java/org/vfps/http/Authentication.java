package org.vfps.http;

import io.vertx.core.Future;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.RoutingContext;
import java.util.Set;
import org.vfps.access.Caller;
import org.vfps.access.Operation;
import org.vfps.auth.Authenticator;
import org.vfps.auth.SignIn;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/**
 * The HTTP edge's side of authentication: the caller of a request, from its {@code Authorization}
 * header or, when it has none, from the admin UI's session cookie, admitted with a place of its own
 * ({@link RequestAdmission#admit}); the protection of that cookie against cross-site request
 * forgery; and the {@code WWW-Authenticate} challenge of a 401 answer ({@code Bearer}, with {@code
 * error="invalid_token"} when credentials were sent, as RFC 6750 asks).
 */
final class Authentication {

  /** The header that carries the session's CSRF token on a state-changing request. */
  static final String CSRF_HEADER = "X-CSRF-Token";

  private static final String WWW_AUTHENTICATE = "WWW-Authenticate";
  private static final Set<HttpMethod> STATE_CHANGING =
      Set.of(HttpMethod.POST, HttpMethod.PUT, HttpMethod.PATCH, HttpMethod.DELETE);

  private final Authenticator authenticator;
  private final RequestAdmission admission;

  Authentication(Authenticator authenticator, RequestAdmission admission) {
    this.authenticator = authenticator;
    this.admission = admission;
  }

  /**
   * The caller of the request, which asks for {@code operation}, once the request holds a place of
   * that caller: an {@code Authorization} header wins; without one, the session cookie counts. A
   * caller without valid credentials, or without any right, takes no place.
   */
  Future<Caller> caller(RoutingContext rc, Operation operation) {
    return authenticated(rc.request(), operation).compose(caller -> admission.admit(rc, caller));
  }

  private Future<Caller> authenticated(HttpServerRequest request, Operation operation) {
    SocketAddress remote = request.remoteAddress();
    String clientAddress = remote == null ? "" : remote.hostAddress();
    String authorization = request.getHeader(HttpHeaders.AUTHORIZATION);
    if (authorization == null) {
      Cookie session = request.getCookie(SignIn.SESSION_COOKIE);
      if (session != null) {
        return authenticator.authenticateSession(session.getValue(), clientAddress, operation);
      }
    }
    return authenticator.authenticate(authorization, clientAddress, operation);
  }

  /**
   * A handler before every route: a state-changing API request ({@code POST}, {@code PUT}, {@code
   * PATCH}, {@code DELETE} under {@code /v1/} or {@code /x/v1/}) that the session cookie
   * authenticates fails with {@code PERMISSION_DENIED} (403) unless it carries the session's token
   * in {@value CSRF_HEADER}. Only a page of the admin UI can know that token (from {@code
   * /ui/session}, which no other origin can read), so a request another site makes the browser send
   * is refused before it is even read. Requests with an {@code Authorization} header need no token.
   */
  void rejectForgedRequests(RoutingContext rc) {
    HttpServerRequest request = rc.request();
    if (STATE_CHANGING.contains(request.method())
        && (request.path().startsWith("/v1/") || request.path().startsWith("/x/v1/"))
        && request.getHeader(HttpHeaders.AUTHORIZATION) == null) {
      Cookie session = request.getCookie(SignIn.SESSION_COOKIE);
      if (session != null
          && !authenticator.csrfTokenValid(session.getValue(), request.getHeader(CSRF_HEADER))) {
        rc.fail(
            new ServiceException(
                ErrorCode.PERMISSION_DENIED,
                "The request is authenticated by the admin UI's session cookie but lacks the"
                    + " session's CSRF token ("
                    + CSRF_HEADER
                    + "); it is refused as a possible cross-site request forgery."));
        return;
      }
    }
    rc.next();
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
