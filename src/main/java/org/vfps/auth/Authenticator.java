package org.vfps.auth;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.util.Optional;
import org.vfps.access.Access;
import org.vfps.access.AccessSnapshots;
import org.vfps.access.AccessStore;
import org.vfps.access.Audit;
import org.vfps.access.Caller;
import org.vfps.access.EndedSessions;
import org.vfps.access.Operation;
import org.vfps.config.AuthorizationConfig;

/**
 * Turns a request's {@code Authorization} header (or the admin UI's session cookie) into the {@link
 * Caller} the domain services check. The edges call it once per API call, on the request's context;
 * it never blocks and makes no network call per request. Thread-safe.
 */
public interface Authenticator {

  /** Authorization off: every caller is anonymous, and the permission rules let it do anything. */
  Authenticator OFF = (authorization, clientAddress, operation) -> anonymous(clientAddress);

  /**
   * What an authenticator checks credentials with.
   *
   * @param config the authorization settings; the authenticator is {@link #OFF} when they are off
   * @param audit where calls without valid credentials are written
   * @param access refuses callers without any right ({@link Access#entitled})
   * @param sessionKey the 32-byte key every replica seals the admin UI's session cookies with; used
   *     when the config has a sign-in client
   * @param endedSessions where the admin UI's signed-out sessions are kept; used as {@code
   *     sessionKey}
   * @param snapshots the access tokens, when the config enables them
   * @param store where the tokens' last use is written back
   */
  record Dependencies(
      Vertx vertx,
      AuthorizationConfig config,
      Audit audit,
      Access access,
      byte[] sessionKey,
      EndedSessions endedSessions,
      AccessSnapshots snapshots,
      AccessStore store) {}

  /**
   * The authenticator {@code dependencies.config()} asks for: {@link #OFF} when authorization is
   * off; else one that starts loading the provider's signing keys (when an authority is configured)
   * and returns at once.
   */
  static Authenticator start(Dependencies dependencies) {
    if (!dependencies.config().enabled()) {
      return OFF;
    }
    return new CredentialAuthenticator(
        dependencies, ProviderKeys.Timing.DEFAULT, Clock.systemUTC());
  }

  /**
   * The caller of a request, entitled to try the operation. Fails with {@code UNAUTHENTICATED} when
   * there are no credentials or they are not valid (written to the audit trail), with {@code
   * UNAVAILABLE} while a bearer token cannot be checked because the provider's keys are not loaded
   * yet, and with {@code PERMISSION_DENIED} when the caller holds no right at all ({@link
   * Access#entitled}): such a caller is refused before its call takes a place in admission control.
   *
   * @param authorization the header's value; null when absent
   * @param clientAddress where the request came from, for the audit trail
   * @param operation what the request asks for, for the audit trail
   */
  Future<Caller> authenticate(String authorization, String clientAddress, Operation operation);

  /**
   * The caller of a request that sent no {@code Authorization} header but the admin UI's session
   * cookie; fails as {@link #authenticate} does, when the session is not valid, has ended or was
   * signed out (which takes a database round trip; only the admin UI's requests pay it). Where the
   * UI has no sign-in, the cookie is no credential: as {@link #authenticate} without a header.
   *
   * @param session the cookie's value
   */
  default Future<Caller> authenticateSession(
      String session, String clientAddress, Operation operation) {
    return authenticate(null, clientAddress, operation);
  }

  /**
   * Whether a state-changing request that sent no {@code Authorization} header, but the session
   * cookie, carries the CSRF token of that session: true when the cookie does not authenticate
   * (there is nothing to forge with it), else whether {@code token} is the session's.
   *
   * @param token the request's CSRF token; null when absent
   */
  default boolean csrfTokenValid(String session, String token) {
    return true;
  }

  /** The admin UI's sign-in; empty when authorization is off or no sign-in client is set. */
  default Optional<SignIn> signIn() {
    return Optional.empty();
  }

  /** Whether bearer tokens can be checked (the provider's keys are loaded), for readiness. */
  default boolean ready() {
    return true;
  }

  /**
   * Ends, never failing, once the first try to load the OIDC provider's keys has ended, loaded or
   * not, or after a few seconds without an answer: the start opens the listeners then, so that the
   * first bearer tokens find the keys where the provider answers.
   */
  default Future<Void> started() {
    return Future.succeededFuture();
  }

  /** Whether this authenticator checks credentials at all (false for {@link #OFF}). */
  default boolean enabled() {
    return false;
  }

  /** Writes back what is pending (the access tokens' last use); blocks for at most 5 s. */
  default void close() {}

  private static Future<Caller> anonymous(String clientAddress) {
    return Future.succeededFuture(Caller.anonymous(clientAddress));
  }
}
