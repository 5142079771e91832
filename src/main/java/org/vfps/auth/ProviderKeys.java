package org.vfps.auth;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.JWTOptions;
import io.vertx.ext.auth.jwt.JWTAuth;
import io.vertx.ext.auth.jwt.JWTAuthOptions;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.config.TimeSpans;

/**
 * The OIDC provider's token signing keys: found through discovery ({@code
 * {authority}/.well-known/openid-configuration}, its {@code issuer} and {@code jwks_uri}), loaded
 * at start and retried until they are, refreshed periodically and, at most once per {@link
 * Timing#unknownKeyInterval()}, when a token names a key that is not loaded. Only asymmetric
 * signing keys are kept, so no token is ever checked with an HMAC key. A failed refresh keeps the
 * keys loaded before. The timers and the HTTP client end with Vert.x. Thread-safe.
 */
final class ProviderKeys {

  private static final Logger LOG = LoggerFactory.getLogger(ProviderKeys.class);

  /** The JOSE algorithms of asymmetric signatures: the only ones a token may name. */
  static final Set<String> ALGORITHMS =
      Set.of(
          "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA");

  private static final Set<String> KEY_TYPES = Set.of("RSA", "EC", "OKP");
  private static final String DISCOVERY_PATH = "/.well-known/openid-configuration";

  /** Discovery and the key set: two requests. */
  private static final long FETCH_TIMEOUT_MILLIS =
      2 * ProviderClient.REQUEST_TIMEOUT_MILLIS + 1_000;

  /**
   * How often the keys are fetched.
   *
   * @param refreshInterval between periodic refreshes
   * @param unknownKeyInterval the least time between two fetches for an unknown key id
   * @param firstRetry the wait after the first failed load, doubled after each failure
   * @param maxRetry the longest wait between two tries while no keys are loaded
   */
  record Timing(
      Duration refreshInterval,
      Duration unknownKeyInterval,
      Duration firstRetry,
      Duration maxRetry) {

    static final Timing DEFAULT =
        new Timing(
            Duration.ofMinutes(10),
            Duration.ofSeconds(10),
            Duration.ofSeconds(1),
            Duration.ofSeconds(30));
  }

  /**
   * A loaded key set: the issuer tokens must name, the verifier of their signatures, and the
   * discovery document it came with (which names the provider's other endpoints).
   */
  record Keys(String issuer, JWTAuth verifier, List<JsonObject> jwks, JsonObject discovery) {}

  private final Vertx vertx;
  private final Context context;
  private final ProviderClient client;
  private final String authority;
  private final URI discovery;
  private final boolean requireHttps;
  private final List<String> audiences;
  private final int leewaySeconds;
  private final Timing timing;
  private final Clock clock;
  private final Runnable onChange;

  private volatile Keys keys;
  private final AtomicReference<Future<Boolean>> fetching = new AtomicReference<>();
  private Instant lastUnknownKeyFetch;

  /**
   * @param audiences a token's {@code aud} must name one of them (the verifier's check; callers
   *     check the audience each kind of token must have)
   * @param onChange called after a fetch that changed the key set (to drop cached tokens)
   */
  ProviderKeys(
      Vertx vertx,
      URI authority,
      boolean requireHttps,
      List<String> audiences,
      int leewaySeconds,
      Timing timing,
      Clock clock,
      Runnable onChange) {
    this.vertx = vertx;
    this.context = vertx.getOrCreateContext();
    this.client = new ProviderClient(vertx);
    String base = authority.toString();
    this.authority = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
    this.discovery = URI.create(this.authority + DISCOVERY_PATH);
    this.requireHttps = requireHttps;
    this.audiences = List.copyOf(audiences);
    this.leewaySeconds = leewaySeconds;
    this.timing = timing;
    this.clock = clock;
    this.onChange = onChange;
  }

  /**
   * Starts loading the keys, retrying with a growing wait until they are loaded, then refreshes
   * them every {@link Timing#refreshInterval()}. Returns at once; the future ends with the first
   * try, failing if it did not load the keys.
   */
  Future<Void> start() {
    Future<Void> first = load(timing.firstRetry());
    vertx.setPeriodic(
        timing.refreshInterval().toMillis(),
        id ->
            fetch()
                .onFailure(
                    e ->
                        LOG.warn(
                            "Refreshing the signing keys of {} failed: {}; the loaded keys stay"
                                + " in use",
                            discovery,
                            e.getMessage())));
    return first;
  }

  /** The loaded keys; null until the first load succeeded. */
  Keys current() {
    return keys;
  }

  /** The client that talks to the provider, for its other endpoints. */
  ProviderClient client() {
    return client;
  }

  /** Whether the provider's endpoints must be https ({@code RequireHttpsMetadata}). */
  boolean requireHttps() {
    return requireHttps;
  }

  /**
   * Fetches the keys again because a token names a key id that is not loaded, unless that was done
   * less than {@link Timing#unknownKeyInterval()} ago; yields whether the key set changed. Never
   * fails.
   */
  Future<Boolean> refreshForUnknownKey() {
    synchronized (this) {
      Instant now = clock.instant();
      if (fetching.get() == null
          && lastUnknownKeyFetch != null
          && Duration.between(lastUnknownKeyFetch, now).compareTo(timing.unknownKeyInterval())
              < 0) {
        return Future.succeededFuture(false);
      }
      lastUnknownKeyFetch = now;
    }
    return fetch().otherwise(false);
  }

  private Future<Void> load(Duration wait) {
    return fetch()
        .<Void>mapEmpty()
        .onFailure(
            e -> {
              Duration next = wait.multipliedBy(2);
              Duration nextWait = next.compareTo(timing.maxRetry()) > 0 ? timing.maxRetry() : next;
              LOG.warn(
                  "The signing keys of the OIDC provider ({}) are not loaded: {}; bearer tokens"
                      + " are answered UNAVAILABLE until they are. Next try in {}",
                  discovery,
                  e.getMessage(),
                  TimeSpans.format(wait));
              vertx.setTimer(wait.toMillis(), id -> load(nextWait));
            });
  }

  /**
   * One fetch of discovery and keys at a time; concurrent callers share it. The shared fetch is
   * forgotten before its callers hear of the result, so a caller that asks again starts a new one.
   * No lock is held while a fetch runs.
   */
  private Future<Boolean> fetch() {
    Promise<Boolean> promise = Promise.promise();
    Future<Boolean> mine = promise.future();
    Future<Boolean> running = fetching.compareAndExchange(null, mine);
    if (running != null) {
      return running;
    }
    // the requests start on this object's own context, whichever thread asked
    context.runOnContext(
        started ->
            client
                .getJson(discovery)
                .compose(this::keysOf)
                .map(this::install)
                // each request has its own timeouts; this bounds the whole fetch as well, so that
                // a lost completion can never leave every later refresh waiting on this one
                .timeout(FETCH_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)
                .onComplete(
                    done -> {
                      fetching.compareAndSet(mine, null);
                      promise.handle(done);
                    }));
    return mine;
  }

  private Future<Keys> keysOf(JsonObject configuration) {
    String issuer = configuration.getValue("issuer") instanceof String s ? s : null;
    String jwksUri = configuration.getValue("jwks_uri") instanceof String s ? s : null;
    if (issuer == null || issuer.isBlank() || jwksUri == null) {
      return Future.failedFuture(
          new IllegalStateException("the discovery document has no issuer or no jwks_uri"));
    }
    URI jwks;
    try {
      jwks = URI.create(jwksUri);
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(new IllegalStateException("jwks_uri is not a URL"));
    }
    if (!allowedScheme(jwks, requireHttps)) {
      return Future.failedFuture(
          new IllegalStateException(
              "jwks_uri " + jwks + " is not https (Authorization__RequireHttpsMetadata)"));
    }
    if (!trimSlash(issuer).equals(authority)) {
      LOG.info("The OIDC provider names its issuer {}; tokens must name it", issuer);
    }
    return client.getJson(jwks).compose(set -> signingKeys(issuer, set, configuration));
  }

  /** Whether the endpoint is https, or http where {@code RequireHttpsMetadata} is false. */
  static boolean allowedScheme(URI endpoint, boolean requireHttps) {
    return "https".equalsIgnoreCase(endpoint.getScheme())
        || (!requireHttps && "http".equalsIgnoreCase(endpoint.getScheme()));
  }

  private Future<Keys> signingKeys(String issuer, JsonObject set, JsonObject configuration) {
    JsonArray all = set.getValue("keys") instanceof JsonArray array ? array : new JsonArray();
    List<JsonObject> usable = new ArrayList<>();
    for (Object key : all) {
      if (key instanceof JsonObject jwk && isAsymmetricSigningKey(jwk)) {
        usable.add(jwk);
      }
    }
    if (usable.isEmpty()) {
      return Future.failedFuture(
          new IllegalStateException("the key set holds no RSA, EC or OKP signing key"));
    }
    JWTOptions checks =
        new JWTOptions().setIssuer(issuer).setAudience(audiences).setLeeway(leewaySeconds);
    JWTAuth verifier =
        JWTAuth.create(vertx, new JWTAuthOptions().setJwks(usable).setJWTOptions(checks));
    return Future.succeededFuture(
        new Keys(issuer, verifier, List.copyOf(usable), configuration.copy()));
  }

  private boolean install(Keys loaded) {
    Keys before = keys;
    keys = loaded;
    boolean changed = before == null || !before.jwks().equals(loaded.jwks());
    if (before == null) {
      LOG.info(
          "Loaded {} signing keys of the OIDC provider (issuer {})",
          loaded.jwks().size(),
          loaded.issuer());
    } else if (changed) {
      LOG.info("The OIDC provider's signing keys changed: {} keys now", loaded.jwks().size());
    }
    if (changed) {
      onChange.run();
    }
    return changed;
  }

  static boolean isAsymmetricSigningKey(JsonObject jwk) {
    Object type = jwk.getValue("kty");
    Object use = jwk.getValue("use");
    Object algorithm = jwk.getValue("alg");
    return type instanceof String kty
        && KEY_TYPES.contains(kty)
        && (use == null || "sig".equals(use))
        && (algorithm == null || ALGORITHMS.contains(algorithm));
  }

  private static String trimSlash(String text) {
    return text.endsWith("/") ? text.substring(0, text.length() - 1) : text;
  }
}
