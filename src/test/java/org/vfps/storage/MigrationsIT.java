package org.vfps.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.flywaydb.core.api.MigrationVersion;
import org.junit.jupiter.api.Test;
import org.vfps.TestPostgres;
import org.vfps.config.ConnectionSettings;

/** Migrations: Flyway for a schema that is not current, one query for one that is. */
class MigrationsIT {

  /**
   * The .NET service's index names (of 1.22, the keyset index's as PostgreSQL keeps it), the one on
   * pseudonym values unique (V2 and V4).
   */
  static final List<String> MIGRATED_INDEXES =
      List.of(
          "ix_pseudonyms_namespace_name_created_at_original_value_sequence",
          "ix_pseudonyms_namespace_name_pseudonym_value (unique)",
          "pk_pseudonyms (unique)");

  /** The version of every migration, of the SQL files and the Java ones, in order. */
  static List<Integer> versions() throws IOException {
    Pattern name = Pattern.compile("V(\\d+)__.*\\.sql");
    try (Stream<Path> files = Files.list(Path.of("src/main/resources/db/migration"))) {
      return Stream.concat(
              files
                  .map(file -> name.matcher(file.getFileName().toString()))
                  .filter(Matcher::matches)
                  .map(match -> Integer.parseInt(match.group(1))),
              Migrations.javaMigrations().stream()
                  .map(migration -> Integer.parseInt(migration.getVersion().getVersion())))
          .sorted()
          .toList();
    }
  }

  @Test
  void theNewestVersionIsTheNewestMigration() throws IOException {
    assertThat(Migrations.NEWEST_VERSION).isEqualTo(Integer.toString(versions().getLast()));
  }

  @Test
  void aCurrentSchemaIsRecognisedFromItsHistoryWithoutStartingFlyway() {
    ConnectionSettings database = TestPostgres.freshDatabase();
    assertThat(Migrations.migrate(database)).isEqualTo(14);
    // Flyway would refuse this history (a checksum that no file has); one query does not read it
    TestPostgres.execute(
        database, "UPDATE flyway_schema_history SET checksum = 12345 WHERE version = '1'");

    assertThat(Migrations.migrate(database)).isZero();
  }

  @Test
  void aSchemaWithoutTheNewestMigrationIsMigratedByFlyway() {
    ConnectionSettings database = TestPostgres.freshDatabase();
    assertThat(Migrations.migrate(database)).isEqualTo(14);
    // back to the schema of version 6: no EF migration history (7), no CSV job runs (8, 11, 13), no
    // cache invalidation log (9), no ended UI sessions (10), no namespace formats (12), no sealing
    // (14)
    TestPostgres.execute(
        database,
        "DROP TABLE \"__EFMigrationsHistory\"",
        "DROP TABLE vfps_csv_job_pending_output",
        "DROP TABLE vfps_csv_job_runs",
        "DROP TABLE vfps_cache_invalidations",
        "DROP TABLE vfps_cache_generation",
        "DROP TABLE vfps_ended_ui_sessions",
        "DROP TABLE vfps_namespace_formats",
        "DROP TABLE vfps_namespace_sealing",
        "ALTER TABLE pseudonyms DROP COLUMN x_sealed_original_value",
        "DELETE FROM flyway_schema_history WHERE version IN ('7', '8', '9', '10', '11', '12', '13', '14')");

    assertThat(Migrations.migrate(database)).isEqualTo(8);
    assertThat(TestPostgres.queryLong(database, "SELECT count(*) FROM \"__EFMigrationsHistory\""))
        .isEqualTo(18);
  }

  @Test
  void theSchemaOfVersion4GetsTheDotnet122PseudonymsKey() throws IOException {
    ConnectionSettings database = TestPostgres.freshDatabase();
    assertThat(Migrations.migrate(database, MigrationVersion.fromVersion("4"))).isEqualTo(4);
    assertThat(TestPostgres.pseudonymIndexes(database))
        .containsExactly(
            "ix_pseudonyms_namespace_name_created_at_original_value",
            "ix_pseudonyms_namespace_name_pseudonym_value (unique)",
            "pk_pseudonyms (unique)");
    TestPostgres.execute(
        database,
        "INSERT INTO namespaces VALUES ('v4', '', 5, 16, '', '', now(), now())",
        "INSERT INTO pseudonyms VALUES ('a', 'v4', '0123456789abcdef', now(), now())");

    assertThat(Migrations.migrate(database))
        .isEqualTo((int) versions().stream().filter(version -> version > 4).count());
    assertThat(TestPostgres.pseudonymIndexes(database)).isEqualTo(MIGRATED_INDEXES);
    assertThat(
            TestPostgres.queryLong(
                database,
                "SELECT count(*) FROM pseudonyms WHERE original_value = 'a' AND sequence_number = 0"))
        .isEqualTo(1);
  }

  @Test
  void pseudonymValuesHaveOneUniqueIndexUnderTheDotnetName() {
    ConnectionSettings database = TestPostgres.freshDatabase();
    Migrations.migrate(database);

    assertThat(TestPostgres.pseudonymIndexes(database)).isEqualTo(MIGRATED_INDEXES);
  }

  @Test
  void aHistoryWithAFailedMigrationGoesToFlywayWhichRefusesIt() {
    ConnectionSettings database = TestPostgres.freshDatabase();
    assertThat(Migrations.migrate(database)).isEqualTo(14);
    TestPostgres.execute(
        database,
        "INSERT INTO flyway_schema_history (installed_rank, version, description, type, script,"
            + " checksum, installed_by, execution_time, success)"
            + " VALUES (100, '2.5', 'broken', 'SQL', 'V2_5__broken.sql', 1, 'test', 1, false)");

    assertThatThrownBy(() -> Migrations.migrate(database))
        .hasStackTraceContaining("failed migration");
  }
}
