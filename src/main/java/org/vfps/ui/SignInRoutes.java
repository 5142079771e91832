package org.vfps.ui;

import io.vertx.core.Future;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.Optional;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.auth.SignIn;
import org.vfps.auth.UiSession;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/**
 * The sign-in's addresses under {@code /ui/authentication/}: {@code login?returnUrl=...} sends the
 * browser to the provider, {@code callback} takes it back and sets the session, {@code POST logout}
 * ends the session on every replica and then at the provider. Problems are answered with a page
 * that says what went wrong and offers to sign in again.
 */
final class SignInRoutes {

  private static final Logger LOG = LoggerFactory.getLogger(SignInRoutes.class);

  /** What a {@code state} of ours looks like: base64url text. */
  private static final Pattern STATE = Pattern.compile("[A-Za-z0-9_-]{16,64}");

  /** What an OAuth error code may look like (RFC 6749: printable ASCII without quotes). */
  private static final Pattern ERROR_CODE = Pattern.compile("[a-z_]{1,64}");

  private final boolean authorization;
  private final Optional<SignIn> signIn;
  private final SessionCookies cookies;

  /**
   * @param authorization whether authorization is on
   * @param signIn the sign-in; empty when authorization is off or no client is configured
   */
  SignInRoutes(boolean authorization, Optional<SignIn> signIn, SessionCookies cookies) {
    this.authorization = authorization;
    this.signIn = signIn;
    this.cookies = cookies;
  }

  void mount(Router router) {
    router.get("/ui/authentication/login").handler(this::login);
    router.get(SessionCookies.CALLBACK_PATH).handler(this::callback);
    router.post("/ui/authentication/logout").handler(this::logout);
  }

  private void login(RoutingContext rc) {
    HttpServerRequest request = rc.request();
    Optional<String> returnUrl = ReturnUrls.local(request.getParam("returnUrl"));
    if (returnUrl.isEmpty()) {
      SignInPages.send(
          rc,
          400,
          "Sign-in refused",
          "The returnUrl of this link is not a page of this service (a path under /ui/), so the"
              + " sign-in will not go there.",
          ReturnUrls.login(ReturnUrls.HOME),
          "Sign in");
      return;
    }
    if (!authorization) {
      redirect(rc, returnUrl.get());
      return;
    }
    if (signIn.isEmpty()) {
      notConfigured(rc);
      return;
    }
    SignIn flow = signIn.get();
    SessionCookies.session(flow, request)
        .onSuccess(
            found -> {
              if (found.filter(flow::current).isPresent()) {
                redirect(rc, returnUrl.get());
              } else {
                begin(rc, flow, returnUrl.get());
              }
            })
        .onFailure(failure -> problem(rc, failure, returnUrl.get()));
  }

  /** Sends the browser to the provider, with the flow's cookie. */
  private void begin(RoutingContext rc, SignIn flow, String returnUrl) {
    Optional<String> origin = cookies.origin(rc.request());
    if (origin.isEmpty()) {
      SignInPages.send(
          rc,
          400,
          "Sign-in refused",
          "The request names no valid host (Host or X-Forwarded-Host), so there is no address"
              + " the provider could send you back to.",
          ReturnUrls.HOME,
          "Back to vfps");
      return;
    }
    flow.begin(origin.get() + SessionCookies.CALLBACK_PATH, returnUrl)
        .onSuccess(
            redirect -> {
              cookies.setFlow(rc, redirect.flowCookieName(), redirect.flowCookie());
              redirect(rc, redirect.location());
            })
        .onFailure(failure -> problem(rc, failure, returnUrl));
  }

  private void callback(RoutingContext rc) {
    HttpServerRequest request = rc.request();
    String state = request.getParam("state");
    if (state == null || !STATE.matcher(state).matches()) {
      SignInPages.send(
          rc,
          400,
          "Sign-in failed",
          "This address is where the identity provider sends you back after signing in; it was"
              + " opened without a sign-in of this service.",
          ReturnUrls.login(ReturnUrls.HOME),
          "Sign in");
      return;
    }
    String cookieName = SignIn.FLOW_COOKIE_PREFIX + state;
    if (signIn.isEmpty()) {
      notConfigured(rc);
      return;
    }
    String error = request.getParam("error");
    if (error != null) {
      cookies.clearFlow(rc, cookieName);
      String code = ERROR_CODE.matcher(error).matches() ? error : "an unknown error";
      LOG.info(
          "The identity provider ended a sign-in with {}: {}",
          code,
          String.valueOf(request.getParam("error_description")).replaceAll("\\p{Cntrl}", " "));
      SignInPages.send(
          rc,
          401,
          "Sign-in failed",
          "The identity provider did not sign you in (" + code + ").",
          ReturnUrls.login(ReturnUrls.HOME),
          "Try again");
      return;
    }
    Cookie flowCookie = request.getCookie(cookieName);
    signIn
        .get()
        .complete(
            state, request.getParam("code"), flowCookie == null ? null : flowCookie.getValue())
        .onSuccess(
            signedIn -> {
              cookies.clearFlow(rc, cookieName);
              cookies.setSession(rc, signedIn.session().cookie());
              redirect(rc, signedIn.returnUrl());
            })
        .onFailure(
            failure -> {
              cookies.clearFlow(rc, cookieName);
              problem(rc, failure, ReturnUrls.HOME);
            });
  }

  /**
   * Ends the session on every replica (the cookie goes, and every copy of it is refused from now
   * on), then sends the browser to the provider's end-session endpoint, which comes back to {@code
   * /ui/}; a request that carries a session must carry its CSRF token too ({@code X-CSRF-Token}, or
   * the form field {@code csrfToken}). A page's script asks with {@code Accept: application/json}
   * and is answered {@code {"location": ...}}; a form is answered with a redirect. When the end
   * cannot be recorded (the database is away), the answer is 503 and the cookie stays, so that the
   * user can try again.
   */
  private void logout(RoutingContext rc) {
    HttpServerRequest request = rc.request();
    Optional<UiSession> session = signIn.flatMap(flow -> SessionCookies.opened(flow, request));
    String token = request.getHeader("X-CSRF-Token");
    if (token == null) {
      token = request.getFormAttribute("csrfToken");
    }
    boolean json = String.valueOf(request.getHeader(HttpHeaders.ACCEPT)).contains("json");
    if (session.isPresent() && !session.get().csrfTokenIs(token)) {
      signOutFailed(
          rc,
          json,
          403,
          ErrorCode.PERMISSION_DENIED,
          "Sign-out refused",
          "Signing out needs the session's CSRF token; the request is refused as a possible"
              + " cross-site request forgery.");
      return;
    }
    Future<Void> ended =
        session.isPresent() ? signIn.orElseThrow().end(session.get()) : Future.succeededFuture();
    ended
        .onSuccess(done -> signedOut(rc, json))
        .onFailure(
            failure -> {
              LOG.warn("A session could not be ended: {}", failure.getMessage());
              signOutFailed(
                  rc,
                  json,
                  503,
                  ErrorCode.UNAVAILABLE,
                  "Sign-out failed",
                  "The session could not be ended (the database is not available); try again"
                      + " shortly.");
            });
  }

  /**
   * Answers a sign-out that did not happen: an error in JSON to the UI's script ({@code json}), a
   * page with the way back home to a browser.
   *
   * @param title the page's title
   */
  private static void signOutFailed(
      RoutingContext rc, boolean json, int status, ErrorCode code, String title, String message) {
    if (json) {
      UiJson.error(rc, status, code, message);
    } else {
      SignInPages.send(rc, status, title, message, ReturnUrls.HOME, "Back to vfps");
    }
  }

  /** Clears the cookie and sends the browser on to the provider's end-session endpoint. */
  private void signedOut(RoutingContext rc, boolean json) {
    cookies.clearSession(rc);
    String location =
        signIn
            .flatMap(
                flow ->
                    cookies
                        .origin(rc.request())
                        .flatMap(origin -> flow.endSession(origin + ReturnUrls.HOME)))
            .orElse(ReturnUrls.HOME);
    if (json) {
      UiJson.send(rc, 200, new JsonObject().put("location", location));
    } else {
      rc.response().setStatusCode(303).putHeader(HttpHeaders.LOCATION, location).end();
    }
  }

  private static void notConfigured(RoutingContext rc) {
    SignInPages.send(
        rc,
        503,
        "Sign-in is not configured",
        "Authorization is on, but the admin UI has no client to sign users in with. An"
            + " administrator sets Authorization__ClientId and Authorization__ClientSecret (the"
            + " API works without them).",
        ReturnUrls.HOME,
        "Back to vfps");
  }

  /** The page for a sign-in that failed; logged as the failure deserves. */
  private static void problem(RoutingContext rc, Throwable failure, String returnUrl) {
    ErrorCode code =
        failure instanceof ServiceException service ? service.code() : ErrorCode.INTERNAL;
    String message =
        failure instanceof ServiceException ? failure.getMessage() : "The sign-in failed.";
    int status =
        switch (code) {
          case INVALID_ARGUMENT -> 400;
          case INTERNAL -> 500;
          default -> 503;
        };
    if (code == ErrorCode.INVALID_ARGUMENT) {
      LOG.debug("A sign-in was refused: {}", message);
    } else if (code == ErrorCode.INTERNAL) {
      LOG.error("A sign-in failed", failure);
    } else {
      LOG.warn("A sign-in failed: {}", message);
    }
    SignInPages.send(
        rc, status, "Sign-in failed", message, ReturnUrls.login(returnUrl), "Try again");
  }

  private static void redirect(RoutingContext rc, String location) {
    rc.response()
        .setStatusCode(302)
        .putHeader(HttpHeaders.LOCATION, location)
        .putHeader(HttpHeaders.CACHE_CONTROL, "no-store")
        .end();
  }
}
