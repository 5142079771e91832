package org.vfps.connection;

import java.time.Duration;
import java.util.Objects;

/**
 * The limits one listener holds its connections to; a zero duration turns that limit off.
 *
 * @param requestHeadersTimeout a new connection that has not sent a complete request head (the
 *     headers of its first call) this long after it opened is closed: idle and slow-header
 *     (slowloris) connections
 * @param idleTimeout a connection without a new request for this long is shut down gracefully
 *     (HTTP/2: GOAWAY; requests in flight may finish)
 * @param keepAliveTime an HTTP/2 connection without a new request for this long is pinged, and
 *     again after each such quiet period
 * @param keepAliveTimeout a ping not answered within this long closes the connection: the peer is
 *     gone
 * @param maxAge a connection this old is shut down gracefully, so that clients spread over new
 *     replicas
 */
public record ConnectionLimits(
    Duration requestHeadersTimeout,
    Duration idleTimeout,
    Duration keepAliveTime,
    Duration keepAliveTimeout,
    Duration maxAge) {

  /** How long requests in flight may take to finish after a graceful shutdown began. */
  public static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(30);

  public ConnectionLimits {
    requireNotNegative(requestHeadersTimeout, "requestHeadersTimeout");
    requireNotNegative(idleTimeout, "idleTimeout");
    requireNotNegative(keepAliveTime, "keepAliveTime");
    requireNotNegative(keepAliveTimeout, "keepAliveTimeout");
    requireNotNegative(maxAge, "maxAge");
  }

  /** No limits at all. */
  public static ConnectionLimits none() {
    return new ConnectionLimits(
        Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO);
  }

  private static void requireNotNegative(Duration duration, String name) {
    Objects.requireNonNull(duration, name);
    if (duration.isNegative()) {
      throw new IllegalArgumentException(name + " must not be negative");
    }
  }
}
