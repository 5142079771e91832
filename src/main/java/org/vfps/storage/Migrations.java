package org.vfps.storage;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.flywaydb.core.api.migration.JavaMigration;
import org.flywaydb.core.api.output.MigrateResult;
import org.flywaydb.database.postgresql.PostgreSQLConfigurationExtension;
import org.postgresql.Driver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.config.ConnectionSettings;

/**
 * Brings the schema up to date with Flyway (blocking: call it on a worker or before the event loops
 * start). A database created by the .NET vfps is adopted: its tables are kept, and the history
 * starts at a baseline below the first migration, whose statements skip what exists.
 *
 * <p>A database whose history already holds the newest migration, applied successfully, and no
 * failed one is current: one query tells, and Flyway (its class path scan, validation and lock) is
 * not started. Anything else goes through Flyway.
 *
 * <p>The SQL migrations in {@code db/migration} each run in a transaction, so a failed one leaves
 * nothing behind and Flyway records nothing. {@link #javaMigrations() The others} run outside one:
 * Flyway records their failure, and refuses to migrate a history with a failed migration until
 * someone repairs it. Since they are written to go on from wherever a run stopped, their failures
 * are taken off the history before Flyway starts, and the next run resumes them; a failure of any
 * other migration still stops Flyway.
 */
public final class Migrations {

  /** The version of the newest migration; a test keeps it in step with the files. */
  static final String NEWEST_VERSION = "14";

  /** How long one attempt at a lock of a busy table may hold up the writers queued behind it. */
  static final Duration LOCK_TIMEOUT = Duration.ofMillis(200);

  /** How long a migration tries to get a lock of a busy table before it fails. */
  static final Duration LOCK_PATIENCE = Duration.ofMinutes(5);

  private static final Logger LOG = LoggerFactory.getLogger(Migrations.class);

  private static final String CURRENT =
      """
      SELECT EXISTS (SELECT FROM flyway_schema_history WHERE version = '%s' AND success)
         AND NOT EXISTS (SELECT FROM flyway_schema_history WHERE NOT success)
      """
          .formatted(NEWEST_VERSION);

  /** The failed runs of the migrations that resume, by their versions. */
  private static final String RESUMABLE_FAILURES =
      """
      SELECT version, description FROM flyway_schema_history
      WHERE NOT success AND version = ANY (?)""";

  private static final String FORGET_FAILURE =
      "DELETE FROM flyway_schema_history WHERE NOT success AND version = ?";

  /** PostgreSQL's SQLSTATE for a table that does not exist. */
  private static final String UNDEFINED_TABLE = "42P01";

  private Migrations() {}

  /**
   * The migrations written in Java, beside the SQL files: those that must run outside a transaction
   * and look at the catalog before each step. Each resumes where a failed or interrupted run of it
   * stopped.
   */
  static List<JavaMigration> javaMigrations() {
    return List.of(new PseudonymKeyMigration(LOCK_TIMEOUT, LOCK_PATIENCE));
  }

  /** Applies the pending migrations; yields how many ran (0 when the schema was current). */
  public static int migrate(ConnectionSettings settings) {
    return migrate(settings, MigrationVersion.LATEST);
  }

  /**
   * Applies the pending migrations up to {@code target}, e.g. for a test that needs the schema of
   * an earlier version; yields how many ran.
   */
  static int migrate(ConnectionSettings settings, MigrationVersion target) {
    Map<String, String> properties = jdbcProperties(settings);
    if (isCurrent(settings, properties) && target.equals(MigrationVersion.LATEST)) {
      return 0;
    }
    FluentConfiguration configuration =
        Flyway.configure()
            .dataSource(jdbcUrl(settings), settings.user(), settings.password())
            .jdbcProperties(properties)
            .locations("classpath:db/migration")
            .javaMigrations(javaMigrations().toArray(JavaMigration[]::new))
            .baselineOnMigrate(true)
            .baselineVersion("0")
            .target(target)
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
   * Whether Flyway's history says the schema is current; false when there is no history yet. When
   * it is not, the failed runs of the migrations that resume are taken off it. A database that
   * cannot be reached fails here as it would in Flyway.
   */
  private static boolean isCurrent(ConnectionSettings settings, Map<String, String> properties) {
    Properties connect = new Properties();
    connect.putAll(properties);
    if (settings.password() != null) {
      connect.setProperty("password", settings.password());
    }
    try (Connection connection = new Driver().connect(jdbcUrl(settings), connect)) {
      try (Statement statement = connection.createStatement();
          ResultSet result = statement.executeQuery(CURRENT)) {
        if (result.next() && result.getBoolean(1)) {
          return true;
        }
      } catch (SQLException e) {
        if (UNDEFINED_TABLE.equals(e.getSQLState())) {
          return false;
        }
        throw e;
      }
      forgetResumableFailures(connection);
      return false;
    } catch (SQLException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  /**
   * Takes the failed runs of the Java migrations off the history (only when there are any: the
   * service's role may read it, not delete from it), so that Flyway runs them again.
   */
  private static void forgetResumableFailures(Connection connection) throws SQLException {
    String[] resumable =
        javaMigrations().stream()
            .map(migration -> migration.getVersion().getVersion())
            .toArray(String[]::new);
    Map<String, String> failed = new HashMap<>();
    try (PreparedStatement query = connection.prepareStatement(RESUMABLE_FAILURES)) {
      query.setArray(1, connection.createArrayOf("text", resumable));
      try (ResultSet result = query.executeQuery()) {
        while (result.next()) {
          failed.put(result.getString(1), result.getString(2));
        }
      }
    }
    for (Map.Entry<String, String> failure : failed.entrySet()) {
      try (PreparedStatement forget = connection.prepareStatement(FORGET_FAILURE)) {
        forget.setString(1, failure.getKey());
        forget.executeUpdate();
      }
      LOG.warn(
          "Migration {} ({}) failed or was interrupted in an earlier run; it goes on from where"
              + " that run stopped",
          failure.getKey(),
          failure.getValue());
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
