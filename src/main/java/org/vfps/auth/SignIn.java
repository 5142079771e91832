package org.vfps.auth;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.access.CallerId;
import org.vfps.access.EndedSessions;
import org.vfps.config.AuthorizationConfig;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/**
 * The admin UI's sign-in: the OIDC authorization code flow with PKCE (S256), as the confidential
 * client {@code Authorization__ClientId}, with a pushed authorization request (RFC 9126) where the
 * provider offers one and {@code Authorization__UsePushedAuthorizationRequests} allows it. The ID
 * token is checked against the provider's keys for the client and the sign-in's nonce; the access
 * token is checked as the API checks bearer tokens, and its subject and roles become the session,
 * so a user has in the UI exactly the permissions its token has at the API.
 *
 * <p>The flow's state (state, nonce, PKCE verifier, where to return) travels in a sealed cookie of
 * its own, and the session in another, both under a key every replica shares, so any replica can
 * finish a sign-in and serve a session. A session lasts as long as its access token and is renewed
 * with the provider's refresh token, if it gave one, for at most {@link #SESSION_LIFETIME} after
 * the sign-in. The server keeps only the sessions that were signed out ({@link EndedSessions}),
 * until they would have ended anyway, so that a copy of their cookie is refused by every replica.
 * Thread-safe.
 */
public final class SignIn {

  private static final Logger LOG = LoggerFactory.getLogger(SignIn.class);

  /** The session cookie's name. */
  public static final String SESSION_COOKIE = "vfps_session";

  /** The flow cookies' names: this, then the flow's {@code state}. */
  public static final String FLOW_COOKIE_PREFIX = "vfps_signin_";

  /** How long a user has between starting a sign-in and coming back from the provider. */
  public static final Duration FLOW_LIFETIME = Duration.ofMinutes(10);

  /**
   * The longest a session lasts after its sign-in, renewals included (a working day): then the user
   * signs in again, at the provider without a form while its own session lasts. It bounds how long
   * a signed-out session is remembered.
   */
  public static final Duration SESSION_LIFETIME = Duration.ofHours(12);

  /** The largest session cookie value; browsers keep 4,096 bytes of name and value. */
  static final int MAX_COOKIE_CHARACTERS = 3_800;

  private static final String SCOPE = "openid profile email";

  /** Where to send the browser to sign in, and the flow's cookie to set on the way. */
  public record Redirect(String location, String flowCookieName, String flowCookie) {}

  /** A session and the cookie value that carries it. */
  public record Sealed(UiSession session, String cookie) {}

  /** A finished sign-in: the session, and the local path the user wanted to go to. */
  public record SignedIn(Sealed session, String returnUrl) {}

  private final String clientId;
  private final String clientSecret;
  private final boolean usePushedAuthorizationRequests;
  private final BearerTokens tokens;
  private final ProviderKeys keys;
  private final SessionSeal seal;
  private final EndedSessions endedSessions;
  private final Clock clock;
  private final SecureRandom random = new SecureRandom();

  SignIn(
      AuthorizationConfig config,
      BearerTokens tokens,
      SessionSeal seal,
      EndedSessions endedSessions,
      Clock clock) {
    this.clientId = config.signIn().clientId();
    this.clientSecret = config.signIn().clientSecret();
    this.usePushedAuthorizationRequests = config.signIn().usePushedAuthorizationRequests();
    this.tokens = tokens;
    this.keys = tokens.keys();
    this.seal = seal;
    this.endedSessions = endedSessions;
    this.clock = clock;
  }

  /**
   * Starts a sign-in that comes back to {@code redirectUri} and then goes to {@code returnUrl}.
   * Fails with {@code UNAVAILABLE} while the provider is unknown or unreachable, refuses the pushed
   * request, or has a discovery document the sign-in cannot use (the message says which).
   */
  public Future<Redirect> begin(String redirectUri, String returnUrl) {
    return endpoints().compose(endpoints -> begin(endpoints, redirectUri, returnUrl));
  }

  private Future<Redirect> begin(
      ProviderEndpoints endpoints, String redirectUri, String returnUrl) {
    String state = randomText(16);
    String nonce = randomText(16);
    String verifier = randomText(32);
    MultiMap request =
        MultiMap.caseInsensitiveMultiMap()
            .add("response_type", "code")
            .add("client_id", clientId)
            .add("redirect_uri", redirectUri)
            .add("scope", SCOPE)
            .add("state", state)
            .add("nonce", nonce)
            .add("code_challenge", challenge(verifier))
            .add("code_challenge_method", "S256");
    String cookieName = FLOW_COOKIE_PREFIX + state;
    String flowCookie =
        seal.seal(
            cookieName,
            new JsonObject()
                .put("state", state)
                .put("nonce", nonce)
                .put("verifier", verifier)
                .put("redirectUri", redirectUri)
                .put("returnUrl", returnUrl)
                .put("exp", now() + FLOW_LIFETIME.toSeconds()));
    Future<String> location =
        usePushedAuthorizationRequests && endpoints.pushedAuthorizationRequest() != null
            ? push(endpoints, request)
                .map(
                    requestUri ->
                        withQuery(
                            endpoints.authorization(),
                            "client_id="
                                + ProviderClient.formEncode(clientId)
                                + "&request_uri="
                                + ProviderClient.formEncode(requestUri)))
            : Future.succeededFuture(
                withQuery(endpoints.authorization(), ProviderClient.encode(request)));
    return location.map(to -> new Redirect(to, cookieName, flowCookie));
  }

  /**
   * Finishes the sign-in the provider sent back with {@code state} and {@code code}: the code is
   * exchanged for tokens, which are checked. Fails with {@code INVALID_ARGUMENT} when the flow
   * cookie is missing, foreign or expired or the provider refuses the code (the user signs in
   * again), and with {@code UNAVAILABLE} when the provider cannot be reached or its answer or
   * tokens are not what the configuration asks for (the message says what: a setting of the
   * provider or of vfps to fix).
   *
   * @param flowCookie the value of the cookie {@code FLOW_COOKIE_PREFIX + state}; null when absent
   */
  public Future<SignedIn> complete(String state, String code, String flowCookie) {
    String cookieName = FLOW_COOKIE_PREFIX + state;
    JsonObject flow = flowCookie == null ? null : seal.open(cookieName, flowCookie).orElse(null);
    if (flow == null
        || !state.equals(flow.getString("state"))
        || flow.getLong("exp") <= now()
        || code == null
        || code.isEmpty()) {
      return Future.failedFuture(
          new ServiceException(
              ErrorCode.INVALID_ARGUMENT,
              "This sign-in is unknown or has expired: it must be finished within "
                  + FLOW_LIFETIME.toMinutes()
                  + " minutes, in the browser that started it. Sign in again."));
    }
    MultiMap form =
        MultiMap.caseInsensitiveMultiMap()
            .add("grant_type", "authorization_code")
            .add("code", code)
            .add("redirect_uri", flow.getString("redirectUri"))
            .add("code_verifier", flow.getString("verifier"));
    return endpoints()
        .compose(endpoints -> tokenRequest(endpoints, form))
        .compose(answer -> signedIn(answer, flow.getString("nonce")))
        .map(session -> new SignedIn(session, flow.getString("returnUrl")));
  }

  /**
   * The session renewed with its refresh token: new roles and expiry from a new access token, the
   * same sign-in, user and CSRF token. Fails with {@code UNAUTHENTICATED} when the session has no
   * refresh token, has reached its end, or the provider no longer accepts the token (the user signs
   * in again), and with {@code UNAVAILABLE} as {@link #complete}.
   *
   * @param session a session that was not signed out ({@link #session(String)})
   */
  public Future<Sealed> refresh(UiSession session) {
    if (session.refreshToken().isEmpty() || now() >= session.endsAt()) {
      return Future.failedFuture(
          new ServiceException(
              ErrorCode.UNAUTHENTICATED, "The session has ended and cannot be renewed."));
    }
    MultiMap form =
        MultiMap.caseInsensitiveMultiMap()
            .add("grant_type", "refresh_token")
            .add("refresh_token", session.refreshToken());
    return endpoints()
        .compose(endpoints -> tokenRequest(endpoints, form))
        .recover(
            failure ->
                Future.failedFuture(
                    failure instanceof ServiceException e && e.code() == ErrorCode.INVALID_ARGUMENT
                        ? new ServiceException(ErrorCode.UNAUTHENTICATED, e.getMessage())
                        : failure))
        .compose(
            answer ->
                accessToken(answer)
                    .compose(
                        valid -> {
                          // a token without sub names the client, not the user: the session does
                          if (valid.identity().id().issuer() == CallerId.Issuer.PROVIDER_SUB
                              && !valid.identity().id().subject().equals(session.subject())) {
                            return Future.failedFuture(
                                tokensRefused("the refreshed access token names another subject"));
                          }
                          String refreshToken =
                              answer.getValue("refresh_token") instanceof String text
                                  ? text
                                  : session.refreshToken();
                          return sealed(
                              session.refreshed(
                                  valid.identity().roles(), valid.expiresAtSecond(), refreshToken));
                        }));
  }

  /**
   * The session a cookie value carries, current or not, without asking whether it was signed out;
   * empty for a value not sealed by vfps.
   */
  public Optional<UiSession> open(String cookie) {
    return cookie == null
        ? Optional.empty()
        : seal.open(SESSION_COOKIE, cookie).flatMap(UiSession::fromJson);
  }

  /**
   * The session a cookie value carries, current or not; empty for a value not sealed by vfps and
   * for a session signed out on any replica. Fails with {@code UNAVAILABLE} when the database
   * cannot say.
   */
  public Future<Optional<UiSession>> session(String cookie) {
    Optional<UiSession> opened = open(cookie);
    if (opened.isEmpty()) {
      return Future.succeededFuture(opened);
    }
    return signedOut(opened.get()).map(ended -> ended ? Optional.empty() : opened);
  }

  /** Whether the session was signed out, on any replica. */
  Future<Boolean> signedOut(UiSession session) {
    return endedSessions.ended(session.id());
  }

  /**
   * Ends the session on every replica: from now on its cookie, and every copy of it, is refused.
   * Fails with {@code UNAVAILABLE} when the database cannot record it.
   */
  public Future<Void> end(UiSession session) {
    // kept as long as a copy of the cookie could be current
    return endedSessions.end(
        session.id(),
        Instant.ofEpochSecond(session.endsAt() + ProviderTokenChecks.LEEWAY_SECONDS),
        clock.instant());
  }

  /**
   * Whether the session is current: its access token's expiry is not passed (with the clock skew
   * bearer tokens get).
   */
  public boolean current(UiSession session) {
    return now() < session.expiresAt() + ProviderTokenChecks.LEEWAY_SECONDS;
  }

  /** Whether the session is current, or can be renewed with its refresh token before its end. */
  public boolean usable(UiSession session) {
    return current(session) || (!session.refreshToken().isEmpty() && now() < session.endsAt());
  }

  /** Whether the provider's keys and discovery document are loaded, so a sign-in can start. */
  public boolean ready() {
    return keys.current() != null;
  }

  /**
   * Where to send the browser to sign out at the provider too (its {@code end_session_endpoint},
   * naming the client and where to come back to); empty when it has none.
   */
  public Optional<String> endSession(String postLogoutRedirectUri) {
    ProviderKeys.Keys loaded = keys.current();
    if (loaded == null) {
      return Optional.empty();
    }
    URI endSession;
    try {
      endSession = ProviderEndpoints.of(loaded.discovery(), keys.requireHttps()).endSession();
    } catch (ServiceException e) {
      return Optional.empty();
    }
    return Optional.ofNullable(endSession)
        .map(
            uri ->
                withQuery(
                    uri,
                    "client_id="
                        + ProviderClient.formEncode(clientId)
                        + "&post_logout_redirect_uri="
                        + ProviderClient.formEncode(postLogoutRedirectUri)));
  }

  private Future<ProviderEndpoints> endpoints() {
    ProviderKeys.Keys loaded = keys.current();
    if (loaded == null) {
      return Future.failedFuture(
          new ServiceException(
              ErrorCode.UNAVAILABLE,
              "The OIDC provider has not been reached yet (its discovery document and keys are not"
                  + " loaded); try again shortly."));
    }
    // a discovery document the sign-in cannot use throws: the future fails with it
    return Future.<Void>succeededFuture()
        .map(ignored -> ProviderEndpoints.of(loaded.discovery(), keys.requireHttps()));
  }

  /** The {@code request_uri} of a pushed authorization request. */
  private Future<String> push(ProviderEndpoints endpoints, MultiMap request) {
    return post(endpoints, endpoints.pushedAuthorizationRequest(), request)
        .compose(
            reply ->
                (reply.status() == 201 || reply.status() == 200)
                        && reply.body().getValue("request_uri") instanceof String requestUri
                    ? Future.succeededFuture(requestUri)
                    : Future.failedFuture(refused("pushed authorization request", reply)));
  }

  /** The provider's answer to a token request; fails as {@link #complete} describes. */
  private Future<JsonObject> tokenRequest(ProviderEndpoints endpoints, MultiMap form) {
    return post(endpoints, endpoints.token(), form)
        .compose(
            reply ->
                reply.status() == 200
                    ? Future.succeededFuture(reply.body())
                    : Future.failedFuture(refused("token request", reply)));
  }

  /** Posts a form with the client's credentials, as the provider takes them. */
  private Future<ProviderClient.Reply> post(
      ProviderEndpoints endpoints, URI endpoint, MultiMap form) {
    String authorization = null;
    if (endpoints.secretInBody()) {
      form.set("client_id", clientId).set("client_secret", clientSecret);
    } else {
      // RFC 6749 2.3.1: each part form-encoded before it is joined and encoded as Basic
      String credentials =
          ProviderClient.formEncode(clientId) + ":" + ProviderClient.formEncode(clientSecret);
      authorization =
          "Basic "
              + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8));
    }
    return keys.client()
        .postForm(endpoint, form, authorization)
        .recover(
            failure ->
                Future.failedFuture(
                    new ServiceException(
                        ErrorCode.UNAVAILABLE,
                        "The OIDC provider cannot be reached ("
                            + endpoint
                            + "): "
                            + failure.getMessage())));
  }

  private Future<Sealed> signedIn(JsonObject answer, String nonce) {
    if (!(answer.getValue("id_token") instanceof String idToken)) {
      return Future.failedFuture(tokensRefused("the provider's answer holds no id_token"));
    }
    Future<JsonObject> identity =
        tokens
            .checkIdToken(idToken, clientId, nonce)
            .recover(failure -> Future.failedFuture(tokensRefused(failure.getMessage())));
    return Future.all(identity, accessToken(answer))
        .compose(
            both -> {
              JsonObject id = identity.result();
              BearerTokens.Valid access = both.resultAt(1);
              CallerId user;
              try {
                user = BearerTokens.callerId(id, "ID token");
              } catch (ServiceException e) {
                return Future.failedFuture(tokensRefused(e.getMessage()));
              }
              if (user.issuer() != CallerId.Issuer.PROVIDER_SUB) {
                return Future.failedFuture(tokensRefused("the ID token names no subject (sub)"));
              }
              // an access token without sub names the client the user signed in with
              CallerId accessCaller = access.identity().id();
              if (accessCaller.issuer() == CallerId.Issuer.PROVIDER_SUB
                  && !accessCaller.equals(user)) {
                return Future.failedFuture(
                    tokensRefused("the ID token and the access token name different subjects"));
              }
              long endsAt = now() + SESSION_LIFETIME.toSeconds();
              return sealed(
                  new UiSession(
                      randomText(16),
                      user.subject(),
                      text(id, "name"),
                      text(id, "preferred_username"),
                      text(id, "email"),
                      Boolean.TRUE.equals(id.getValue("email_verified")),
                      access.identity().roles(),
                      Math.min(access.expiresAtSecond(), endsAt),
                      endsAt,
                      randomText(16),
                      answer.getValue("refresh_token") instanceof String refresh ? refresh : ""));
            });
  }

  /** The access token of a token answer, checked as the API checks bearer tokens. */
  private Future<BearerTokens.Valid> accessToken(JsonObject answer) {
    if (!(answer.getValue("access_token") instanceof String accessToken)) {
      return Future.failedFuture(tokensRefused("the provider's answer holds no access_token"));
    }
    return tokens
        .checkWithExpiry(accessToken)
        .recover(failure -> Future.failedFuture(tokensRefused(failure.getMessage())));
  }

  /** The cookie value of a session, without its refresh token if it would not fit with it. */
  private Future<Sealed> sealed(UiSession session) {
    String cookie = seal.seal(SESSION_COOKIE, session.toJson());
    if (cookie.length() > MAX_COOKIE_CHARACTERS && !session.refreshToken().isEmpty()) {
      LOG.info(
          "The provider's refresh token is too long for the session cookie; the session of {}"
              + " ends with its access token",
          session.subject());
      return sealed(session.withoutRefreshToken());
    }
    if (cookie.length() > MAX_COOKIE_CHARACTERS) {
      return Future.failedFuture(
          new ServiceException(
              ErrorCode.UNAVAILABLE,
              "The session does not fit into a cookie ("
                  + cookie.length()
                  + " characters; the name, e-mail and "
                  + session.roles().size()
                  + " roles are too long)."));
    }
    return Future.succeededFuture(new Sealed(session, cookie));
  }

  private static ServiceException refused(String what, ProviderClient.Reply reply) {
    String error = reply.body().getValue("error") instanceof String e ? e : "";
    String description =
        reply.body().getValue("error_description") instanceof String d ? ": " + d : "";
    String message =
        "The OIDC provider refused the "
            + what
            + " ("
            + reply.status()
            + (error.isEmpty() ? "" : " " + error)
            + description
            + ")";
    if (error.equals("invalid_grant")) {
      return new ServiceException(ErrorCode.INVALID_ARGUMENT, message + ". Sign in again.");
    }
    if (error.equals("invalid_client") || error.equals("unauthorized_client")) {
      message += "; check Authorization__ClientId and Authorization__ClientSecret";
    }
    return new ServiceException(ErrorCode.UNAVAILABLE, message + ".");
  }

  private static ServiceException tokensRefused(String reason) {
    return new ServiceException(
        ErrorCode.UNAVAILABLE, "The OIDC provider's tokens are not accepted: " + reason);
  }

  private static String text(JsonObject claims, String name) {
    return claims.getValue(name) instanceof String value ? value : "";
  }

  private static String withQuery(URI endpoint, String query) {
    return endpoint + (endpoint.getRawQuery() == null ? "?" : "&") + query;
  }

  private String randomText(int bytes) {
    byte[] value = new byte[bytes];
    random.nextBytes(value);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(value);
  }

  /** The PKCE S256 challenge of a verifier: base64url of its SHA-256. */
  static String challenge(String verifier) {
    try {
      return Base64.getUrlEncoder()
          .withoutPadding()
          .encodeToString(
              MessageDigest.getInstance("SHA-256")
                  .digest(verifier.getBytes(StandardCharsets.US_ASCII)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }

  private long now() {
    return clock.instant().getEpochSecond();
  }
}
