package org.vfps.auth;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.NoSuchKeyIdException;
import io.vertx.ext.auth.authentication.TokenCredentials;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Base64;
import java.util.List;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/**
 * Checks JWTs of an OIDC provider against its {@link ProviderKeys}: signed with an asymmetric
 * algorithm by one of the provider's keys (fetched again once for an unknown key id), naming its
 * issuer and the audience, with an expiry ({@code exp}) not passed and a {@code nbf} reached, both
 * with {@link #LEEWAY_SECONDS} of clock skew. What a token may do is the caller's to decide from
 * its claims. Thread-safe.
 */
public final class ProviderTokenChecks {

  /** The clock skew allowed on {@code exp} and {@code nbf}. */
  static final int LEEWAY_SECONDS = 60;

  static final String BEARER_TOKEN = "bearer token";

  private final ProviderKeys keys;
  private final String audience;
  private final Clock clock;

  ProviderTokenChecks(ProviderKeys keys, String audience, Clock clock) {
    this.keys = keys;
    this.audience = audience;
    this.clock = clock;
  }

  /**
   * Starts loading the signing keys of the provider at {@code authority} (discovery at {@code
   * {authority}/.well-known/openid-configuration}, retried until they are loaded, refreshed every
   * 10 minutes; its {@code jwks_uri} must be https where {@code requireHttps}) for bearer tokens
   * whose {@code aud} names {@code audience}. The future succeeds once the first load was tried,
   * whether or not it loaded the keys; the timers and the HTTP client end with Vert.x.
   */
  public static Future<ProviderTokenChecks> start(
      Vertx vertx, URI authority, String audience, boolean requireHttps) {
    ProviderKeys keys =
        new ProviderKeys(
            vertx,
            authority,
            requireHttps,
            List.of(audience),
            LEEWAY_SECONDS,
            ProviderKeys.Timing.DEFAULT,
            Clock.systemUTC(),
            () -> {});
    ProviderTokenChecks checks = new ProviderTokenChecks(keys, audience, Clock.systemUTC());
    return keys.start().transform(tried -> Future.succeededFuture(checks));
  }

  /**
   * The claims of a valid bearer token; fails with a {@link ServiceException} of {@code
   * UNAUTHENTICATED} saying what is wrong with the token, or {@code UNAVAILABLE} while the
   * provider's keys are not loaded.
   */
  public Future<JsonObject> check(String token) {
    return validate(token, audience, BEARER_TOKEN);
  }

  /**
   * The claims of a token of {@code kind} that is well-formed, for {@code audience}, in its time,
   * issued by the provider and signed by one of its keys; fails as {@link #check} does.
   */
  Future<JsonObject> validate(String token, String audience, String kind) {
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
    long now = clock.instant().getEpochSecond();
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

  private static JsonObject decode(String part, String kind) {
    try {
      return new JsonObject(
          new String(Base64.getUrlDecoder().decode(part), StandardCharsets.UTF_8));
    } catch (RuntimeException e) {
      throw invalid(kind, "it is not a signed JWT");
    }
  }

  static ServiceException invalid(String kind, String reason) {
    return new ServiceException(
        ErrorCode.UNAUTHENTICATED, "The " + kind + " is not valid: " + reason + ".");
  }
}
