package org.vfps.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.vfps.TestPostgres;
import org.vfps.config.ConnectionSettings;

/**
 * A database vfps migrated has the schema of the .NET vfps 1.22.3 and its migration history, so
 * that the .NET service can take it back and start without migrating.
 */
class DotnetSchemaIT {

  /** vfps's own tables, which the .NET service neither has nor looks at. */
  static final Set<String> OWN_TABLES =
      Set.of(
          "flyway_schema_history",
          "vfps_secrets",
          "vfps_csv_job_runs",
          "vfps_csv_job_pending_output",
          "vfps_cache_generation",
          "vfps_cache_invalidations",
          "vfps_ended_ui_sessions",
          "vfps_namespace_formats",
          "vfps_namespace_sealing");

  /**
   * The lines of the schema where vfps differs on purpose: the sealed value of a sealed namespace's
   * row (V14), a nullable column the .NET service neither names nor fills; and pseudonyms are
   * unique within a namespace, so the index on their values is unique (V2 and V4).
   */
  static final String[] OURS_ONLY = {
    "column pseudonyms.x_sealed_original_value bytea NULL",
    "index pseudonyms.ix_pseudonyms_namespace_name_pseudonym_value CREATE UNIQUE INDEX"
        + " ix_pseudonyms_namespace_name_pseudonym_value ON public.pseudonyms USING btree"
        + " (namespace_name, pseudonym_value)"
  };

  /** The same index as the .NET service has it. */
  static final String DOTNET_ONLY =
      "index pseudonyms.ix_pseudonyms_namespace_name_pseudonym_value CREATE INDEX"
          + " ix_pseudonyms_namespace_name_pseudonym_value ON public.pseudonyms USING btree"
          + " (namespace_name, pseudonym_value)";

  @Test
  void aMigratedDatabaseHasTheSchemaOfTheDotnetService() {
    ConnectionSettings migrated = TestPostgres.freshDatabase();
    Migrations.migrate(migrated);
    ConnectionSettings dotnet = TestPostgres.freshDatabase();
    DotnetDatabases.load122(dotnet);

    assertSameSchema(migrated, dotnet);
    assertThat(SchemaSnapshot.of(migrated))
        .as("beside it, vfps's own tables")
        .contains("table flyway_schema_history", "table vfps_secrets");
  }

  /**
   * Asserts that the migrated database has the .NET service's schema, apart from vfps's own tables
   * and the one difference listed; also that the key and the keyset index are there, by the names
   * PostgreSQL gives them.
   */
  static void assertSameSchema(ConnectionSettings migrated, ConnectionSettings dotnet) {
    SortedSet<String> ours = SchemaSnapshot.without(SchemaSnapshot.of(migrated), OWN_TABLES);
    SortedSet<String> theirs = SchemaSnapshot.of(dotnet);

    assertThat(difference(ours, theirs))
        .as("only in the migrated schema")
        .containsExactly(OURS_ONLY);
    assertThat(difference(theirs, ours)).as("only in the .NET schema").containsExactly(DOTNET_ONLY);
    assertThat(theirs)
        .contains(
            "constraint pseudonyms.pk_pseudonyms PRIMARY KEY (namespace_name, original_value,"
                + " sequence_number)",
            "index pseudonyms.ix_pseudonyms_namespace_name_created_at_original_value_sequence"
                + " CREATE INDEX ix_pseudonyms_namespace_name_created_at_original_value_sequence"
                + " ON public.pseudonyms USING btree (namespace_name, created_at, original_value,"
                + " sequence_number)",
            "constraint namespaces.fk_namespaces_namespaces_parent_name FOREIGN KEY (parent_name)"
                + " REFERENCES namespaces(name) ON DELETE RESTRICT",
            "column pseudonyms.sequence_number bigint NOT NULL DEFAULT 0");
  }

  @Test
  void aMigratedDatabaseListsEveryMigrationOfTheDotnetService() {
    ConnectionSettings migrated = TestPostgres.freshDatabase();
    Migrations.migrate(migrated);
    ConnectionSettings dotnet = TestPostgres.freshDatabase();
    DotnetDatabases.load122(dotnet);

    List<String> history = history(migrated);
    assertThat(history).hasSize(18).allSatisfy(row -> assertThat(row).endsWith(" 10.0.0"));
    assertThat(history.stream().map(row -> row.substring(0, row.indexOf(' '))))
        .containsExactlyElementsOf(
            history(dotnet).stream().map(row -> row.substring(0, row.indexOf(' '))).toList());
  }

  /** The rows of {@code "__EFMigrationsHistory"} as "id version", in the order EF reads them. */
  static List<String> history(ConnectionSettings database) {
    try (Connection connection = TestPostgres.connect(database);
        Statement statement = connection.createStatement();
        ResultSet result =
            statement.executeQuery(
                "SELECT migration_id || ' ' || product_version FROM \"__EFMigrationsHistory\""
                    + " ORDER BY migration_id")) {
      List<String> rows = new ArrayList<>();
      while (result.next()) {
        rows.add(result.getString(1));
      }
      return rows;
    } catch (SQLException e) {
      throw new IllegalStateException("SQL failed: " + e.getMessage(), e);
    }
  }

  private static SortedSet<String> difference(SortedSet<String> lines, SortedSet<String> other) {
    SortedSet<String> only = new TreeSet<>(lines);
    only.removeAll(other);
    return only;
  }
}
