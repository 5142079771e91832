package org.vfps.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.flywaydb.core.api.MigrationVersion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.LogCapture;
import org.vfps.TestPostgres;
import org.vfps.config.ConnectionSettings;

/**
 * Migration 6 moves the pseudonyms key to the .NET 1.22 columns without holding up writers, and
 * goes on from wherever an earlier run of it stopped.
 */
class PseudonymKeyMigrationIT {

  /** Flyway reports the failure provoked on purpose; the migrations say what they do. */
  @RegisterExtension final LogCapture flyway = LogCapture.of("org.flywaydb");

  @RegisterExtension final LogCapture storage = LogCapture.of("org.vfps.storage");

  /** How many migrations a database of schema version 5 has to go: 6 and those after it. */
  private static final int FROM_VERSION_6 = Integer.parseInt(Migrations.NEWEST_VERSION) - 5;

  private static final String INVALID_INDEXES =
      "SELECT count(*) FROM pg_index WHERE indrelid = 'pseudonyms'::regclass AND NOT indisvalid";

  /** A database of schema version 5 whose namespace holds two pseudonyms. */
  private static ConnectionSettings beforeVersion6() {
    ConnectionSettings database = TestPostgres.freshDatabase();
    assertThat(Migrations.migrate(database, MigrationVersion.fromVersion("5"))).isEqualTo(5);
    TestPostgres.execute(
        database,
        "INSERT INTO namespaces (name, description, pseudonym_generation_method,"
            + " pseudonym_length, pseudonym_prefix, pseudonym_suffix, created_at, last_updated_at)"
            + " VALUES ('ns', '', 5, 16, '', '', now(), now())",
        "INSERT INTO pseudonyms VALUES ('a', 'ns', '0123456789abcdef', now(), now()),"
            + " ('b', 'ns', 'fedcba9876543210', now(), now())");
    return database;
  }

  /** Asserts the pseudonyms table as migration 6 leaves it, with no INVALID index. */
  private static void assertMigrated(ConnectionSettings database) {
    assertThat(TestPostgres.pseudonymIndexes(database)).isEqualTo(MigrationsIT.MIGRATED_INDEXES);
    assertThat(TestPostgres.queryLong(database, INVALID_INDEXES)).isZero();
    assertThat(
            TestPostgres.queryLong(
                database,
                "SELECT count(*) FROM pg_constraint WHERE conname = 'pk_pseudonyms'"
                    + " AND pg_get_constraintdef(oid)"
                    + " = 'PRIMARY KEY (namespace_name, original_value, sequence_number)'"))
        .as("pk_pseudonyms covers the three key columns")
        .isEqualTo(1);
  }

  /**
   * A concurrent build that fails (here: a unique build over duplicates) leaves its index behind,
   * INVALID, as one that is interrupted does; the next run drops and builds it again.
   */
  @Test
  void unfinishedIndexesOfAnEarlierRunAreBuiltAgain() {
    ConnectionSettings database = beforeVersion6();
    for (String name : new String[] {"pk_pseudonyms_next", PseudonymKeyMigration.KEYSET_INDEX}) {
      assertThatThrownBy(
              () ->
                  TestPostgres.execute(
                      database,
                      "CREATE UNIQUE INDEX CONCURRENTLY "
                          + name
                          + " ON pseudonyms (namespace_name)"))
          .hasMessageContaining("could not create unique index");
    }
    assertThat(TestPostgres.queryLong(database, INVALID_INDEXES)).isEqualTo(2);

    assertThat(Migrations.migrate(database)).isEqualTo(FROM_VERSION_6);
    assertMigrated(database);
    assertThat(storage.atLeast(Level.INFO))
        .extracting(event -> event.getFormattedMessage())
        .contains(
            "Dropping the index pk_pseudonyms_next that an earlier run left unfinished",
            "Dropping the index "
                + PseudonymKeyMigration.KEYSET_INDEX
                + " that an earlier run left unfinished");
  }

  /** An index an earlier run finished is not built again: the key moves onto it. */
  @Test
  void aFinishedIndexOfAnEarlierRunIsTaken() {
    ConnectionSettings database = beforeVersion6();
    TestPostgres.execute(
        database,
        "ALTER TABLE pseudonyms ADD COLUMN sequence_number bigint NOT NULL DEFAULT 0",
        "CREATE UNIQUE INDEX pk_pseudonyms_next"
            + " ON pseudonyms (namespace_name, original_value, sequence_number)");
    long built =
        TestPostgres.queryLong(database, "SELECT 'pk_pseudonyms_next'::regclass::oid::bigint");

    assertThat(Migrations.migrate(database)).isEqualTo(FROM_VERSION_6);
    assertMigrated(database);
    assertThat(
            TestPostgres.queryLong(
                database,
                "SELECT conindid::bigint FROM pg_constraint WHERE conname = 'pk_pseudonyms'"))
        .isEqualTo(built);
  }

  /**
   * Flyway records a failed run of a migration outside a transaction and would refuse to migrate
   * again until repaired; this one is taken off the history and resumed.
   */
  @Test
  void aFailedRunIsResumedByTheNextOne() {
    ConnectionSettings database = beforeVersion6();
    TestPostgres.execute(
        database, "ALTER TABLE pseudonyms RENAME CONSTRAINT pk_pseudonyms TO pk_elsewhere");

    assertThatThrownBy(() -> Migrations.migrate(database))
        .hasStackTraceContaining("not pk_pseudonyms");
    assertThat(
            TestPostgres.queryLong(
                database,
                "SELECT count(*) FROM flyway_schema_history WHERE version = '6' AND NOT success"))
        .as("Flyway's record of the failure")
        .isEqualTo(1);

    TestPostgres.execute(
        database, "ALTER TABLE pseudonyms RENAME CONSTRAINT pk_elsewhere TO pk_pseudonyms");
    assertThat(Migrations.migrate(database)).isEqualTo(FROM_VERSION_6);
    assertMigrated(database);
    assertThat(
            TestPostgres.queryLong(
                database, "SELECT count(*) FROM flyway_schema_history WHERE NOT success"))
        .isZero();
    assertThat(storage.atLeast(Level.WARN))
        .singleElement()
        .satisfies(
            warning ->
                assertThat(warning.getFormattedMessage())
                    .startsWith("Migration 6 (pseudonyms key with sequence number) failed"));
  }

  /**
   * While a long transaction holds pseudonyms, each attempt at its ACCESS EXCLUSIVE lock gives up
   * after the lock timeout: writers queued behind the attempt wait that long at most, and the key
   * moves once the transaction ends.
   */
  @Test
  void aLongTransactionDelaysTheMigrationButNotTheWriters() throws Exception {
    ConnectionSettings database = beforeVersion6();
    try (ExecutorService executor = Executors.newSingleThreadExecutor();
        Connection longTransaction = TestPostgres.connect(database);
        Connection writer = TestPostgres.connect(database);
        Statement reading = longTransaction.createStatement();
        Statement writing = writer.createStatement()) {
      longTransaction.setAutoCommit(false);
      reading.execute("SELECT count(*) FROM pseudonyms");
      CompletableFuture<Integer> migrated =
          CompletableFuture.supplyAsync(() -> Migrations.migrate(database), executor);
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  storage.atLeast(Level.INFO).stream()
                      .anyMatch(
                          event -> event.getFormattedMessage().startsWith("pseudonyms is locked")));

      writing.execute(
          "SET statement_timeout = " + Migrations.LOCK_TIMEOUT.multipliedBy(5).toMillis());
      for (int i = 0; i < 20; i++) {
        writing.execute(
            "INSERT INTO pseudonyms (namespace_name, original_value, pseudonym_value, created_at,"
                + " last_updated_at) VALUES ('ns', 'w"
                + i
                + "', 'w"
                + i
                + "', now(), now())");
      }
      assertThat(migrated).as("still waiting for the long transaction").isNotDone();

      longTransaction.commit();
      assertThat(migrated.get(60, TimeUnit.SECONDS)).isEqualTo(FROM_VERSION_6);
    } catch (SQLException e) {
      throw new IllegalStateException("SQL failed: " + e.getMessage(), e);
    }
    assertMigrated(database);
    assertThat(TestPostgres.queryLong(database, "SELECT count(*) FROM pseudonyms")).isEqualTo(22);
  }
}
