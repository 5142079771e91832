package org.vfps.server;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.vfps.config.ConfigLoader;

/**
 * The training run behind {@code vfps train}: starts the service, with metrics, on a {@link
 * TrainingDatabase} (embedded, in a scratch directory and a JVM of its own, migrated, reached over
 * TLS with a password, so that the service starts as it does against a production database), lets
 * the {@link TrainingClients}, in a JVM of their own too, make the calls clients make first over
 * new connections, and stops. Run under {@code -XX:AOTCacheOutput=vfps.aot}, it records the AOT
 * cache that makes later starts and first requests fast; the build does this for the jar it makes.
 * A call that does not answer as it should fails the run, so the cache is never trained on a broken
 * path.
 */
public final class AotTraining {

  /** How long the clients may take for their calls. */
  private static final Duration CLIENTS_PATIENCE = Duration.ofMinutes(5);

  private AotTraining() {}

  public static void run() throws Exception {
    Path scratch = Files.createTempDirectory("vfps-aot-training");
    try (TrainingDatabase.Launched database = TrainingDatabase.launch(scratch)) {
      VfpsServer server =
          VfpsServer.start(
              ConfigLoader.load(
                  Map.of(
                      "ConnectionStrings__PostgreSQL",
                      database.connectionString(),
                      "Grpc__Port",
                      "0",
                      "Http__Port",
                      "0",
                      "MetricsPort",
                      Integer.toString(freePort()))));
      try {
        Process clients =
            ChildJvm.start(
                // by name: this JVM loads no class of the clients
                "org.vfps.server.TrainingClients",
                Integer.toString(server.grpcPort()),
                Integer.toString(server.httpPort()),
                Integer.toString(server.metricsPort()));
        if (!clients.waitFor(CLIENTS_PATIENCE.toSeconds(), TimeUnit.SECONDS)) {
          clients.destroyForcibly();
          throw new IOException("The training clients did not finish within " + CLIENTS_PATIENCE);
        }
        if (clients.exitValue() != 0) {
          throw new IOException(
              "The training clients got an unexpected answer (exit " + clients.exitValue() + ")");
        }
      } finally {
        server.close();
      }
    } finally {
      // empty by now: closing the database removed its data directory
      Files.deleteIfExists(scratch);
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
