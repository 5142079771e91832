package org.vfps.auth;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.vfps.access.Access;
import org.vfps.access.AccessTokenSecret;
import org.vfps.access.Audit;
import org.vfps.access.Caller;
import org.vfps.access.Operation;
import org.vfps.config.AuthorizationConfig;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/**
 * Authorization on: {@code Bearer vfps_...} access tokens go to {@link AccessTokenChecks} (when
 * enabled), other {@code Bearer} tokens to {@link BearerTokens} (when an authority is configured),
 * {@code Basic} credentials to {@link ClientAccounts} (when accounts are configured); anything
 * else, or nothing, is {@code UNAUTHENTICATED}. With a sign-in client configured, the admin UI's
 * session cookie is a credential too (see {@link SignIn}). Every call without valid credentials is
 * written to the audit trail. A caller that authenticated but holds no right at all is refused
 * {@code PERMISSION_DENIED} ({@link Access#entitled}).
 */
final class CredentialAuthenticator implements Authenticator {

  private static final String BEARER = "Bearer ";
  private static final String BASIC = "Basic ";

  /**
   * How long the start waits for the first answer of the OIDC provider: a provider that does not
   * answer delays no start by more, and its keys are tried again in the background.
   */
  private static final Duration FIRST_TRY_PATIENCE = Duration.ofSeconds(3);

  private final BearerTokens bearerTokens;
  private final AccessTokenChecks accessTokens;
  private final ClientAccounts clientAccounts;
  private final SignIn signIn;
  private final Audit audit;
  private final Access access;
  private final Future<Void> started;

  CredentialAuthenticator(
      Authenticator.Dependencies dependencies, ProviderKeys.Timing timing, Clock clock) {
    Vertx vertx = dependencies.vertx();
    AuthorizationConfig config = dependencies.config();
    this.bearerTokens =
        config.authority().isPresent() ? new BearerTokens(vertx, config, timing, clock) : null;
    this.accessTokens =
        config.accessTokens().enabled()
            ? new AccessTokenChecks(
                vertx,
                dependencies.snapshots(),
                dependencies.store(),
                config.accessTokens().usageFlushInterval(),
                clock)
            : null;
    this.clientAccounts = new ClientAccounts(vertx, config.clients());
    this.signIn =
        bearerTokens != null && config.signIn().configured()
            ? new SignIn(
                config,
                bearerTokens,
                new SessionSeal(dependencies.sessionKey()),
                dependencies.endedSessions(),
                clock)
            : null;
    this.audit = dependencies.audit();
    this.access = dependencies.access();
    this.started =
        bearerTokens != null
            ? firstTry(vertx, bearerTokens.start())
            : Future.<Void>succeededFuture();
    if (accessTokens != null) {
      accessTokens.start();
    }
  }

  @Override
  public Future<Caller> authenticate(
      String authorization, String clientAddress, Operation operation) {
    Future<Identity> identity;
    if (authorization == null || authorization.isBlank()) {
      identity = rejected("no credentials were sent (Authorization: Bearer <token>)");
    } else if (startsWithIgnoreCase(authorization, BEARER)) {
      String token = authorization.substring(BEARER.length()).strip();
      if (token.startsWith(AccessTokenSecret.PREFIX)) {
        identity =
            accessTokens == null
                ? rejected("access tokens are not enabled (Authorization__AccessTokens__IsEnabled)")
                : accessTokens.check(token);
      } else {
        identity =
            bearerTokens == null
                ? rejected("bearer tokens are not accepted (no Authorization__Authority)")
                : bearerTokens.check(token);
      }
    } else if (startsWithIgnoreCase(authorization, BASIC)) {
      identity =
          clientAccounts.isEmpty()
              ? rejected("Basic credentials are not accepted (no client accounts)")
              : clientAccounts.check(authorization.substring(BASIC.length()), clientAddress);
    } else {
      identity = rejected("the Authorization scheme is neither Bearer nor Basic");
    }
    return audited(
        identity.compose(known -> access.entitled(known.caller(clientAddress), operation)),
        clientAddress,
        operation);
  }

  private Future<Caller> unauthenticated(String reason, String clientAddress, Operation operation) {
    return audited(rejected(reason), clientAddress, operation);
  }

  /** The caller, with a rejection written to the audit trail. */
  private <T> Future<T> audited(Future<T> caller, String clientAddress, Operation operation) {
    return caller.onFailure(
        failure -> {
          if (failure instanceof ServiceException service
              && service.code() == ErrorCode.UNAUTHENTICATED) {
            audit.unauthenticated(operation, clientAddress, service.getMessage());
          }
        });
  }

  @Override
  public Future<Caller> authenticateSession(
      String session, String clientAddress, Operation operation) {
    if (signIn == null) {
      return authenticate(null, clientAddress, operation);
    }
    UiSession opened = signIn.open(session).orElse(null);
    if (opened == null) {
      return unauthenticated(
          "the session cookie is not one of vfps (sign in again)", clientAddress, operation);
    }
    if (!signIn.current(opened)) {
      return unauthenticated("the session has ended (sign in again)", clientAddress, operation);
    }
    return signIn
        .signedOut(opened)
        .compose(
            ended ->
                ended
                    ? unauthenticated(
                        "the session was signed out (sign in again)", clientAddress, operation)
                    : access.entitled(opened.caller(clientAddress), operation));
  }

  @Override
  public boolean csrfTokenValid(String session, String token) {
    if (signIn == null) {
      return true;
    }
    return signIn
        .open(session)
        .filter(signIn::current)
        .map(opened -> opened.csrfTokenIs(token))
        .orElse(true);
  }

  @Override
  public Optional<SignIn> signIn() {
    return Optional.ofNullable(signIn);
  }

  @Override
  public boolean ready() {
    return bearerTokens == null || bearerTokens.ready();
  }

  @Override
  public Future<Void> started() {
    return started;
  }

  /** The first try's end, or {@link #FIRST_TRY_PATIENCE} if that comes sooner; never fails. */
  private static Future<Void> firstTry(Vertx vertx, Future<Void> first) {
    Promise<Void> ended = Promise.promise();
    first.onComplete(tried -> ended.tryComplete());
    vertx.setTimer(FIRST_TRY_PATIENCE.toMillis(), id -> ended.tryComplete());
    return ended.future();
  }

  @Override
  public boolean enabled() {
    return true;
  }

  @Override
  public void close() {
    if (accessTokens != null) {
      accessTokens.close();
    }
  }

  private static <T> Future<T> rejected(String reason) {
    return Future.failedFuture(
        new ServiceException(ErrorCode.UNAUTHENTICATED, "No valid credentials: " + reason + "."));
  }

  private static boolean startsWithIgnoreCase(String text, String prefix) {
    return text.regionMatches(true, 0, prefix, 0, prefix.length());
  }
}
