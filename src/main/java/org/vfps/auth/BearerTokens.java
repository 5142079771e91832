package org.vfps.auth;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.NoSuchKeyIdException;
import io.vertx.ext.auth.authentication.TokenCredentials;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.vfps.access.Caller;
import org.vfps.config.AuthorizationConfig;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/**
 * Checks bearer tokens (and the admin UI's ID tokens): JWTs signed with an asymmetric algorithm by
 * one of the provider's keys, naming its issuer and the configured audience, with an expiry ({@code
 * exp}) not passed and a {@code nbf} reached, both with {@link #LEEWAY_SECONDS} of clock skew. A
 * valid token is cached until it expires (at most {@link #CACHE_CHARACTERS} characters of tokens),
 * so a repeated token costs one map lookup; the cache is emptied when the provider's keys change.
 * Thread-safe.
 */
final class BearerTokens {

  /** The clock skew allowed on {@code exp} and {@code nbf}. */
  static final int LEEWAY_SECONDS = 60;

  /** The cache's bound, in characters of the tokens it keys on. */
  static final long CACHE_CHARACTERS = 4_000_000;

  private static final String BEARER_TOKEN = "bearer token";
  private static final String ID_TOKEN = "ID token";

  /** A valid token's identity and expiry ({@code exp}, in seconds since the epoch). */
  record Valid(Identity identity, long expiresAtSecond) {}

  private final ProviderKeys keys;
  private final String audience;
  private final String roleClaimType;
  private final Clock clock;
  private final Cache<String, Valid> cache;

  BearerTokens(Vertx vertx, AuthorizationConfig config, ProviderKeys.Timing timing, Clock clock) {
    this.audience = config.audience();
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
            LEEWAY_SECONDS,
            timing,
            clock,
            cache::invalidateAll);
  }

  /** Starts loading the provider's keys; returns at once. */
  void start() {
    keys.start();
  }

  /** Whether the provider's keys are loaded. */
  boolean ready() {
    return keys.current() != null;
  }

  /**
   * The identity of a valid token; fails with {@code UNAUTHENTICATED} saying what is wrong with it,
   * or {@code UNAVAILABLE} while the keys are not loaded.
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
    return validate(token, audience, BEARER_TOKEN)
        .map(
            claims -> {
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
    return validate(token, clientId, ID_TOKEN)
        .compose(
            claims -> {
              Object azp = claims.getValue("azp");
              if (azp != null && !clientId.equals(azp)) {
                return Future.failedFuture(
                    invalid(ID_TOKEN, "it is issued to another client (azp)"));
              }
              if (!(claims.getValue("nonce") instanceof String sent)
                  || !MessageDigest.isEqual(
                      sent.getBytes(StandardCharsets.UTF_8),
                      nonce.getBytes(StandardCharsets.UTF_8))) {
                return Future.failedFuture(
                    invalid(ID_TOKEN, "it belongs to another sign-in (nonce)"));
              }
              return Future.succeededFuture(claims);
            });
  }

  /** The provider's keys, discovery document and client. */
  ProviderKeys keys() {
    return keys;
  }

  /**
   * The claims of a token of {@code kind} that is well-formed, for {@code audience}, in its time,
   * issued by the provider and signed by one of its keys (fetched again once for an unknown key).
   */
  private Future<JsonObject> validate(String token, String audience, String kind) {
    // a malformed token throws: the future fails with it
    return Future.<Void>succeededFuture()
        .map(ignored -> claims(token, audience, kind))
        .compose(claims -> verified(token, kind, claims));
  }

  /** The claims, once the token's issuer and signature are checked. */
  private Future<JsonObject> verified(String token, String kind, JsonObject claims) {
    ProviderKeys.Keys loaded = keys.current();
    if (loaded == null) {
      return Future.failedFuture(
          new ServiceException(
              ErrorCode.UNAVAILABLE,
              "The signing keys of the OIDC provider are not loaded yet; try again shortly."));
    }
    if (!loaded.issuer().equals(claims.getValue("iss"))) {
      return Future.failedFuture(
          invalid(kind, "it is not issued by the configured provider (iss)"));
    }
    return verify(loaded, token)
        .recover(
            failure ->
                failure instanceof NoSuchKeyIdException
                    ? keys.refreshForUnknownKey()
                        .compose(
                            changed ->
                                changed
                                    ? verify(keys.current(), token)
                                    : Future.failedFuture(failure))
                    : Future.failedFuture(failure))
        .transform(
            verified ->
                verified.succeeded()
                    ? Future.succeededFuture(claims)
                    : Future.failedFuture(
                        verified.cause() instanceof NoSuchKeyIdException
                            ? invalid(kind, "it is signed by a key the provider does not publish")
                            : invalid(kind, "its signature is not valid")));
  }

  private static Future<Void> verify(ProviderKeys.Keys keys, String token) {
    return keys.verifier().authenticate(new TokenCredentials(token)).mapEmpty();
  }

  /**
   * The payload of a well-formed token whose algorithm, expiry, start and audience are right; the
   * signature and the issuer are checked afterwards.
   */
  private JsonObject claims(String token, String audience, String kind) {
    String[] parts = token.split("\\.", -1);
    if (parts.length != 3 || parts[2].isEmpty()) {
      throw invalid(kind, "it is not a signed JWT");
    }
    JsonObject header = decode(parts[0], kind);
    JsonObject claims = decode(parts[1], kind);
    Object algorithm = header.getValue("alg");
    if (!(algorithm instanceof String alg) || !ProviderKeys.ALGORITHMS.contains(alg)) {
      throw invalid(kind, "its algorithm is not an accepted asymmetric signature");
    }
    long now = now();
    if (!(claims.getValue("exp") instanceof Number exp)) {
      throw invalid(kind, "it has no expiry (exp)");
    }
    if (exp.longValue() + LEEWAY_SECONDS <= now) {
      throw invalid(kind, "it is expired");
    }
    Object notBefore = claims.getValue("nbf");
    if (notBefore != null
        && (!(notBefore instanceof Number nbf) || nbf.longValue() - LEEWAY_SECONDS > now)) {
      throw invalid(kind, "it is not valid yet (nbf)");
    }
    Object audiences = claims.getValue("aud");
    boolean forUs =
        audience.equals(audiences)
            || (audiences instanceof JsonArray array && array.contains(audience));
    if (!forUs) {
      throw invalid(
          kind,
          BEARER_TOKEN.equals(kind)
              ? "it is not issued for this service (aud)"
              : "it is not issued to this client (aud)");
    }
    return claims;
  }

  private Identity identity(JsonObject claims) {
    Object subject = claims.getValue("sub");
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
        subject instanceof String s && !s.isEmpty() ? s : Caller.ANONYMOUS,
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

  private static JsonObject decode(String part, String kind) {
    try {
      return new JsonObject(
          new String(Base64.getUrlDecoder().decode(part), StandardCharsets.UTF_8));
    } catch (RuntimeException e) {
      throw invalid(kind, "it is not a signed JWT");
    }
  }

  private long now() {
    return clock.instant().getEpochSecond();
  }

  private Duration lifetime(Valid valid) {
    long seconds = valid.expiresAtSecond() - now();
    return seconds > 0 ? Duration.ofSeconds(seconds) : Duration.ZERO;
  }

  private static ServiceException invalid(String kind, String reason) {
    return new ServiceException(
        ErrorCode.UNAUTHENTICATED, "The " + kind + " is not valid: " + reason + ".");
  }
}
