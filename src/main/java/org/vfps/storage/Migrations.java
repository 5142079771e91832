package org.vfps.storage;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.flywaydb.core.api.output.MigrateResult;
import org.flywaydb.database.postgresql.PostgreSQLConfigurationExtension;
import org.postgresql.Driver;
import org.vfps.config.ConnectionSettings;

/**
 * Brings the schema up to date with Flyway (blocking: call it on a worker or before the event loops
 * start). A database created by the .NET vfps is adopted: its tables are kept, and the history
 * starts at a baseline below the first migration, whose statements skip what exists.
 *
 * <p>A database whose history already holds the newest migration, applied successfully, and no
 * failed one is current: one query tells, and Flyway (its class path scan, validation and lock) is
 * not started. Anything else goes through Flyway.
 */
public final class Migrations {

  /** The version of the newest file in {@code db/migration}; a test keeps the two in step. */
  static final String NEWEST_VERSION = "5";

  private static final String CURRENT =
      """
      SELECT EXISTS (SELECT FROM flyway_schema_history WHERE version = '%s' AND success)
         AND NOT EXISTS (SELECT FROM flyway_schema_history WHERE NOT success)
      """
          .formatted(NEWEST_VERSION);

  /** PostgreSQL's SQLSTATE for a table that does not exist. */
  private static final String UNDEFINED_TABLE = "42P01";

  private Migrations() {}

  /** Applies the pending migrations; yields how many ran (0 when the schema was current). */
  public static int migrate(ConnectionSettings settings) {
    Map<String, String> properties = jdbcProperties(settings);
    if (isCurrent(settings, properties)) {
      return 0;
    }
    FluentConfiguration configuration =
        Flyway.configure()
            .dataSource(jdbcUrl(settings), settings.user(), settings.password())
            .jdbcProperties(properties)
            .locations("classpath:db/migration")
            .baselineOnMigrate(true)
            .baselineVersion("0")
            .loggers("slf4j");
    // Flyway's default lock is a transaction's, held open on a connection of its own while the
    // migrations run; a concurrent index build waits for every open transaction to end, so it would
    // wait for that one forever. A session's lock holds no transaction open.
    configuration
        .getConfigurationExtension(PostgreSQLConfigurationExtension.class)
        .setTransactionalLock(false);
    Flyway flyway = configuration.load();
    MigrateResult result = flyway.migrate();
    return result.migrationsExecuted;
  }

  /**
   * Whether Flyway's history says the schema is current; false when there is no history yet. A
   * database that cannot be reached fails here as it would in Flyway.
   */
  private static boolean isCurrent(ConnectionSettings settings, Map<String, String> properties) {
    Properties connect = new Properties();
    connect.putAll(properties);
    if (settings.password() != null) {
      connect.setProperty("password", settings.password());
    }
    try (Connection connection = new Driver().connect(jdbcUrl(settings), connect);
        Statement statement = connection.createStatement()) {
      try (ResultSet result = statement.executeQuery(CURRENT)) {
        return result.next() && result.getBoolean(1);
      } catch (SQLException e) {
        if (UNDEFINED_TABLE.equals(e.getSQLState())) {
          return false;
        }
        throw e;
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  private static Map<String, String> jdbcProperties(ConnectionSettings settings) {
    Map<String, String> properties = new HashMap<>();
    properties.put("user", settings.user());
    properties.put("sslmode", settings.sslMode().name().toLowerCase(Locale.ROOT).replace('_', '-'));
    properties.put(
        "connectTimeout", Long.toString(Math.max(1, settings.connectTimeout().toSeconds())));
    properties.put("ApplicationName", "vfps-migrate");
    // a server error's detail can quote a row (e.g. the key a unique index build found twice)
    properties.put("logServerErrorDetail", "false");
    return properties;
  }

  private static String jdbcUrl(ConnectionSettings settings) {
    String host = settings.host().contains(":") ? "[" + settings.host() + "]" : settings.host();
    return "jdbc:postgresql://" + host + ":" + settings.port() + "/" + settings.database();
  }
}
