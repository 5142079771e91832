package org.vfps.log;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import java.net.SocketException;
import java.util.Set;
import org.slf4j.Marker;

/**
 * Turns the ERROR that Vert.x 5.0.7 writes for a connection reset before the connection had an
 * exception handler into a DEBUG line. The PostgreSQL client's new connections have none until
 * PostgreSQL has answered their request for TLS ({@code SSL Mode=Prefer}, the default). So when
 * PostgreSQL goes down (a restart, a failover) with connections of the pool waiting for that
 * answer, Vert.x's {@code ConnectionBase} logs the bare message at ERROR, once for every connection
 * attempt. The attempt fails as it should; the calls waiting for it are answered {@code
 * UNAVAILABLE}, and {@link EdgeWarnings} reports them at WARN, throttled. It is an outage of the
 * database, which that warning already says, not an error of the service.
 *
 * <p>Only that event is denied: the logger {@value #VERTX_LOGGER} at ERROR, with the message of a
 * reset and no exception other than a {@link SocketException} (Vert.x passes it when that logger is
 * at DEBUG). The line written instead (logger {@code org.vfps.log.EarlyConnectionResetFilter})
 * names no peer and no call. Every other event passes untouched.
 */
public final class EarlyConnectionResetFilter extends TurboFilter {

  /** The logger of Vert.x's connections that logs an exception nobody handles. */
  static final String VERTX_LOGGER = "io.vertx.core.net.impl.ConnectionBase";

  /** The messages of a reset read and a reset write, as the JDK words them on Linux. */
  static final Set<String> RESET_MESSAGES = Set.of("Connection reset", "Connection reset by peer");

  @Override
  public FilterReply decide(
      Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
    // the format is null when the filter is asked by isErrorEnabled(), and Set.of rejects null
    if (level != Level.ERROR
        || format == null
        || !RESET_MESSAGES.contains(format)
        || !(t == null || t instanceof SocketException)
        || !VERTX_LOGGER.equals(logger.getName())) {
      return FilterReply.NEUTRAL;
    }
    logger
        .getLoggerContext()
        .getLogger(EarlyConnectionResetFilter.class)
        .debug(
            "A connection was reset before it had a handler, as the database's are when PostgreSQL"
                + " goes down while they wait for its answer to their request for TLS");
    return FilterReply.DENY;
  }
}
