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
    // with the embedded database, the embedded S3 store starts too: on a free port, in a directory
    // of this start's own
    env.put("S3__Embedded__Port", "0");
    env.put("S3__Embedded__DataDirectory", scratchDirectory().toString());
    env.putAll(environment);
    return VfpsServer.start(ConfigLoader.load(env));
  }

  private static java.nio.file.Path scratchDirectory() {
    try {
      java.nio.file.Path directory = java.nio.file.Files.createTempDirectory("vfps-test-s3");
      directory.toFile().deleteOnExit();
      return directory;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
