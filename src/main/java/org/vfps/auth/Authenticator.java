package org.vfps.auth;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Clock;
import org.vfps.access.Audit;
import org.vfps.access.Caller;
import org.vfps.access.Operation;
import org.vfps.config.AuthorizationConfig;

/**
 * Turns a request's {@code Authorization} header into the {@link Caller} the domain services check.
 * The edges call it once per API call, on the request's context; it never blocks and makes no
 * network call per request. Thread-safe.
 */
public interface Authenticator {

  /** Authorization off: every caller is anonymous, and the permission rules let it do anything. */
  Authenticator OFF = (authorization, clientAddress, operation) -> anonymous(clientAddress);

  /**
   * The authenticator {@code config} asks for: {@link #OFF} when authorization is off; else one
   * that starts loading the provider's signing keys (when an authority is configured) and returns
   * at once.
   *
   * @param audit where calls without valid credentials are written
   */
  static Authenticator start(Vertx vertx, AuthorizationConfig config, Audit audit) {
    if (!config.enabled()) {
      return OFF;
    }
    return new CredentialAuthenticator(
        vertx, config, audit, ProviderKeys.Timing.DEFAULT, Clock.systemUTC());
  }

  /**
   * The caller of a request. Fails with {@code UNAUTHENTICATED} when there are no credentials or
   * they are not valid (written to the audit trail), and with {@code UNAVAILABLE} while a bearer
   * token cannot be checked because the provider's keys are not loaded yet.
   *
   * @param authorization the header's value; null when absent
   * @param clientAddress where the request came from, for the audit trail
   * @param operation what the request asks for, for the audit trail
   */
  Future<Caller> authenticate(String authorization, String clientAddress, Operation operation);

  /** Whether bearer tokens can be checked (the provider's keys are loaded), for readiness. */
  default boolean ready() {
    return true;
  }

  /** Whether this authenticator checks credentials at all (false for {@link #OFF}). */
  default boolean enabled() {
    return false;
  }

  private static Future<Caller> anonymous(String clientAddress) {
    return Future.succeededFuture(Caller.anonymous(clientAddress));
  }
}
