package org.vfps.storage;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.vfps.config.ConnectionSettings;

/**
 * A PostgreSQL server run by the service itself, for trying it out and for development: started
 * when no connection string is configured, with its data in a directory that survives restarts.
 */
public final class EmbeddedDatabase implements AutoCloseable {

  private final EmbeddedPostgres postgres;
  private final Path dataDirectory;

  private EmbeddedDatabase(EmbeddedPostgres postgres, Path dataDirectory) {
    this.postgres = postgres;
    this.dataDirectory = dataDirectory;
  }

  /**
   * Starts PostgreSQL on a free loopback port, creating the data directory on first use.
   *
   * @param durable whether every commit is flushed to disk before it is acknowledged (fsync and
   *     synchronous commit on), so that no acknowledged pseudonym is lost to a crash or a power
   *     failure; false is faster, for tests and CI
   */
  public static EmbeddedDatabase start(Path dataDirectory, boolean durable) {
    try {
      Path directory = dataDirectory.toAbsolutePath().normalize();
      Files.createDirectories(directory.getParent());
      String flush = durable ? "on" : "off";
      EmbeddedPostgres postgres =
          EmbeddedPostgres.builder()
              .setDataDirectory(directory)
              .setCleanDataDirectory(false)
              .setPGStartupWait(Duration.ofSeconds(30))
              // the library starts the server with -F (fsync off) and synchronous_commit off;
              // these settings come after -F on its command line and win
              .setServerConfig("fsync", flush)
              .setServerConfig("synchronous_commit", flush)
              .start();
      return new EmbeddedDatabase(postgres, directory);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot start the embedded PostgreSQL in " + dataDirectory + ": " + e.getMessage(), e);
    }
  }

  public Path dataDirectory() {
    return dataDirectory;
  }

  /** How to reach it: the {@code postgres} database and superuser on 127.0.0.1. */
  public ConnectionSettings connection() {
    return new ConnectionSettings(
        "127.0.0.1",
        postgres.getPort(),
        "postgres",
        "postgres",
        null,
        8,
        Duration.ofSeconds(15),
        ConnectionSettings.SslMode.DISABLE,
        "vfps");
  }

  @Override
  public void close() {
    try {
      postgres.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
