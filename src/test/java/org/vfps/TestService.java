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
    // never a cluster member's port: this replica's listener there would hold that member's join
    // (a port freePort returns is free again at once, so another test's reserved port may recur)
    java.util.Set<Integer> members = memberPorts(environment);
    env.put("Grpc__Port", Integer.toString(freePortBut(members)));
    env.put("Http__Port", Integer.toString(freePortBut(members)));
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

  private static java.util.Set<Integer> memberPorts(Map<String, String> environment) {
    java.util.Set<Integer> ports = new java.util.HashSet<>();
    String members = environment.getOrDefault("Cluster__Members", "");
    for (String member : members.split(",")) {
      int colon = member.lastIndexOf(':');
      if (colon > 0) {
        ports.add(Integer.parseInt(member.substring(colon + 1).strip()));
      }
    }
    return ports;
  }

  private static int freePortBut(java.util.Set<Integer> taken) {
    int port = freePort();
    while (taken.contains(port)) {
      port = freePort();
    }
    return port;
  }

  public static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
