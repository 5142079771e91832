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
 * header or, for the admin UI's API only, from the UI's session cookie, admitted with a place of
 * its own ({@link RequestAdmission#admit}); the protection of that cookie against cross-site
 * request forgery; and the {@code WWW-Authenticate} challenge of a 401 answer ({@code Bearer}, with
 * {@code error="invalid_token"} when credentials were sent, as RFC 6750 asks).
 *
 * <p>Whether the cookie authenticates a request is decided in one place, {@link #admitSession},
 * before any route: only there is the cookie read, and every request it admits with a method that
 * may change data has passed the CSRF check, whatever route it goes on to.
 */
final class Authentication {

  /** The header that carries the session's CSRF token on a state-changing request. */
  static final String CSRF_HEADER = "X-CSRF-Token";

  /** Where {@link #admitSession} leaves the cookie value that authenticates the request. */
  private static final String SESSION_KEY = "vfps.session";

  /** The methods that change nothing (RFC 9110 9.2.1), which need no CSRF token. */
  private static final Set<HttpMethod> SAFE =
      Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.OPTIONS);

  private static final String WWW_AUTHENTICATE = "WWW-Authenticate";

  private final Authenticator authenticator;
  private final RequestAdmission admission;

  Authentication(Authenticator authenticator, RequestAdmission admission) {
    this.authenticator = authenticator;
    this.admission = admission;
  }

  /**
   * The caller of the request, which asks for {@code operation}, once the request holds a place of
   * that caller: from the {@code Authorization} header, or from the session cookie when {@link
   * #admitSession} admitted it. A caller without valid credentials, or without any right, takes no
   * place.
   */
  Future<Caller> caller(RoutingContext rc, Operation operation) {
    return authenticated(rc, operation).compose(caller -> admission.admit(rc, caller));
  }

  private Future<Caller> authenticated(RoutingContext rc, Operation operation) {
    HttpServerRequest request = rc.request();
    SocketAddress remote = request.remoteAddress();
    String clientAddress = remote == null ? "" : remote.hostAddress();
    String session = rc.get(SESSION_KEY);
    if (session != null) {
      return authenticator.authenticateSession(session, clientAddress, operation);
    }
    return authenticator.authenticate(
        request.getHeader(HttpHeaders.AUTHORIZATION), clientAddress, operation);
  }

  /**
   * A handler before every route, the one place that decides whether the admin UI's session cookie
   * authenticates the request. It does when the request has no {@code Authorization} header and its
   * path, as the router matches it ({@link RoutingContext#normalizedPath()}: dot segments resolved,
   * empty segments and percent-encoded letters as the router reads them), is the UI's API: under
   * {@code /v1/} or {@code /x/v1/}, but not the FHIR operations of {@code /v1/fhir}. Everywhere
   * else (FHIR, the gPAS dialect, the probes, any route added later) the cookie is as if absent. A
   * request the cookie authenticates with any method but {@code GET}, {@code HEAD} and {@code
   * OPTIONS} fails with {@code PERMISSION_DENIED} (403) unless it carries the session's token in
   * {@value CSRF_HEADER}. Only a page of the admin UI can know that token (from {@code
   * /ui/session}, which no other origin can read), so a request another site makes the browser send
   * is refused before its body is validated or any work starts.
   */
  void admitSession(RoutingContext rc) {
    HttpServerRequest request = rc.request();
    Cookie cookie = request.getCookie(SignIn.SESSION_COOKIE);
    if (cookie == null
        || request.getHeader(HttpHeaders.AUTHORIZATION) != null
        || !uiApi(rc.normalizedPath())) {
      rc.next();
      return;
    }
    String session = cookie.getValue();
    if (!SAFE.contains(request.method())
        && !authenticator.csrfTokenValid(session, request.getHeader(CSRF_HEADER))) {
      rc.fail(
          new ServiceException(
              ErrorCode.PERMISSION_DENIED,
              "The request is authenticated by the admin UI's session cookie but lacks the"
                  + " session's CSRF token ("
                  + CSRF_HEADER
                  + "); it is refused as a possible cross-site request forgery."));
      return;
    }
    rc.put(SESSION_KEY, session);
    rc.next();
  }

  /** Whether a normalized path is the admin UI's API: the REST routes, not FHIR. */
  static boolean uiApi(String path) {
    return (path.startsWith("/v1/") || path.startsWith("/x/v1/"))
        && !(path.equals("/v1/fhir") || path.startsWith("/v1/fhir/"));
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
