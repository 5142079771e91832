package org.vfps;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.HashMap;
import java.util.Map;
import org.vfps.config.ConfigLoader;
import org.vfps.server.VfpsServer;

/** Starts the whole service in the test JVM, configured through environment-style keys. */
public final class TestService {

  private TestService() {}

  /** The service on the shared test database, on free ports. */
  public static VfpsServer start() {
    return start(Map.of("ConnectionStrings__PostgreSQL", TestPostgres.uri()));
  }

  /** The service with these settings, on free ports unless they name ports. */
  public static VfpsServer start(Map<String, String> environment) {
    Map<String, String> env = new HashMap<>();
    env.put("Grpc__Port", Integer.toString(freePort()));
    env.put("Http__Port", Integer.toString(freePort()));
    env.put("MetricsPort", "0");
    env.putAll(environment);
    return VfpsServer.start(ConfigLoader.load(env));
  }

  public static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
