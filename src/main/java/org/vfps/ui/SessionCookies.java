package org.vfps.ui;

import io.vertx.core.Future;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.CookieSameSite;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.vfps.auth.SignIn;
import org.vfps.auth.UiSession;

/**
 * The cookies of the admin UI's sign-in, and what they need of a request. Both are {@code HttpOnly}
 * (no script reads them), {@code SameSite=Lax} (the provider's redirect back is a navigation from
 * another site, which must carry the flow cookie; other sites' requests that change data carry
 * neither) and {@code Secure} when the browser speaks https to the service (the listener has TLS,
 * or a trusted proxy in front says so in {@code X-Forwarded-Proto}). The session cookie lives as
 * long as the browser session, on every path ({@code /v1/} too, for the API calls of the pages); a
 * flow cookie for {@link SignIn#FLOW_LIFETIME}, on the callback's path only.
 *
 * <p>The forwarding headers ({@code X-Forwarded-Proto}, {@code X-Forwarded-Host}) count only on a
 * request from a trusted proxy ({@code Http__TrustedProxies}); from anyone else they are the
 * client's own words, which must not choose the address the provider sends a user back to.
 */
final class SessionCookies {

  static final String CALLBACK_PATH = "/ui/authentication/callback";

  private static final String FLOW_PATH = "/ui/authentication/";
  private static final Pattern HOST =
      Pattern.compile("[A-Za-z0-9.\\-]+(:[0-9]{1,5})?|\\[[0-9A-Fa-f:.]+\\](:[0-9]{1,5})?");

  private final Predicate<String> trustedProxy;

  /**
   * @param trustedProxy whether a peer's IP address is a proxy whose forwarding headers count
   */
  SessionCookies(Predicate<String> trustedProxy) {
    this.trustedProxy = trustedProxy;
  }

  /**
   * The session the request's cookie carries, current or not, unless it was signed out; empty
   * without one. Fails with {@code UNAVAILABLE} when the database cannot say whether it was.
   */
  static Future<Optional<UiSession>> session(SignIn signIn, HttpServerRequest request) {
    Cookie cookie = request.getCookie(SignIn.SESSION_COOKIE);
    return cookie == null
        ? Future.succeededFuture(Optional.empty())
        : signIn.session(cookie.getValue());
  }

  /**
   * The session the request's cookie carries, current or not, signed out or not (for signing out);
   * empty without one.
   */
  static Optional<UiSession> opened(SignIn signIn, HttpServerRequest request) {
    Cookie cookie = request.getCookie(SignIn.SESSION_COOKIE);
    return cookie == null ? Optional.empty() : signIn.open(cookie.getValue());
  }

  void setSession(RoutingContext rc, String value) {
    rc.response().addCookie(cookie(rc, SignIn.SESSION_COOKIE, value, "/"));
  }

  void clearSession(RoutingContext rc) {
    rc.response().addCookie(cookie(rc, SignIn.SESSION_COOKIE, "", "/").setMaxAge(0));
  }

  void setFlow(RoutingContext rc, String name, String value) {
    rc.response()
        .addCookie(cookie(rc, name, value, FLOW_PATH).setMaxAge(SignIn.FLOW_LIFETIME.toSeconds()));
  }

  void clearFlow(RoutingContext rc, String name) {
    rc.response().addCookie(cookie(rc, name, "", FLOW_PATH).setMaxAge(0));
  }

  /**
   * The origin the browser addressed, {@code scheme://host[:port]}: from {@code X-Forwarded-Proto}
   * and {@code X-Forwarded-Host} when a trusted proxy in front sets them, else from the listener
   * and the request's authority ({@code Host}); empty when the host is missing or malformed.
   */
  Optional<String> origin(HttpServerRequest request) {
    String host = forwarded(request, "X-Forwarded-Host");
    if (host == null && request.authority() != null) {
      // the Host header, or HTTP/2's :authority
      host = request.authority().toString();
    }
    if (host == null || !HOST.matcher(host).matches()) {
      return Optional.empty();
    }
    return Optional.of((https(request) ? "https" : "http") + "://" + host);
  }

  /** Whether the browser speaks https to the service. */
  boolean https(HttpServerRequest request) {
    String proto = forwarded(request, "X-Forwarded-Proto");
    return proto == null ? request.isSSL() : proto.equalsIgnoreCase("https");
  }

  /**
   * The first value of a forwarding header (a proxy chain lists the client's first); null when the
   * request has none or does not come from a trusted proxy.
   */
  private String forwarded(HttpServerRequest request, String header) {
    String value = request.getHeader(header);
    if (value == null
        || request.remoteAddress() == null
        || !trustedProxy.test(request.remoteAddress().hostAddress())) {
      return null;
    }
    if (value == null) {
      return null;
    }
    int comma = value.indexOf(',');
    String first = (comma < 0 ? value : value.substring(0, comma)).strip();
    return first.isEmpty() ? null : first;
  }

  private Cookie cookie(RoutingContext rc, String name, String value, String path) {
    return Cookie.cookie(name, value)
        .setPath(path)
        .setHttpOnly(true)
        .setSameSite(CookieSameSite.LAX)
        .setSecure(https(rc.request()));
  }
}
