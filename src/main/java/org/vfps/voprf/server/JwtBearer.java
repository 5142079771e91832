package org.vfps.voprf.server;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.JWTOptions;
import io.vertx.ext.auth.NoSuchKeyIdException;
import io.vertx.ext.auth.authentication.TokenCredentials;
import io.vertx.ext.auth.jwt.JWTAuth;
import io.vertx.ext.auth.jwt.JWTAuthOptions;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.server.GrpcServerRequest;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.config.VoprfServerConfig;

/**
 * Callers known by a bearer JWT of the OIDC provider: signed with an asymmetric algorithm by a key
 * of the provider's JWKS (found through {@code {authority}/.well-known/openid-configuration}),
 * naming its {@code issuer} and the audience, with an {@code exp} not passed (60 s of clock skew).
 * No token or an invalid one is {@code UNAUTHENTICATED}; a valid one without the required scope
 * ({@code scope}, space-separated, or {@code scp}) is {@code PERMISSION_DENIED}; while the
 * provider's keys cannot be loaded, {@code UNAVAILABLE}. The keys are loaded at start, refreshed
 * every 10 minutes, and fetched again (at most every 10 s) for a token naming an unknown key. The
 * caller's name is the token's {@code sub}. Thread-safe.
 */
final class JwtBearer implements CallAuthentication {

  private static final Logger LOG = LoggerFactory.getLogger(JwtBearer.class);
  private static final Set<String> ALGORITHMS =
      Set.of(
          "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA");
  private static final Set<String> KEY_TYPES = Set.of("RSA", "EC", "OKP");
  private static final int LEEWAY_SECONDS = 60;
  private static final long REFRESH_MILLIS = 10 * 60 * 1000;
  private static final long UNKNOWN_KEY_NANOS = TimeUnit.SECONDS.toNanos(10);
  private static final long REQUEST_TIMEOUT_MILLIS = 10_000;

  private record Keys(JWTAuth verifier) {}

  private final Vertx vertx;
  private final HttpClient client;
  private final URI discovery;
  private final String audience;
  private final String requiredScope;
  private final AtomicLong lastUnknownKeyFetch =
      new AtomicLong(System.nanoTime() - UNKNOWN_KEY_NANOS);
  private volatile Keys keys;
  private Future<Keys> fetching;
  private long timer = -1;

  JwtBearer(Vertx vertx, VoprfServerConfig.Jwt config) {
    this.vertx = vertx;
    this.client =
        vertx.createHttpClient(
            new HttpClientOptions()
                .setConnectTimeout((int) REQUEST_TIMEOUT_MILLIS)
                .setVerifyHost(true));
    String authority = config.authority().orElseThrow().toString();
    this.discovery =
        URI.create(
            (authority.endsWith("/") ? authority.substring(0, authority.length() - 1) : authority)
                + "/.well-known/openid-configuration");
    this.audience = config.audience();
    this.requiredScope = config.requiredScope();
  }

  /** Starts loading the keys and refreshing them; returns at once. */
  void start() {
    fetch();
    timer = vertx.setPeriodic(REFRESH_MILLIS, id -> fetch());
  }

  void close() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
    }
    client.close();
  }

  @Override
  public Future<String> caller(GrpcServerRequest<?, ?> call) {
    String header = call.headers().get("authorization");
    if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return unauthenticated("A bearer token is required.");
    }
    String token = header.substring(7).strip();
    JsonObject claims;
    try {
      claims = wellFormed(token);
    } catch (RuntimeException e) {
      return unauthenticated("The bearer token is not valid.");
    }
    Keys loaded = keys;
    Future<Keys> ready = loaded != null ? Future.succeededFuture(loaded) : fetch();
    return ready
        .recover(
            failure ->
                Future.failedFuture(
                    new Rejection(
                        GrpcStatus.UNAVAILABLE,
                        "The signing keys of the OIDC provider are not loaded; retry later.")))
        .compose(
            current ->
                verify(current, token)
                    .recover(
                        failure ->
                            failure instanceof NoSuchKeyIdException && unknownKeyFetchAllowed()
                                ? fetch().compose(fresh -> verify(fresh, token))
                                : Future.failedFuture(failure)))
        .transform(
            verified -> {
              if (verified.failed()) {
                return verified.cause() instanceof Rejection
                    ? Future.failedFuture(verified.cause())
                    : unauthenticated("The bearer token is not valid.");
              }
              if (!hasScope(claims)) {
                return Future.failedFuture(
                    new Rejection(
                        GrpcStatus.PERMISSION_DENIED,
                        "The bearer token lacks the scope " + requiredScope + "."));
              }
              return Future.succeededFuture(
                  claims.getValue("sub") instanceof String subject && !subject.isEmpty()
                      ? subject
                      : ANONYMOUS);
            });
  }

  /** The claims of a JWT with an accepted algorithm and an expiry; throws otherwise. */
  private static JsonObject wellFormed(String token) {
    String[] parts = token.split("\\.", -1);
    if (parts.length != 3 || parts[2].isEmpty()) {
      throw new IllegalArgumentException("not a signed JWT");
    }
    JsonObject header = decode(parts[0]);
    JsonObject claims = decode(parts[1]);
    if (!(header.getValue("alg") instanceof String alg) || !ALGORITHMS.contains(alg)) {
      throw new IllegalArgumentException("not an accepted algorithm");
    }
    if (!(claims.getValue("exp") instanceof Number)) {
      throw new IllegalArgumentException("no exp");
    }
    return claims;
  }

  private static JsonObject decode(String part) {
    return new JsonObject(new String(Base64.getUrlDecoder().decode(part), StandardCharsets.UTF_8));
  }

  private boolean hasScope(JsonObject claims) {
    if (claims.getValue("scope") instanceof String scopes
        && List.of(scopes.split("\\s+")).contains(requiredScope)) {
      return true;
    }
    Object scp = claims.getValue("scp");
    if (scp instanceof String scopes) {
      return List.of(scopes.split("\\s+")).contains(requiredScope);
    }
    return scp instanceof JsonArray array && array.contains(requiredScope);
  }

  private static Future<Void> verify(Keys keys, String token) {
    return keys.verifier().authenticate(new TokenCredentials(token)).mapEmpty();
  }

  private boolean unknownKeyFetchAllowed() {
    long last = lastUnknownKeyFetch.get();
    long now = System.nanoTime();
    return now - last >= UNKNOWN_KEY_NANOS && lastUnknownKeyFetch.compareAndSet(last, now);
  }

  /** One fetch at a time; concurrent callers share it. A failure keeps the keys loaded before. */
  private Future<Keys> fetch() {
    Promise<Keys> promise = Promise.promise();
    synchronized (this) {
      if (fetching != null) {
        return fetching;
      }
      fetching = promise.future();
    }
    getJson(discovery)
        .compose(this::keysOf)
        .onComplete(
            done -> {
              if (done.succeeded()) {
                if (keys == null) {
                  LOG.info("Loaded the signing keys of the OIDC provider ({})", discovery);
                }
                keys = done.result();
              } else {
                LOG.warn(
                    "The signing keys of the OIDC provider ({}) are not loaded: {}",
                    discovery,
                    done.cause().getMessage());
              }
              synchronized (this) {
                fetching = null;
              }
              promise.handle(done);
            });
    return promise.future();
  }

  private Future<Keys> keysOf(JsonObject configuration) {
    if (!(configuration.getValue("issuer") instanceof String issuer)
        || issuer.isBlank()
        || !(configuration.getValue("jwks_uri") instanceof String jwksUri)) {
      return Future.failedFuture(
          new IllegalStateException("the discovery document has no issuer or no jwks_uri"));
    }
    URI jwks;
    try {
      jwks = URI.create(jwksUri);
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(new IllegalStateException("jwks_uri is not a URL"));
    }
    return getJson(jwks)
        .compose(
            set -> {
              List<JsonObject> usable = new ArrayList<>();
              if (set.getValue("keys") instanceof JsonArray all) {
                for (Object key : all) {
                  if (key instanceof JsonObject jwk && signingKey(jwk)) {
                    usable.add(jwk);
                  }
                }
              }
              if (usable.isEmpty()) {
                return Future.failedFuture(
                    new IllegalStateException("the key set holds no RSA, EC or OKP signing key"));
              }
              JWTOptions checks =
                  new JWTOptions()
                      .setIssuer(issuer)
                      .setAudience(List.of(audience))
                      .setLeeway(LEEWAY_SECONDS);
              return Future.succeededFuture(
                  new Keys(
                      JWTAuth.create(
                          vertx, new JWTAuthOptions().setJwks(usable).setJWTOptions(checks))));
            });
  }

  private static boolean signingKey(JsonObject jwk) {
    return jwk.getValue("kty") instanceof String type
        && KEY_TYPES.contains(type)
        && (jwk.getValue("use") == null || "sig".equals(jwk.getValue("use")))
        && (jwk.getValue("alg") == null || ALGORITHMS.contains(jwk.getValue("alg")));
  }

  private Future<JsonObject> getJson(URI uri) {
    return client
        .request(
            new RequestOptions()
                .setMethod(HttpMethod.GET)
                .setAbsoluteURI(uri.toString())
                .setTimeout(REQUEST_TIMEOUT_MILLIS)
                .putHeader("accept", "application/json"))
        .compose(request -> request.send())
        .compose(
            response ->
                response
                    .body()
                    .compose(
                        body -> {
                          if (response.statusCode() != 200) {
                            return Future.failedFuture(
                                new IllegalStateException(
                                    uri + " answered " + response.statusCode()));
                          }
                          try {
                            return Future.succeededFuture(new JsonObject(body));
                          } catch (RuntimeException e) {
                            return Future.failedFuture(
                                new IllegalStateException(uri + " answered no JSON object"));
                          }
                        }));
  }

  private static <T> Future<T> unauthenticated(String message) {
    return Future.failedFuture(new Rejection(GrpcStatus.UNAUTHENTICATED, message));
  }
}
