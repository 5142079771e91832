package org.vfps.auth;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.vfps.access.Caller;
import org.vfps.access.CallerId;
import org.vfps.config.AuthorizationConfig;

/**
 * Checks bearer tokens (and the admin UI's ID tokens) as {@link ProviderTokenChecks} does: JWTs
 * signed with an asymmetric algorithm by one of the provider's keys, naming its issuer and the
 * configured audience, with an expiry ({@code exp}) not passed and a {@code nbf} reached, naming
 * its caller (see {@link #callerId}). A valid token is cached until it expires (at most {@link
 * #CACHE_CHARACTERS} characters of tokens), so a repeated token costs one map lookup; the cache is
 * emptied when the provider's keys change. Thread-safe.
 */
final class BearerTokens {

  /** The cache's bound, in characters of the tokens it keys on. */
  static final long CACHE_CHARACTERS = 4_000_000;

  private static final String ID_TOKEN = "ID token";

  /** A valid token's identity and expiry ({@code exp}, in seconds since the epoch). */
  record Valid(Identity identity, long expiresAtSecond) {}

  private final ProviderKeys keys;
  private final ProviderTokenChecks checks;
  private final String roleClaimType;
  private final Clock clock;
  private final Cache<String, Valid> cache;

  BearerTokens(Vertx vertx, AuthorizationConfig config, ProviderKeys.Timing timing, Clock clock) {
    this.roleClaimType = config.roleClaimType();
    this.clock = clock;
    this.cache =
        Caffeine.newBuilder()
            .maximumWeight(CACHE_CHARACTERS)
            .<String, Valid>weigher((token, valid) -> token.length())
            .expireAfter(Expiry.creating((String token, Valid valid) -> lifetime(valid)))
            .build();
    this.keys =
        new ProviderKeys(
            vertx,
            config.authority().orElseThrow(),
            config.requireHttpsMetadata(),
            config.signIn().configured()
                ? List.of(config.audience(), config.signIn().clientId())
                : List.of(config.audience()),
            ProviderTokenChecks.LEEWAY_SECONDS,
            timing,
            clock,
            cache::invalidateAll);
    this.checks = new ProviderTokenChecks(keys, config.audience(), clock);
  }

  /**
   * Starts loading the provider's keys; returns at once. The future ends with the first try,
   * failing if it did not load them (they are tried again).
   */
  Future<Void> start() {
    return keys.start();
  }

  /** Whether the provider's keys are loaded. */
  boolean ready() {
    return keys.current() != null;
  }

  /**
   * The identity of a valid token; fails with {@code UNAUTHENTICATED} saying what is wrong with it
   * (a token that names no caller included), or {@code UNAVAILABLE} while the keys are not loaded.
   */
  Future<Identity> check(String token) {
    return checkWithExpiry(token).map(Valid::identity);
  }

  /** As {@link #check}, with the token's expiry. */
  Future<Valid> checkWithExpiry(String token) {
    Valid cached = cache.getIfPresent(token);
    if (cached != null && cached.expiresAtSecond() > now()) {
      return Future.succeededFuture(cached);
    }
    return checks
        .check(token)
        .map(
            claims -> {
              // a token that names no caller throws: the future fails with it, and it is not cached
              Valid valid = new Valid(identity(claims), claims.getLong("exp"));
              cache.put(token, valid);
              return valid;
            });
  }

  /**
   * The claims of a valid OIDC ID token issued to the client for the sign-in that sent {@code
   * nonce}: checked as a bearer token is, but for the client's audience (and, where it names
   * several, an authorized party {@code azp} that is the client, if any) and with the nonce; fails
   * as {@link #check} does.
   */
  Future<JsonObject> checkIdToken(String token, String clientId, String nonce) {
    return checks
        .validate(token, clientId, ID_TOKEN)
        .compose(
            claims -> {
              Object azp = claims.getValue("azp");
              if (azp != null && !clientId.equals(azp)) {
                return Future.failedFuture(
                    ProviderTokenChecks.invalid(ID_TOKEN, "it is issued to another client (azp)"));
              }
              if (!(claims.getValue("nonce") instanceof String sent)
                  || !MessageDigest.isEqual(
                      sent.getBytes(StandardCharsets.UTF_8),
                      nonce.getBytes(StandardCharsets.UTF_8))) {
                return Future.failedFuture(
                    ProviderTokenChecks.invalid(ID_TOKEN, "it belongs to another sign-in (nonce)"));
              }
              return Future.succeededFuture(claims);
            });
  }

  /** The provider's keys, discovery document and client. */
  ProviderKeys keys() {
    return keys;
  }

  /**
   * The caller a valid token's claims name: its {@code sub}; for a token without one (a client's,
   * by client credentials, as Keycloak issues them without the {@code basic} scope) its {@code
   * azp}, which {@link CallerId#azp} keeps apart from every {@code sub}. Throws {@code
   * UNAUTHENTICATED} for a token with neither, so that no two callers share a name, and for the
   * {@code sub} {@value Caller#ANONYMOUS}, the name of every caller while authorization is off.
   *
   * @param kind what the token is, for the message
   */
  static CallerId callerId(JsonObject claims, String kind) {
    if (claims.getValue("sub") instanceof String sub && !sub.isEmpty()) {
      if (sub.equals(Caller.ANONYMOUS)) {
        throw ProviderTokenChecks.invalid(
            kind,
            "its subject (sub) is '"
                + Caller.ANONYMOUS
                + "', which vfps keeps for callers without credentials");
      }
      return CallerId.sub(sub);
    }
    if (claims.getValue("azp") instanceof String azp && !azp.isEmpty()) {
      return CallerId.azp(azp);
    }
    throw ProviderTokenChecks.invalid(
        kind, "it names no caller, having neither a subject (sub) nor an authorized party (azp)");
  }

  private Identity identity(JsonObject claims) {
    CallerId id = callerId(claims, ProviderTokenChecks.BEARER_TOKEN);
    Set<String> roles = new HashSet<>();
    Object claim = claims.getValue(roleClaimType);
    if (claim instanceof String role) {
      roles.add(role);
    } else if (claim instanceof JsonArray array) {
      for (Object role : array) {
        if (role instanceof String name) {
          roles.add(name);
        }
      }
    }
    Object email = claims.getValue("email");
    Object username = claims.getValue("preferred_username");
    return new Identity(
        id,
        roles,
        Caller.Credential.PROVIDER_TOKEN,
        // an address counts for e-mail grants only when the provider verified it
        email instanceof String address
                && !address.isBlank()
                && Boolean.TRUE.equals(claims.getValue("email_verified"))
            ? address.strip().toLowerCase(Locale.ROOT)
            : null,
        username instanceof String name && !name.isEmpty() ? name : null,
        null,
        null);
  }

  private long now() {
    return clock.instant().getEpochSecond();
  }

  private Duration lifetime(Valid valid) {
    long seconds = valid.expiresAtSecond() - now();
    return seconds > 0 ? Duration.ofSeconds(seconds) : Duration.ZERO;
  }
}
