package org.vfps.log;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import org.slf4j.Marker;

/**
 * Turns one known ERROR of Vert.x 5.0.7 into a DEBUG line without a stack trace. When an HTTP/2
 * client resets a stream while the server's reply still waits in the stream's queue (the client's
 * flow-control window is full), Vert.x drops the queued writes and fails each one's promise; the
 * reply's trailers are queued without one, so dropping them throws a {@code NullPointerException}
 * in {@code io.vertx.core.http.impl.VertxHttp2Stream$3.cancel}. Netty catches it in its
 * stream-closed listener and logs it at ERROR with the stack trace. The call is over by then (the
 * client left it), nothing else is skipped, and vfps cannot catch it: it is a client's
 * cancellation, not a fault of the service.
 *
 * <p>Only that event is denied: Netty's logger {@value #NETTY_LOGGER} at ERROR, with a {@code
 * NullPointerException} whose top frame is that method. Every other event passes untouched. The
 * line written instead (logger {@code org.vfps.log.ResetStreamTrailersFilter}) names no call and no
 * value.
 */
public final class ResetStreamTrailersFilter extends TurboFilter {

  /** The logger of Netty's listener that catches the exception. */
  static final String NETTY_LOGGER = "io.netty.handler.codec.http2.DefaultHttp2Connection";

  /** The frame that throws: the queued trailers' write, cancelled without a promise. */
  static final String THROWING_CLASS = "io.vertx.core.http.impl.VertxHttp2Stream$3";

  static final String THROWING_METHOD = "cancel";

  @Override
  public FilterReply decide(
      Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
    if (level != Level.ERROR
        || !(t instanceof NullPointerException)
        || !NETTY_LOGGER.equals(logger.getName())
        || !thrownByTheTrailersCancel(t)) {
      return FilterReply.NEUTRAL;
    }
    logger
        .getLoggerContext()
        .getLogger(ResetStreamTrailersFilter.class)
        .debug(
            "A client reset a stream whose reply was still queued; Vert.x failed to drop the queued"
                + " trailers (NullPointerException in VertxHttp2Stream, a Vert.x bug, harmless)");
    return FilterReply.DENY;
  }

  private static boolean thrownByTheTrailersCancel(Throwable t) {
    StackTraceElement[] trace = t.getStackTrace();
    return trace.length > 0
        && THROWING_CLASS.equals(trace[0].getClassName())
        && THROWING_METHOD.equals(trace[0].getMethodName());
  }
}
