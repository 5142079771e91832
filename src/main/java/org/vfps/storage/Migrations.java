package org.vfps.storage;

import java.util.Locale;
import java.util.Properties;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;
import org.vfps.config.ConnectionSettings;

/**
 * Brings the schema up to date with Flyway (blocking: call it on a worker or before the event loops
 * start). A database created by the .NET vfps is adopted: its tables are kept, and the history
 * starts at a baseline below the first migration, whose statements skip what exists.
 */
public final class Migrations {

  private Migrations() {}

  /** Applies the pending migrations; yields how many ran. */
  public static int migrate(ConnectionSettings settings) {
    Properties properties = new Properties();
    properties.setProperty("user", settings.user());
    if (settings.password() != null) {
      properties.setProperty("password", settings.password());
    }
    properties.setProperty(
        "sslmode", settings.sslMode().name().toLowerCase(Locale.ROOT).replace('_', '-'));
    properties.setProperty(
        "connectTimeout", Long.toString(Math.max(1, settings.connectTimeout().toSeconds())));
    properties.setProperty("ApplicationName", "vfps-migrate");
    Flyway flyway =
        Flyway.configure()
            .dataSource(jdbcUrl(settings), settings.user(), settings.password())
            .jdbcProperties(toMap(properties))
            .locations("classpath:db/migration")
            .baselineOnMigrate(true)
            .baselineVersion("0")
            .loggers("slf4j")
            .load();
    MigrateResult result = flyway.migrate();
    return result.migrationsExecuted;
  }

  private static String jdbcUrl(ConnectionSettings settings) {
    String host = settings.host().contains(":") ? "[" + settings.host() + "]" : settings.host();
    return "jdbc:postgresql://" + host + ":" + settings.port() + "/" + settings.database();
  }

  private static java.util.Map<String, String> toMap(Properties properties) {
    java.util.Map<String, String> map = new java.util.HashMap<>();
    properties.stringPropertyNames().forEach(name -> map.put(name, properties.getProperty(name)));
    return map;
  }
}
