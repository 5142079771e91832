package org.vfps.auth;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.access.AccessSnapshot;
import org.vfps.access.AccessSnapshots;
import org.vfps.access.AccessStore;
import org.vfps.access.AccessToken;
import org.vfps.access.AccessTokenSecret;
import org.vfps.access.Caller;
import org.vfps.access.CallerId;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/**
 * Checks vfps access tokens ({@code Bearer vfps_pat_...}, {@code vfps_sat_...}) against this
 * replica's copy of the {@code access_tokens} rows, without the OIDC provider: the id must name a
 * token not revoked, the SHA-256 of the secret must equal its hash (compared in constant time), and
 * it must not have expired. Each use is remembered and written back every {@code
 * UsageFlushInterval} and at the end. Thread-safe.
 */
final class AccessTokenChecks {

  private static final Logger LOG = LoggerFactory.getLogger(AccessTokenChecks.class);
  private static final long FINAL_FLUSH_SECONDS = 5;

  private final Vertx vertx;
  private final AccessSnapshots snapshots;
  private final AccessStore store;
  private final Duration flushInterval;
  private final Clock clock;
  private final AtomicReference<Map<UUID, Instant>> used =
      new AtomicReference<>(new ConcurrentHashMap<>());
  private long timer = -1;

  AccessTokenChecks(
      Vertx vertx,
      AccessSnapshots snapshots,
      AccessStore store,
      Duration flushInterval,
      Clock clock) {
    this.vertx = vertx;
    this.snapshots = snapshots;
    this.store = store;
    this.flushInterval = flushInterval;
    this.clock = clock;
  }

  /** Starts writing the uses back periodically. */
  void start() {
    long period = Math.max(1, flushInterval.toMillis());
    timer = vertx.setPeriodic(period, period, tick -> flush());
  }

  /**
   * The identity of a valid token ({@code token} starts with {@value AccessTokenSecret#PREFIX});
   * fails with {@code UNAUTHENTICATED} in the .NET vfps's words, or {@code UNAVAILABLE} when the
   * tokens cannot be read.
   */
  Future<Identity> check(String token) {
    Optional<AccessTokenSecret> parsed = AccessTokenSecret.parse(token);
    if (parsed.isEmpty()) {
      return rejected("Malformed access token.");
    }
    AccessTokenSecret secret = parsed.get();
    Future<AccessSnapshot> fresh = snapshots.fresh();
    return fresh.succeeded()
        ? verify(secret, fresh.result())
        : fresh.compose(snapshot -> verify(secret, snapshot));
  }

  private Future<Identity> verify(AccessTokenSecret secret, AccessSnapshot known) {
    AccessToken stored = known.token(secret.tokenId());
    // the hash is computed whether or not the id is known, so that both take as long
    boolean matches = secret.matches(stored == null ? new byte[32] : stored.hash());
    if (stored == null || !matches) {
      return rejected("Unknown or revoked access token.");
    }
    Instant now = clock.instant();
    if (!stored.expiresAt().isAfter(now)) {
      return rejected("The access token has expired.");
    }
    Optional<CallerId> actsAs = stored.actsAs();
    if (actsAs.isEmpty()) {
      return rejected(
          "The access token belongs to no one (it was made for a caller without a subject);"
              + " revoke it and sign in to make a new one.");
    }
    used.get().put(stored.id(), now);
    return Future.succeededFuture(identity(stored, actsAs.get()));
  }

  /** The principal of a token, as the .NET vfps builds it. */
  private static Identity identity(AccessToken token, CallerId actsAs) {
    if (token.serviceAccount() != null) {
      return new Identity(
          actsAs,
          Set.of(),
          Caller.Credential.ACCESS_TOKEN,
          null,
          token.serviceAccount(),
          token.serviceAccount(),
          token.tokenId());
    }
    return new Identity(
        actsAs,
        Set.copyOf(token.roles()),
        Caller.Credential.ACCESS_TOKEN,
        token.email(),
        token.username(),
        null,
        token.tokenId());
  }

  /** Writes the uses since the last flush back; a failure is logged and those uses dropped. */
  Future<Void> flush() {
    Map<UUID, Instant> pending = used.getAndSet(new ConcurrentHashMap<>());
    if (pending.isEmpty()) {
      return Future.succeededFuture();
    }
    return store
        .recordUse(Map.copyOf(pending))
        .onFailure(
            failure ->
                LOG.warn(
                    "The last use of {} access tokens could not be written: {}",
                    pending.size(),
                    failure.getMessage()))
        .otherwiseEmpty();
  }

  /** Stops the timer and writes the last uses back, waiting at most 5 s. */
  void close() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
    }
    try {
      flush().timeout(FINAL_FLUSH_SECONDS, TimeUnit.SECONDS).await();
    } catch (Exception e) {
      LOG.warn("The last use of access tokens was not written at shutdown: {}", e.toString());
    }
  }

  private static <T> Future<T> rejected(String message) {
    return Future.failedFuture(new ServiceException(ErrorCode.UNAUTHENTICATED, message));
  }
}
