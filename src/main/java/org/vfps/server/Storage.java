package org.vfps.server;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.config.ConnectionSettings;
import org.vfps.config.DatabaseConfig;
import org.vfps.storage.EmbeddedDatabase;
import org.vfps.storage.Migrations;

/**
 * Where the data live: the connection, and the words the start line uses for it.
 *
 * @param description the database as the start line names it: never a credential
 */
record Storage(ConnectionSettings connection, String description) {

  // the server's logger: operators find the start's lines under that name
  private static final Logger LOG = LoggerFactory.getLogger(VfpsServer.class);

  /** The configured PostgreSQL, or the embedded one; migrated when asked or embedded. */
  static Storage open(DatabaseConfig database, Teardown teardown) {
    if (database.connection().isEmpty()) {
      EmbeddedDatabase embedded =
          teardown.add("The embedded PostgreSQL", startEmbedded(database), EmbeddedDatabase::close);
      migrate(embedded.connection());
      return new Storage(
          embedded.connection(), "embedded (development only) in " + embedded.dataDirectory());
    }
    ConnectionSettings connection = database.connection().get();
    if (!database.ignoredConnectionKeywords().isEmpty()) {
      // the count only: a malformed string could put part of a password into a keyword
      LOG.info(
          "{} keywords of ConnectionStrings__PostgreSQL have no meaning for vfps and are ignored",
          database.ignoredConnectionKeywords().size());
    }
    if (database.forceRunMigrations()) {
      migrate(connection);
    }
    return new Storage(
        connection, connection.host() + ":" + connection.port() + "/" + connection.database());
  }

  /**
   * Runs the migrations.
   *
   * @throws StartupException when they fail
   */
  static void migrate(ConnectionSettings connection) {
    try {
      int applied = Migrations.migrate(connection);
      LOG.info("Database schema is up to date ({} migrations applied)", applied);
    } catch (RuntimeException e) {
      throw StartupException.database(
          "Migrating the database at "
              + connection.host()
              + ":"
              + connection.port()
              + "/"
              + connection.database()
              + " failed",
          e,
          "May the role of ConnectionStrings__PostgreSQL create tables in its schema?");
    }
  }

  private static EmbeddedDatabase startEmbedded(DatabaseConfig database) {
    LOG.warn(
        "No ConnectionStrings__PostgreSQL configured: starting an embedded PostgreSQL in {}. This"
            + " is a development database; configure a PostgreSQL server for production.",
        database.embeddedDataDirectory());
    try {
      if (!database.embeddedDurable()) {
        LOG.warn(
            "Database__Embedded__Durable=false: the embedded PostgreSQL does not flush commits to"
                + " disk, and acknowledged pseudonyms may be lost on a crash or power failure");
      }
      return EmbeddedDatabase.start(database.embeddedDataDirectory(), database.embeddedDurable());
    } catch (RuntimeException e) {
      throw new StartupException("The embedded PostgreSQL did not start: " + e.getMessage(), e);
    }
  }
}
