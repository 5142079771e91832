package org.vfps.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.PlainHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Comparator;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * An OIDC provider inside the test JVM: discovery and JWKS served by a Vert.x HTTP server on a port
 * fixed at construction (so a service can be pointed at it before it starts), RSA and EC signing
 * keys that the tests rotate, and tokens signed with nimbus-jose-jwt, the bad ones included. Not
 * started until {@link #start()}.
 *
 * <p>For the admin UI's sign-in it is an authorization server too: one confidential client ({@link
 * #CLIENT_ID}, {@link #CLIENT_SECRET}, {@code client_secret_basic}), an authorization endpoint that
 * shows a form with a button per test user ({@code #user-<name>}), the authorization code grant
 * with PKCE S256 (checked), refresh tokens, pushed authorization requests (offered unless turned
 * off) and an end-session endpoint; it records what it was asked. Codes, request URIs and refresh
 * tokens are single-use or live in memory only.
 */
public final class TestOidcProvider implements AutoCloseable {

  /** The audience the service is configured with. */
  public static final String AUDIENCE = "vfps";

  /** The admin UI's client. */
  public static final String CLIENT_ID = "vfps-web";

  public static final String CLIENT_SECRET = "web secret: not 4 the logs";

  private static final String PROTOCOL = "/realms/test/protocol/openid-connect";

  /** A user the login form offers. */
  public record User(String username, String name, List<String> roles) {}

  /** An authorization request as the authorization endpoint saw it. */
  public record AuthorizationRequest(boolean pushed, Map<String, String> parameters) {}

  private final Vertx vertx = Vertx.vertx();
  private final int port;
  private final AtomicInteger keyRequests = new AtomicInteger();
  private final Map<String, User> users = new ConcurrentHashMap<>();
  private final Map<String, Map<String, String>> pushed = new ConcurrentHashMap<>();
  private final Map<String, Map<String, String>> pending = new ConcurrentHashMap<>();
  private final Map<String, Map<String, String>> codes = new ConcurrentHashMap<>();
  private final Map<String, String> refreshTokens = new ConcurrentHashMap<>();
  private final Map<String, String> pages = new ConcurrentHashMap<>();
  private final List<AuthorizationRequest> authorizationRequests = new CopyOnWriteArrayList<>();
  private final List<Map<String, String>> endSessionRequests = new CopyOnWriteArrayList<>();
  private final List<String> grants = new CopyOnWriteArrayList<>();
  private volatile boolean offerPushedAuthorizationRequests = true;
  private volatile boolean issueRefreshTokens = true;
  private volatile boolean accessTokensWithSub = true;
  private volatile Duration accessTokenLifetime = Duration.ofMinutes(5);
  private volatile RSAKey signingKey = rsaKey();
  private volatile ECKey ecKey = ecKey();
  private HttpServer server;

  public TestOidcProvider() {
    try (ServerSocket socket = new ServerSocket(0)) {
      this.port = socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The issuer, which is also the authority to configure ({@code http}, so set the service's {@code
   * Authorization__RequireHttpsMetadata=false}).
   */
  public String issuer() {
    return "http://127.0.0.1:" + port + "/realms/test";
  }

  /**
   * The service's settings for authorization on against this provider, with the admin UI's sign-in
   * client; the role model is the caller's to add.
   */
  public Map<String, String> signInSettings() {
    Map<String, String> settings = new HashMap<>();
    settings.put("Authorization__IsEnabled", "true");
    settings.put("Authorization__Authority", issuer());
    settings.put("Authorization__Audience", AUDIENCE);
    settings.put("Authorization__RequireHttpsMetadata", "false");
    settings.put("Authorization__ClientId", CLIENT_ID);
    settings.put("Authorization__ClientSecret", CLIENT_SECRET);
    return settings;
  }

  /** Serves discovery, keys and the endpoints of the sign-in; blocks until it listens. */
  public TestOidcProvider start() {
    Router router = Router.router(vertx);
    router.route().handler(BodyHandler.create(false));
    router
        .get("/realms/test/.well-known/openid-configuration")
        .handler(rc -> json(rc, 200, discovery()));
    router
        .get(PROTOCOL + "/certs")
        .handler(
            rc -> {
              keyRequests.incrementAndGet();
              rc.response()
                  .putHeader("content-type", "application/json")
                  .end(publishedKeys().toString());
            });
    router.get(PROTOCOL + "/auth").handler(this::authorize);
    router.post(PROTOCOL + "/auth/login").handler(this::login);
    router.post(PROTOCOL + "/token").handler(this::tokenEndpoint);
    router.post(PROTOCOL + "/par").handler(this::pushedAuthorizationRequest);
    router.get(PROTOCOL + "/logout").handler(this::endSession);
    router
        .get("/pages/*")
        .handler(
            rc -> {
              String page = pages.get(rc.request().path());
              if (page == null) {
                rc.response().setStatusCode(404).end();
              } else {
                rc.response().putHeader("content-type", "text/html; charset=utf-8").end(page);
              }
            });
    server = vertx.createHttpServer().requestHandler(router);
    server.listen(port, "127.0.0.1").await();
    return this;
  }

  /**
   * The origin of this server ({@code http://127.0.0.1:<port>}): another origin than a service's.
   */
  public String origin() {
    return "http://127.0.0.1:" + port;
  }

  /** Serves an HTML page at {@code /pages/<name>} of {@link #origin()}; returns its address. */
  public String page(String name, String html) {
    pages.put("/pages/" + name, html);
    return origin() + "/pages/" + name;
  }

  /** Adds a user to the login form: its subject is its user name. */
  public TestOidcProvider user(String username, String name, String... roles) {
    users.put(username, new User(username, name, List.of(roles)));
    return this;
  }

  /** Whether discovery names a pushed authorization request endpoint (it does by default). */
  public TestOidcProvider offerPushedAuthorizationRequests(boolean offer) {
    offerPushedAuthorizationRequests = offer;
    return this;
  }

  /** Whether the token endpoint gives refresh tokens (it does by default). */
  public TestOidcProvider issueRefreshTokens(boolean issue) {
    issueRefreshTokens = issue;
    return this;
  }

  /**
   * Whether the access tokens of a sign-in name the user by {@code sub} (they do by default), or by
   * the client only ({@code azp}), as Keycloak's do for a client without the {@code basic} scope.
   */
  public TestOidcProvider accessTokensWithSub(boolean withSub) {
    accessTokensWithSub = withSub;
    return this;
  }

  /** How long the access tokens of a sign-in are valid (five minutes by default). */
  public TestOidcProvider accessTokenLifetime(Duration lifetime) {
    accessTokenLifetime = lifetime;
    return this;
  }

  /** The authorization requests the authorization endpoint accepted, in order. */
  public List<AuthorizationRequest> authorizationRequests() {
    return List.copyOf(authorizationRequests);
  }

  /** The parameters of the end-session requests, in order. */
  public List<Map<String, String>> endSessionRequests() {
    return List.copyOf(endSessionRequests);
  }

  /** The grant types of the token requests the token endpoint answered with tokens, in order. */
  public List<String> grants() {
    return List.copyOf(grants);
  }

  private JsonObject discovery() {
    JsonObject discovery =
        new JsonObject()
            .put("issuer", issuer())
            .put("jwks_uri", issuer() + "/protocol/openid-connect/certs")
            .put("authorization_endpoint", issuer() + "/protocol/openid-connect/auth")
            .put("token_endpoint", issuer() + "/protocol/openid-connect/token")
            .put("end_session_endpoint", issuer() + "/protocol/openid-connect/logout")
            .put(
                "token_endpoint_auth_methods_supported",
                new JsonArray().add("client_secret_basic").add("private_key_jwt"))
            .put("code_challenge_methods_supported", new JsonArray().add("S256"));
    if (offerPushedAuthorizationRequests) {
      discovery.put(
          "pushed_authorization_request_endpoint", issuer() + "/protocol/openid-connect/par");
    }
    return discovery;
  }

  /**
   * The authorization endpoint: the request (pushed, or in the query) is checked, then a form
   * offers the users.
   */
  private void authorize(RoutingContext rc) {
    Map<String, String> query = parameters(rc.request().params());
    Map<String, String> request;
    boolean viaPush = query.containsKey("request_uri");
    if (viaPush) {
      request = pushed.remove(query.get("request_uri"));
      if (request == null || !CLIENT_ID.equals(query.get("client_id"))) {
        text(rc, 400, "unknown request_uri or client_id");
        return;
      }
    } else {
      request = query;
    }
    String problem = authorizationProblem(request);
    if (problem != null) {
      text(rc, 400, problem);
      return;
    }
    authorizationRequests.add(new AuthorizationRequest(viaPush, Map.copyOf(request)));
    String flow = UUID.randomUUID().toString();
    pending.put(flow, request);
    StringBuilder buttons = new StringBuilder();
    users.values().stream()
        .sorted(Comparator.comparing(User::username))
        .forEach(
            user ->
                buttons
                    .append("<p><button type=\"submit\" name=\"user\" value=\"")
                    .append(user.username())
                    .append("\" id=\"user-")
                    .append(user.username())
                    .append("\">Sign in as ")
                    .append(user.username())
                    .append(" (")
                    .append(String.join(", ", user.roles()))
                    .append(")</button></p>"));
    rc.response()
        .putHeader("content-type", "text/html; charset=utf-8")
        .end(
            "<!DOCTYPE html><html><head><title>Test provider sign-in</title></head><body>"
                + "<h1>Test provider</h1><form method=\"post\" action=\""
                + PROTOCOL
                + "/auth/login\"><input type=\"hidden\" name=\"flow\" value=\""
                + flow
                + "\">"
                + buttons
                + "</form></body></html>");
  }

  private static String authorizationProblem(Map<String, String> request) {
    if (!CLIENT_ID.equals(request.get("client_id"))) {
      return "unknown client_id";
    }
    if (!"code".equals(request.get("response_type"))) {
      return "response_type must be code";
    }
    String redirectUri = request.getOrDefault("redirect_uri", "");
    if (!redirectUri.matches(
        "http://(127\\.0\\.0\\.1|localhost):[0-9]+/ui/authentication/callback")) {
      return "redirect_uri is not registered: " + redirectUri;
    }
    if (!"S256".equals(request.get("code_challenge_method"))
        || request.getOrDefault("code_challenge", "").isEmpty()) {
      return "PKCE S256 is required";
    }
    if (request.getOrDefault("state", "").isEmpty()
        || request.getOrDefault("nonce", "").isEmpty()) {
      return "state and nonce are required";
    }
    if (!List.of(request.getOrDefault("scope", "").split(" ")).contains("openid")) {
      return "scope must hold openid";
    }
    return null;
  }

  /** The form's answer: a code for the chosen user, back to the client. */
  private void login(RoutingContext rc) {
    Map<String, String> request = pending.remove(rc.request().getFormAttribute("flow"));
    User user = users.get(String.valueOf(rc.request().getFormAttribute("user")));
    if (request == null || user == null) {
      text(rc, 400, "unknown flow or user");
      return;
    }
    String code = UUID.randomUUID().toString();
    Map<String, String> granted = new HashMap<>(request);
    granted.put("user", user.username());
    codes.put(code, granted);
    rc.response()
        .setStatusCode(302)
        .putHeader(
            "location",
            request.get("redirect_uri")
                + "?code="
                + code
                + "&state="
                + URLEncoder.encode(request.get("state"), StandardCharsets.UTF_8))
        .end();
  }

  private void pushedAuthorizationRequest(RoutingContext rc) {
    if (!offerPushedAuthorizationRequests) {
      rc.response().setStatusCode(404).end();
      return;
    }
    if (!clientAuthenticated(rc)) {
      json(rc, 401, new JsonObject().put("error", "invalid_client"));
      return;
    }
    Map<String, String> request = parameters(rc.request().formAttributes());
    String problem = authorizationProblem(request);
    if (problem != null) {
      json(
          rc,
          400,
          new JsonObject().put("error", "invalid_request").put("error_description", problem));
      return;
    }
    String requestUri = "urn:ietf:params:oauth:request_uri:" + UUID.randomUUID();
    pushed.put(requestUri, request);
    json(rc, 201, new JsonObject().put("request_uri", requestUri).put("expires_in", 60));
  }

  private void tokenEndpoint(RoutingContext rc) {
    if (!clientAuthenticated(rc)) {
      json(rc, 401, new JsonObject().put("error", "invalid_client"));
      return;
    }
    Map<String, String> form = parameters(rc.request().formAttributes());
    String grant = form.getOrDefault("grant_type", "");
    User user;
    String nonce = null;
    if (grant.equals("authorization_code")) {
      Map<String, String> granted = codes.remove(form.getOrDefault("code", ""));
      if (granted == null
          || !granted.get("redirect_uri").equals(form.get("redirect_uri"))
          || !granted.get("code_challenge").equals(s256(form.getOrDefault("code_verifier", "")))) {
        json(rc, 400, new JsonObject().put("error", "invalid_grant"));
        return;
      }
      user = users.get(granted.get("user"));
      nonce = granted.get("nonce");
    } else if (grant.equals("refresh_token")) {
      String username = refreshTokens.get(form.getOrDefault("refresh_token", ""));
      if (username == null) {
        json(rc, 400, new JsonObject().put("error", "invalid_grant"));
        return;
      }
      user = users.get(username);
    } else {
      json(rc, 400, new JsonObject().put("error", "unsupported_grant_type"));
      return;
    }
    grants.add(grant);
    Instant now = Instant.now();
    JsonObject answer =
        new JsonObject()
            .put("token_type", "Bearer")
            .put("expires_in", accessTokenLifetime.toSeconds())
            .put(
                "access_token",
                token(
                    claims(user.username(), user.roles().toArray(String[]::new))
                        .subject(accessTokensWithSub ? user.username() : null)
                        .claim("azp", CLIENT_ID)
                        .expirationTime(Date.from(now.plus(accessTokenLifetime)))
                        .build()));
    if (nonce != null) {
      answer.put(
          "id_token",
          token(
              new JWTClaimsSet.Builder()
                  .issuer(issuer())
                  .audience(CLIENT_ID)
                  .subject(user.username())
                  .issueTime(Date.from(now))
                  .expirationTime(Date.from(now.plusSeconds(300)))
                  .claim("nonce", nonce)
                  .claim("azp", CLIENT_ID)
                  .claim("name", user.name())
                  .claim("preferred_username", user.username())
                  .claim("email", user.username() + "@example.org")
                  .build()));
    }
    if (issueRefreshTokens) {
      String refresh = form.getOrDefault("refresh_token", UUID.randomUUID().toString());
      refreshTokens.put(refresh, user.username());
      answer.put("refresh_token", refresh);
    }
    json(rc, 200, answer);
  }

  private void endSession(RoutingContext rc) {
    Map<String, String> query = parameters(rc.request().params());
    endSessionRequests.add(query);
    String back = query.get("post_logout_redirect_uri");
    if (back == null || !CLIENT_ID.equals(query.get("client_id"))) {
      text(rc, 200, "Signed out at the test provider.");
      return;
    }
    rc.response().setStatusCode(302).putHeader("location", back).end();
  }

  /** Whether the request carries the client's credentials as client_secret_basic. */
  private static boolean clientAuthenticated(RoutingContext rc) {
    String expected =
        "Basic "
            + Base64.getEncoder()
                .encodeToString(
                    (URLEncoder.encode(CLIENT_ID, StandardCharsets.UTF_8)
                            + ":"
                            + URLEncoder.encode(CLIENT_SECRET, StandardCharsets.UTF_8))
                        .getBytes(StandardCharsets.UTF_8));
    return expected.equals(rc.request().getHeader("authorization"));
  }

  private static String s256(String verifier) {
    try {
      return Base64.getUrlEncoder()
          .withoutPadding()
          .encodeToString(
              MessageDigest.getInstance("SHA-256")
                  .digest(verifier.getBytes(StandardCharsets.US_ASCII)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Map<String, String> parameters(MultiMap params) {
    Map<String, String> map = new HashMap<>();
    params.forEach(entry -> map.putIfAbsent(entry.getKey(), entry.getValue()));
    return map;
  }

  private static void json(RoutingContext rc, int status, JsonObject body) {
    rc.response()
        .setStatusCode(status)
        .putHeader("content-type", "application/json")
        .end(body.encode());
  }

  private static void text(RoutingContext rc, int status, String text) {
    rc.response().setStatusCode(status).putHeader("content-type", "text/plain").end(text);
  }

  /** Stops serving; the port stays reserved for {@link #start()}. */
  public void stop() {
    server.close().await();
  }

  /** How many times the key set was fetched. */
  public int keyRequests() {
    return keyRequests.get();
  }

  /**
   * Replaces both signing keys with new ones (new key ids); the old ones are no longer published.
   */
  public void rotate() {
    signingKey = rsaKey();
    ecKey = ecKey();
  }

  /** A token for the subject with the roles, signed RS256, valid for five minutes. */
  public String token(String subject, String... roles) {
    return token(claims(subject, roles).build());
  }

  /** A token with these claims, signed RS256 with the current key. */
  public String token(JWTClaimsSet claims) {
    return sign(claims, JWSAlgorithm.RS256, signingKey.getKeyID(), rsaSigner(signingKey));
  }

  /** A token with changed claims, e.g. {@code c -> c.expirationTime(...)}. */
  public String token(String subject, UnaryOperator<JWTClaimsSet.Builder> change) {
    return token(change.apply(claims(subject, "vfps-admin")).build());
  }

  /** A token signed ES256 with the current EC key. */
  public String ecToken(String subject, String... roles) {
    try {
      return sign(
          claims(subject, roles).build(),
          JWSAlgorithm.ES256,
          ecKey.getKeyID(),
          new ECDSASigner(ecKey));
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A token signed by a key the provider never published, under a key id it does not know. */
  public String tokenOfAnUnknownKey(String subject, String... roles) {
    RSAKey stranger = rsaKey();
    return sign(
        claims(subject, roles).build(),
        JWSAlgorithm.RS256,
        stranger.getKeyID(),
        rsaSigner(stranger));
  }

  /** An unsigned token ({@code alg: none}). */
  public String unsignedToken(String subject, String... roles) {
    return new PlainJWT(new PlainHeader(), claims(subject, roles).build()).serialize();
  }

  /**
   * A token signed HS256 with the provider's public RSA key as the HMAC secret, under its key id:
   * the key confusion attack.
   */
  public String hmacTokenWithThePublicKey(String subject, String... roles) {
    try {
      byte[] publicKey = signingKey.toRSAPublicKey().getEncoded();
      return sign(
          claims(subject, roles).build(),
          JWSAlgorithm.HS256,
          signingKey.getKeyID(),
          new MACSigner(publicKey));
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The claims of a good token: issuer, audience, subject, roles, five minutes of validity. */
  public JWTClaimsSet.Builder claims(String subject, String... roles) {
    Instant now = Instant.now();
    return new JWTClaimsSet.Builder()
        .issuer(issuer())
        .audience(AUDIENCE)
        .subject(subject)
        .issueTime(Date.from(now))
        .expirationTime(Date.from(now.plusSeconds(300)))
        .claim("roles", List.of(roles));
  }

  @Override
  public void close() {
    vertx.close().await();
  }

  private JWKSet publishedKeys() {
    List<JWK> keys = List.of(signingKey.toPublicJWK(), ecKey.toPublicJWK());
    return new JWKSet(keys);
  }

  private static String sign(
      JWTClaimsSet claims, JWSAlgorithm algorithm, String keyId, JWSSigner signer) {
    SignedJWT jwt =
        new SignedJWT(
            new JWSHeader.Builder(algorithm).keyID(keyId).type(JOSEObjectType.JWT).build(), claims);
    try {
      jwt.sign(signer);
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
    return jwt.serialize();
  }

  private static JWSSigner rsaSigner(RSAKey key) {
    try {
      return new RSASSASigner(key);
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  private static RSAKey rsaKey() {
    try {
      return new RSAKeyGenerator(2048)
          .keyID("rsa-" + UUID.randomUUID())
          .keyUse(KeyUse.SIGNATURE)
          .algorithm(JWSAlgorithm.RS256)
          .generate();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  private static ECKey ecKey() {
    try {
      return new ECKeyGenerator(Curve.P_256)
          .keyID("ec-" + UUID.randomUUID())
          .keyUse(KeyUse.SIGNATURE)
          .algorithm(JWSAlgorithm.ES256)
          .generate();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }
}
