package org.vfps;

import io.vertx.core.Vertx;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.vfps.config.ConnectionSettings;

/**
 * A TCP proxy in front of PostgreSQL that a test can cut and restore, to see the service lose its
 * database and get it back.
 */
public final class TcpProxy implements AutoCloseable {

  private final Vertx vertx = Vertx.vertx();
  private final NetClient client = vertx.createNetClient();
  private final Set<NetSocket> sockets = ConcurrentHashMap.newKeySet();
  private final String targetHost;
  private final int targetPort;
  private final int port;
  private NetServer server;

  public TcpProxy(String targetHost, int targetPort) {
    this.targetHost = targetHost;
    this.targetPort = targetPort;
    this.port = TestService.freePort();
    open();
  }

  public int port() {
    return port;
  }

  /** An Npgsql connection string to {@code database} through this proxy, with a short timeout. */
  public String connectionString(ConnectionSettings database) {
    return "Host=127.0.0.1;Port=%d;Database=%s;Username=%s;Password=%s;Timeout=2"
        .formatted(
            port,
            database.database(),
            database.user(),
            database.password() == null ? "" : database.password());
  }

  /** Accepts connections (again). */
  public void open() {
    server =
        vertx
            .createNetServer()
            .connectHandler(
                inbound -> {
                  inbound.pause();
                  sockets.add(inbound);
                  client
                      .connect(targetPort, targetHost)
                      .onSuccess(
                          outbound -> {
                            sockets.add(outbound);
                            inbound.pipeTo(outbound);
                            outbound.pipeTo(inbound);
                            inbound.resume();
                          })
                      .onFailure(failure -> inbound.close());
                });
    server.listen(port, "127.0.0.1").await();
  }

  /** Stops accepting and cuts every open connection, as a database outage would. */
  public void cut() {
    server.close().await();
    sockets.forEach(NetSocket::close);
    sockets.clear();
  }

  @Override
  public void close() {
    vertx.close().await();
  }
}
