package org.vfps.grpc;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.net.impl.ConnectionBase;

/**
 * Lets the replies that become ready together on an HTTP/2 connection leave in one socket write.
 *
 * <p>Vert.x flushes an HTTP/2 connection after every frame it writes outside that connection's own
 * reads, and most replies are written there: when a statement to PostgreSQL completes, every call
 * it served writes its reply from the database connection's read. A statement of 16 Creates thus
 * cost about 35 {@code write} system calls, and a {@code CreateStream} of 1,000 creates 1,000.
 * Netty's {@link FlushConsolidationHandler}, placed behind Vert.x's HTTP/2 handler, turns those
 * flushes into one, run as a task of the event loop once the current one ends (or at once after
 * {@link #MOST_DEFERRED} of them), so the replies of one statement go out together. The flush at
 * the end of the connection's own read, which sends the replies written during it (cache hits),
 * goes from Vert.x's handler towards the socket, does not pass this one, and is unchanged.
 */
final class ReplyFlushes {

  /** A flush goes out at once after this many were held back within one task. */
  static final int MOST_DEFERRED = 256;

  static final String HANDLER_NAME = "vfps-reply-flushes";

  private ReplyFlushes() {}

  /** Installs the consolidation on the connection if it is HTTP/2; leaves others as they are. */
  static void consolidate(HttpConnection connection) {
    if (connection instanceof ConnectionBase base) {
      ChannelHandlerContext http2 = base.channelHandlerContext();
      if (http2.handler() instanceof Http2ConnectionHandler
          && http2.pipeline().get(HANDLER_NAME) == null) {
        http2
            .pipeline()
            .addAfter(
                http2.name(), HANDLER_NAME, new FlushConsolidationHandler(MOST_DEFERRED, true));
      }
    }
  }
}
