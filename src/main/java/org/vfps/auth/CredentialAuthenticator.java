package org.vfps.auth;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Clock;
import org.vfps.access.Audit;
import org.vfps.access.Caller;
import org.vfps.access.Operation;
import org.vfps.config.AuthorizationConfig;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/**
 * Authorization on: {@code Bearer} tokens go to {@link BearerTokens} (when an authority is
 * configured), {@code Basic} credentials to {@link ClientAccounts} (when accounts are configured);
 * anything else, or nothing, is {@code UNAUTHENTICATED}. Every call without valid credentials is
 * written to the audit trail.
 */
final class CredentialAuthenticator implements Authenticator {

  private static final String BEARER = "Bearer ";
  private static final String BASIC = "Basic ";

  private final BearerTokens bearerTokens;
  private final ClientAccounts clientAccounts;
  private final Audit audit;

  CredentialAuthenticator(
      Vertx vertx,
      AuthorizationConfig config,
      Audit audit,
      ProviderKeys.Timing timing,
      Clock clock) {
    this.bearerTokens =
        config.authority().isPresent() ? new BearerTokens(vertx, config, timing, clock) : null;
    this.clientAccounts = new ClientAccounts(vertx, config.clients());
    this.audit = audit;
    if (bearerTokens != null) {
      bearerTokens.start();
    }
  }

  @Override
  public Future<Caller> authenticate(
      String authorization, String clientAddress, Operation operation) {
    Future<Identity> identity;
    if (authorization == null || authorization.isBlank()) {
      identity = rejected("no credentials were sent (Authorization: Bearer <token>)");
    } else if (startsWithIgnoreCase(authorization, BEARER)) {
      identity =
          bearerTokens == null
              ? rejected("bearer tokens are not accepted (no Authorization__Authority)")
              : bearerTokens.check(authorization.substring(BEARER.length()).strip());
    } else if (startsWithIgnoreCase(authorization, BASIC)) {
      identity =
          clientAccounts.isEmpty()
              ? rejected("Basic credentials are not accepted (no client accounts)")
              : clientAccounts.check(authorization.substring(BASIC.length()));
    } else {
      identity = rejected("the Authorization scheme is neither Bearer nor Basic");
    }
    return identity
        .map(known -> caller(known, clientAddress))
        .onFailure(
            failure -> {
              if (failure instanceof ServiceException service
                  && service.code() == ErrorCode.UNAUTHENTICATED) {
                audit.unauthenticated(operation, clientAddress, service.getMessage());
              }
            });
  }

  @Override
  public boolean ready() {
    return bearerTokens == null || bearerTokens.ready();
  }

  @Override
  public boolean enabled() {
    return true;
  }

  private static Caller caller(Identity identity, String clientAddress) {
    return new Caller(identity.subject(), identity.roles(), clientAddress);
  }

  private static Future<Identity> rejected(String reason) {
    return Future.failedFuture(
        new ServiceException(ErrorCode.UNAUTHENTICATED, "No valid credentials: " + reason + "."));
  }

  private static boolean startsWithIgnoreCase(String text, String prefix) {
    return text.regionMatches(true, 0, prefix, 0, prefix.length());
  }
}
