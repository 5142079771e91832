package org.vfps.voprf.server;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.server.GrpcServerRequest;
import java.util.List;
import org.vfps.auth.ProviderTokenChecks;
import org.vfps.config.VoprfServerConfig;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/**
 * Callers known by a bearer JWT of the OIDC provider, checked by {@link ProviderTokenChecks}:
 * signed with an asymmetric algorithm by a key of the provider's JWKS (found through {@code
 * {authority}/.well-known/openid-configuration}; its key set's URL https where required, outside
 * Development), naming its {@code issuer} and the audience, with an {@code exp} not passed and a
 * {@code nbf} reached (60 s of clock skew). No token or an invalid one is {@code UNAUTHENTICATED};
 * a valid one without the required scope ({@code scope}, space-separated, or {@code scp}) is {@code
 * PERMISSION_DENIED}; while the provider's keys are not loaded, {@code UNAVAILABLE}. The keys are
 * loaded at start (retried with a growing wait, up to 30 s, until they are), refreshed every 10
 * minutes, and fetched again (at most every 10 s) for a token naming an unknown key. The caller's
 * name is the token's {@code sub}. Thread-safe.
 */
final class JwtBearer implements CallAuthentication {

  private final ProviderTokenChecks tokens;
  private final String requiredScope;

  private JwtBearer(ProviderTokenChecks tokens, String requiredScope) {
    this.tokens = tokens;
    this.requiredScope = requiredScope;
  }

  /**
   * Starts loading the provider's keys, whose key set's URL must be https where {@code
   * requireHttps}; succeeds once the first load was tried, whether or not it loaded them. The key
   * refresh ends with Vert.x.
   */
  static Future<CallAuthentication> start(
      Vertx vertx, VoprfServerConfig.Jwt config, boolean requireHttps) {
    return ProviderTokenChecks.start(
            vertx, config.authority().orElseThrow(), config.audience(), requireHttps)
        .map(tokens -> new JwtBearer(tokens, config.requiredScope()));
  }

  @Override
  public Future<String> caller(GrpcServerRequest<?, ?> call) {
    String header = call.headers().get("authorization");
    if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return Future.failedFuture(
          new RefusedVoprfCall(GrpcStatus.UNAUTHENTICATED, "A bearer token is required."));
    }
    return tokens
        .check(header.substring(7).strip())
        .transform(
            checked -> {
              if (checked.failed()) {
                return Future.failedFuture(rejection(checked.cause()));
              }
              JsonObject claims = checked.result();
              if (!hasScope(claims)) {
                return Future.failedFuture(
                    new RefusedVoprfCall(
                        GrpcStatus.PERMISSION_DENIED,
                        "The bearer token lacks the scope " + requiredScope + "."));
              }
              return Future.succeededFuture(
                  claims.getValue("sub") instanceof String subject && !subject.isEmpty()
                      ? subject
                      : ANONYMOUS);
            });
  }

  private static RefusedVoprfCall rejection(Throwable failure) {
    if (failure instanceof ServiceException e && e.code() == ErrorCode.UNAVAILABLE) {
      return new RefusedVoprfCall(GrpcStatus.UNAVAILABLE, e.getMessage());
    }
    return new RefusedVoprfCall(
        GrpcStatus.UNAUTHENTICATED,
        failure instanceof ServiceException e ? e.getMessage() : "The bearer token is not valid.");
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
}
