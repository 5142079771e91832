package org.vfps.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Where the pseudonyms are stored.
 *
 * @param connection the PostgreSQL server of {@code ConnectionStrings__PostgreSQL}; empty when that
 *     is blank, and the service then starts an embedded PostgreSQL
 * @param embeddedDataDirectory where the embedded PostgreSQL keeps its data ({@code
 *     Database__Embedded__DataDirectory})
 * @param forceRunMigrations whether to migrate the schema at start-up ({@code
 *     ForceRunDatabaseMigrations})
 * @param ignoredConnectionKeywords the connection string keywords vfps accepts but does not use
 *     (e.g. {@code Max Auto Prepare}), as written, for the caller to log; never their values;
 *     unmodifiable
 * @param embeddedDurable whether the embedded PostgreSQL flushes every commit to disk (fsync and
 *     synchronous commit on; {@code Database__Embedded__Durable}); false is for tests and CI
 */
public record DatabaseConfig(
    Optional<ConnectionSettings> connection,
    Path embeddedDataDirectory,
    boolean forceRunMigrations,
    List<String> ignoredConnectionKeywords,
    boolean embeddedDurable) {

  public DatabaseConfig {
    Objects.requireNonNull(connection, "connection");
    Objects.requireNonNull(embeddedDataDirectory, "embeddedDataDirectory");
    ignoredConnectionKeywords = List.copyOf(ignoredConnectionKeywords);
  }

  /**
   * A database configuration without ignored connection string keywords, with a durable embedded
   * database.
   */
  public DatabaseConfig(
      Optional<ConnectionSettings> connection,
      Path embeddedDataDirectory,
      boolean forceRunMigrations) {
    this(connection, embeddedDataDirectory, forceRunMigrations, List.of(), true);
  }
}
