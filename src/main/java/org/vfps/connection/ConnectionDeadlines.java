package org.vfps.connection;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Holds the connections of one listener (one verticle instance's server) to their {@link
 * ConnectionLimits}. A request costs a map lookup and a clock read; a timer looks at every
 * connection once a second, so each limit is enforced within a second of being passed. Used on the
 * verticle's event loop only, where its server's connections live.
 */
public final class ConnectionDeadlines {

  private static final long SWEEP_MILLIS = 1_000;
  private static final Buffer PING = Buffer.buffer("vfps-pin");

  private final ConnectionLimits limits;
  private final Map<HttpConnection, Tracked> connections = new IdentityHashMap<>();

  private ConnectionDeadlines(ConnectionLimits limits) {
    this.limits = limits;
  }

  /**
   * The server options with the one limit Vert.x enforces itself: with keepalive pings on, a
   * connection without any traffic for a ping time and a ping timeout is closed. That catches a
   * connection that sent nothing at all to a listener that serves HTTP/2 without TLS, which Vert.x
   * shows no {@link HttpConnection} for until the first bytes tell the protocol; pings keep every
   * live connection from it.
   */
  public static HttpServerOptions options(HttpServerOptions options, ConnectionLimits limits) {
    if (limits.keepAliveTime().isPositive()) {
      options
          .setIdleTimeout((int) limits.keepAliveTime().plus(limits.keepAliveTimeout()).toMillis())
          .setIdleTimeoutUnit(TimeUnit.MILLISECONDS);
    }
    return options;
  }

  /**
   * Applies the limits to {@code server}'s connections: call before it listens, on the verticle's
   * event loop. A connection is seen once Vert.x knows its protocol (at once on an HTTP/1.1-only
   * listener).
   *
   * @return the server's request handler, which notes each request and hands it to {@code next}
   */
  public static Handler<HttpServerRequest> apply(
      Vertx vertx, HttpServer server, ConnectionLimits limits, Handler<HttpServerRequest> next) {
    return apply(vertx, server, limits, connection -> {}, next);
  }

  /**
   * As {@link #apply(Vertx, HttpServer, ConnectionLimits, Handler)}, with {@code opened} called
   * first for each new connection (the server has one connection handler, which this sets).
   */
  public static Handler<HttpServerRequest> apply(
      Vertx vertx,
      HttpServer server,
      ConnectionLimits limits,
      Handler<HttpConnection> opened,
      Handler<HttpServerRequest> next) {
    ConnectionDeadlines deadlines = new ConnectionDeadlines(limits);
    server.connectionHandler(
        connection -> {
          opened.handle(connection);
          deadlines.opened(connection);
        });
    vertx.setPeriodic(SWEEP_MILLIS, timer -> deadlines.sweep());
    return request -> {
      deadlines.requested(request);
      next.handle(request);
    };
  }

  private void opened(HttpConnection connection) {
    connections.put(connection, new Tracked(System.nanoTime()));
    connection.closeHandler(closed -> connections.remove(connection));
  }

  private void requested(HttpServerRequest request) {
    Tracked tracked = connections.get(request.connection());
    if (tracked != null) {
      tracked.requested = true;
      tracked.lastRequest = System.nanoTime();
      tracked.http2 = request.version() == HttpVersion.HTTP_2;
    }
  }

  private void sweep() {
    long now = System.nanoTime();
    connections.forEach((connection, tracked) -> check(connection, tracked, now));
  }

  private void check(HttpConnection connection, Tracked tracked, long now) {
    if (tracked.shuttingDown) {
      return;
    }
    if (!tracked.requested) {
      if (passed(limits.requestHeadersTimeout().toNanos(), tracked.opened, now)) {
        // nothing in flight on a connection without a request: it may go at once
        tracked.shuttingDown = true;
        connection.close();
      }
      return;
    }
    if (passed(limits.maxAge().toNanos(), tracked.opened, now)
        || passed(limits.idleTimeout().toNanos(), tracked.lastRequest, now)) {
      tracked.shuttingDown = true;
      connection.shutdown(ConnectionLimits.SHUTDOWN_GRACE.toMillis(), TimeUnit.MILLISECONDS);
      return;
    }
    if (tracked.http2
        && !tracked.pinging
        && passed(
            limits.keepAliveTime().toNanos(),
            Math.max(tracked.lastRequest, tracked.lastPong),
            now)) {
      ping(connection, tracked);
    }
  }

  private void ping(HttpConnection connection, Tracked tracked) {
    tracked.pinging = true;
    Future<Buffer> pong = connection.ping(PING);
    if (limits.keepAliveTimeout().isPositive()) {
      pong = pong.timeout(limits.keepAliveTimeout().toMillis(), TimeUnit.MILLISECONDS);
    }
    pong.onComplete(
        answered -> {
          tracked.pinging = false;
          if (answered.succeeded()) {
            tracked.lastPong = System.nanoTime();
          } else {
            tracked.shuttingDown = true;
            connection.close();
          }
        });
  }

  /** Whether a limit that is on ({@code limitNanos > 0}) has passed since {@code since}. */
  private static boolean passed(long limitNanos, long since, long now) {
    return limitNanos > 0 && now - since > limitNanos;
  }

  /** What is known of one connection; times are {@link System#nanoTime()} values. */
  private static final class Tracked {
    private final long opened;
    private boolean requested;
    private long lastRequest;
    private long lastPong = Long.MIN_VALUE;
    private boolean http2;
    private boolean pinging;
    private boolean shuttingDown;

    Tracked(long opened) {
      this.opened = opened;
    }
  }
}
