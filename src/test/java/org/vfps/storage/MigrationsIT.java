package org.vfps.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.vfps.TestPostgres;
import org.vfps.config.ConnectionSettings;

/** Migrations: Flyway for a schema that is not current, one query for one that is. */
class MigrationsIT {

  /** The .NET service's index names, the one on pseudonym values unique (V2 and V4). */
  static final List<String> MIGRATED_INDEXES =
      List.of(
          "ix_pseudonyms_namespace_name_created_at_original_value",
          "ix_pseudonyms_namespace_name_pseudonym_value (unique)",
          "pk_pseudonyms (unique)");

  @Test
  void theNewestVersionIsTheNewestMigrationFile() throws IOException {
    Pattern name = Pattern.compile("V(\\d+)__.*\\.sql");
    try (Stream<Path> files = Files.list(Path.of("src/main/resources/db/migration"))) {
      int newest =
          files
              .map(file -> name.matcher(file.getFileName().toString()))
              .filter(Matcher::matches)
              .map(match -> Integer.parseInt(match.group(1)))
              .max(Comparator.naturalOrder())
              .orElseThrow();
      assertThat(Migrations.NEWEST_VERSION).isEqualTo(Integer.toString(newest));
    }
  }

  @Test
  void aCurrentSchemaIsRecognisedFromItsHistoryWithoutStartingFlyway() {
    ConnectionSettings database = TestPostgres.freshDatabase();
    assertThat(Migrations.migrate(database)).isEqualTo(5);
    // Flyway would refuse this history (a checksum that no file has); one query does not read it
    TestPostgres.execute(
        database, "UPDATE flyway_schema_history SET checksum = 12345 WHERE version = '1'");

    assertThat(Migrations.migrate(database)).isZero();
  }

  @Test
  void aSchemaWithoutTheNewestMigrationIsMigratedByFlyway() {
    ConnectionSettings database = TestPostgres.freshDatabase();
    assertThat(Migrations.migrate(database)).isEqualTo(5);
    // back to the schema of version 4: no access tokens, among what version 5 adds
    TestPostgres.execute(
        database,
        "DROP TABLE access_tokens",
        "DELETE FROM flyway_schema_history WHERE version = '" + Migrations.NEWEST_VERSION + "'");

    assertThat(Migrations.migrate(database)).isEqualTo(1);
    assertThat(TestPostgres.queryLong(database, "SELECT count(*) FROM access_tokens")).isZero();
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
    assertThat(Migrations.migrate(database)).isEqualTo(5);
    TestPostgres.execute(
        database,
        "INSERT INTO flyway_schema_history (installed_rank, version, description, type, script,"
            + " checksum, installed_by, execution_time, success)"
            + " VALUES (100, '2.5', 'broken', 'SQL', 'V2_5__broken.sql', 1, 'test', 1, false)");

    assertThatThrownBy(() -> Migrations.migrate(database))
        .hasStackTraceContaining("failed migration");
  }
}
