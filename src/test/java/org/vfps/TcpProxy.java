package org.vfps;

import io.netty.channel.ChannelOption;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.net.NetSocketInternal;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import org.vfps.config.ConnectionSettings;

/**
 * A TCP proxy in front of PostgreSQL (or the service) that a test can cut and restore, to see the
 * service lose its database and get it back; stall, to see it wait on connections that are accepted
 * but never answered; freeze, to see a peer that vanished without closing; or reset new
 * connections, as a PostgreSQL going down does.
 */
public final class TcpProxy implements AutoCloseable {

  private final Vertx vertx = Vertx.vertx();
  private final NetClient client = vertx.createNetClient();
  private final Set<NetSocket> sockets = ConcurrentHashMap.newKeySet();
  private final Set<NetSocket> clients = ConcurrentHashMap.newKeySet();
  private final Set<NetSocket> stalled = ConcurrentHashMap.newKeySet();
  private final Set<NetSocket> targets = ConcurrentHashMap.newKeySet();
  private volatile boolean stalling;
  private volatile boolean frozen;
  private volatile boolean resetting;
  private final String targetHost;
  private final int targetPort;
  private final int port;
  private NetServer server;

  public TcpProxy(String targetHost, int targetPort) {
    this.targetHost = targetHost;
    this.targetPort = targetPort;
    this.port = listenOnAFreePort();
  }

  /**
   * The proxy's ports lie below Linux's ephemeral range (32768 to 60999 by default): while the
   * proxy is cut its port is free, and an outgoing connection of the machine (the service's pool
   * reconnecting, say) could otherwise be given it as its own port, so that {@link #open} could not
   * listen again.
   */
  private static final int LOWEST_PORT = 20_000;

  private static final int HIGHEST_PORT = 32_767;

  /** Listens on a port of that range that no other listener has; a few ports are tried. */
  private int listenOnAFreePort() {
    for (int attempt = 1; ; attempt++) {
      int candidate = ThreadLocalRandom.current().nextInt(LOWEST_PORT, HIGHEST_PORT + 1);
      try {
        listen(candidate);
        return candidate;
      } catch (RuntimeException e) {
        if (attempt == 20 || !isBind(e)) {
          throw e;
        }
      }
    }
  }

  private static boolean isBind(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof java.net.BindException) {
        return true;
      }
    }
    return false;
  }

  public int port() {
    return port;
  }

  /**
   * An Npgsql connection string to {@code database} through this proxy, without TLS (whose
   * handshakes are slow on a busy machine) and with a connect timeout a busy machine meets.
   */
  public String connectionString(ConnectionSettings database) {
    return connectionString(database, "Timeout=10;SSL Mode=Disable");
  }

  /** An Npgsql connection string to {@code database} through this proxy, with these keywords. */
  public String connectionString(ConnectionSettings database, String keywords) {
    return "Host=127.0.0.1;Port=%d;Database=%s;Username=%s;Password=%s;%s"
        .formatted(
            port,
            database.database(),
            database.user(),
            database.password() == null ? "" : database.password(),
            keywords);
  }

  /**
   * Accepts connections (again). The port that {@link #cut} closed can take a moment to be free
   * again after the close completes, so a refused listen is tried again for up to five seconds.
   */
  public void open() {
    for (int attempt = 1; ; attempt++) {
      try {
        listen(port);
        return;
      } catch (RuntimeException e) {
        if (attempt == 50 || !isBind(e)) {
          throw e;
        }
        LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
      }
    }
  }

  private void listen(int on) {
    resetting = false;
    server =
        vertx
            .createNetServer()
            .connectHandler(
                inbound -> {
                  inbound.pause();
                  sockets.add(inbound);
                  clients.add(inbound);
                  inbound.closeHandler(closed -> clients.remove(inbound));
                  if (resetting) {
                    inbound.handler(firstBytes -> reset(inbound));
                    inbound.resume();
                  } else if (stalling) {
                    stalled.add(inbound);
                  } else {
                    forward(inbound);
                  }
                });
    try {
      server.listen(on, "127.0.0.1").await();
    } catch (Exception e) {
      if (isBind(e)) {
        throw new java.io.UncheckedIOException(
            new java.net.BindException("port " + on + " is taken: " + e.getMessage()));
      }
      throw e;
    }
  }

  private void forward(NetSocket inbound) {
    client
        .connect(targetPort, targetHost)
        .onSuccess(
            outbound -> {
              sockets.add(outbound);
              targets.add(outbound);
              // by hand rather than piped, so that a frozen proxy still reads, and sees closes
              inbound.handler(data -> forwardUnlessFrozen(data, outbound));
              outbound.handler(data -> forwardUnlessFrozen(data, inbound));
              inbound.closeHandler(
                  closed -> {
                    clients.remove(inbound);
                    outbound.close();
                  });
              outbound.closeHandler(
                  closed -> {
                    targets.remove(outbound);
                    inbound.close();
                  });
              inbound.resume();
            })
        .onFailure(failure -> inbound.close());
  }

  /**
   * Cuts every open connection and from now on accepts connections but never answers them, as a
   * stalled server does.
   */
  public void stall() {
    stalling = true;
    sockets.forEach(NetSocket::close);
    sockets.clear();
  }

  private void forwardUnlessFrozen(Buffer data, NetSocket to) {
    if (!frozen) {
      to.write(data);
    }
  }

  /**
   * From now on drops what either side sends on the open connections, as a network that lost the
   * peer would; closes still pass.
   */
  public void freeze() {
    frozen = true;
  }

  /** The connections the proxy holds open to its target. */
  public int targetConnections() {
    return targets.size();
  }

  /** Forwards new connections again; the stalled ones stay as they are. */
  public void unstall() {
    stalling = false;
  }

  /** Forwards the stalled connections after all, so that they complete late. */
  public void releaseStalled() {
    stalled.forEach(this::forward);
    stalled.clear();
  }

  /** The connections clients hold open to the proxy, stalled ones included. */
  public int clientConnections() {
    return clients.size();
  }

  /**
   * Cuts every open connection and from now on resets each new one when the client has sent its
   * first bytes, as a PostgreSQL going down does to the connections it had not yet served (for the
   * PostgreSQL client that is its request for TLS). {@link #open} after {@link #cut} ends it.
   */
  public void resetNewConnections() {
    resetting = true;
    sockets.forEach(NetSocket::close);
    sockets.clear();
  }

  /** Closes with a TCP reset rather than a FIN, as a peer that went down does. */
  private static void reset(NetSocket socket) {
    ((NetSocketInternal) socket)
        .channelHandlerContext()
        .channel()
        .config()
        .setOption(ChannelOption.SO_LINGER, 0);
    socket.close();
  }

  /** Stops accepting and cuts every open connection, as a database outage would. */
  public void cut() {
    server.close().await();
    sockets.forEach(NetSocket::close);
    sockets.clear();
    stalled.clear();
  }

  @Override
  public void close() {
    vertx.close().await();
  }
}
