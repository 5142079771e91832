package org.vfps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.vfps.config.ConfigLoader;
import org.vfps.server.StartupException;
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

  /**
   * Asserts that the database of {@code connectionString} refuses the start, whether it migrates
   * (through JDBC) or not (through the pool): the start stops in words that end with {@code hint}
   * and carries no cause, so that the log shows no stack trace (the refusal is the operator's
   * matter).
   */
  public static void assertDatabaseRefusesTheStart(String connectionString, String hint) {
    for (String migrating : List.of("false", "true")) {
      assertThatThrownBy(
              () ->
                  start(
                      Map.of(
                          "ConnectionStrings__PostgreSQL",
                          connectionString,
                          "ForceRunDatabaseMigrations",
                          migrating)))
          .as("%s, ForceRunDatabaseMigrations=%s", hint, migrating)
          .isInstanceOfSatisfying(
              StartupException.class,
              refused -> {
                assertThat(refused.getMessage()).endsWith(hint);
                assertThat(refused.getCause()).isNull();
              });
    }
  }
}
