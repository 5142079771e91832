package org.vfps.config;

import static org.vfps.config.ConfigLoader.bool;
import static org.vfps.config.ConfigLoader.intFromOne;
import static org.vfps.config.ConfigLoader.invalid;
import static org.vfps.config.ConfigLoader.path;
import static org.vfps.config.ConfigLoader.positiveTimeSpan;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where the data live and how they are reached: the database ({@code ConnectionStrings:PostgreSQL},
 * {@code Database:Embedded:*}, {@code ForceRunDatabaseMigrations}), the caches ({@code
 * Pseudonymization:Caching:*}) and the batch size ({@code Pseudonymization:Batch:MaxSize}).
 */
final class StorageSettings {

  private static final String CONNECTION_STRING = "ConnectionStrings:PostgreSQL";

  private StorageSettings() {}

  static DatabaseConfig database(FlatSettings settings, Map<String, String> environment) {
    String connectionString = settings.required(CONNECTION_STRING);
    Optional<ConnectionSettings> connection = Optional.empty();
    List<String> ignored = List.of();
    if (!connectionString.isBlank()) {
      try {
        NpgsqlConnectionString.Parsed parsed =
            NpgsqlConnectionString.parse(connectionString, environment);
        connection = Optional.of(parsed.settings());
        ignored = parsed.ignoredKeywords();
      } catch (IllegalArgumentException e) {
        // the parser's messages name keywords only, never the password or the string
        throw new ConfigException(
            FlatSettings.environmentName(CONNECTION_STRING) + ": " + e.getMessage());
      }
    }
    return new DatabaseConfig(
        connection,
        path(settings, "Database:Embedded:DataDirectory"),
        bool(settings, "ForceRunDatabaseMigrations"),
        ignored,
        bool(settings, "Database:Embedded:Durable"));
  }

  static CachingConfig caching(FlatSettings settings) {
    String key = "Pseudonymization:Caching:SizeLimit";
    String sizeLimit = settings.required(key);
    if (!sizeLimit.strip().matches("[0-9]{1,18}") || Long.parseLong(sizeLimit.strip()) < 1) {
      throw invalid(key, sizeLimit, "is not a positive integer");
    }
    return new CachingConfig(
        bool(settings, "Pseudonymization:Caching:Namespaces:IsEnabled"),
        bool(settings, "Pseudonymization:Caching:Pseudonyms:IsEnabled"),
        Long.parseLong(sizeLimit.strip()),
        positiveTimeSpan(settings, "Pseudonymization:Caching:AbsoluteExpiration"));
  }

  static BatchConfig batch(FlatSettings settings) {
    return new BatchConfig(
        intFromOne(settings, "Pseudonymization:Batch:MaxSize", BatchConfig.LIMIT, "a batch size"));
  }
}
