package org.vfps.storage;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.migration.Context;
import org.flywaydb.core.api.migration.JavaMigration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.config.TimeSpans;

/**
 * Migration 6: the pseudonyms key of the .NET vfps 1.22, {@code pk_pseudonyms (namespace_name,
 * original_value, sequence_number)}, and its keyset index, while the service keeps writing.
 *
 * <p>The .NET service drops and re-adds the primary key, which builds its index under an ACCESS
 * EXCLUSIVE lock: no pseudonym can be read or written until it is built. Here every index is built
 * (and the replaced keyset index dropped) {@code CONCURRENTLY}, which writers do not wait for, and
 * the table's ACCESS EXCLUSIVE lock is taken only for what is catalog work of milliseconds: adding
 * {@code sequence_number} (a column with a constant default is not written into the rows) and
 * moving the key onto the index built for it. Each of those takes the lock with a short {@code
 * lock_timeout}, retried with pauses, so that it never waits long in the lock queue, where every
 * writer would wait behind it.
 *
 * <p>Runs outside a transaction, since {@code CREATE INDEX CONCURRENTLY} cannot run in one, and so
 * cannot be undone when it fails: every step first looks at what is there and does only what is
 * missing. An index that an interrupted or failed run left unfinished (INVALID) is dropped and
 * built again; a database that already has the key (one the .NET service 1.22 made) gets nothing
 * built. That a step depends on what the catalog says is why this migration is Java, not SQL: a
 * concurrent build cannot run in a {@code DO} block. {@link Migrations} lets a failed run be
 * resumed by the next one.
 */
final class PseudonymKeyMigration implements JavaMigration {

  static final String VERSION = "6";

  /** The unique index the new key is built as; moving the key onto it renames it pk_pseudonyms. */
  static final String KEY_INDEX = "pk_pseudonyms_next";

  /**
   * The .NET service's keyset index as PostgreSQL names it: its migration asks for {@code
   * ix_pseudonyms_namespace_name_created_at_original_value_sequence_number}, 70 characters, and
   * PostgreSQL keeps the first 63 of an identifier.
   */
  static final String KEYSET_INDEX =
      "ix_pseudonyms_namespace_name_created_at_original_value_sequence";

  /** The keyset index it replaces (List's order before there were sequence numbers). */
  static final String KEYSET_INDEX_BEFORE =
      "ix_pseudonyms_namespace_name_created_at_original_value";

  static final List<String> KEY = List.of("namespace_name", "original_value", "sequence_number");
  static final List<String> KEY_BEFORE = List.of("namespace_name", "original_value");
  static final List<String> KEYSET =
      List.of("namespace_name", "created_at", "original_value", "sequence_number");

  private static final String LOCK_NOT_AVAILABLE = "55P03";
  private static final long FIRST_PAUSE_MILLIS = 100;
  private static final long LONGEST_PAUSE_MILLIS = 2000;

  private static final String HAS_SEQUENCE_NUMBER =
      """
      SELECT EXISTS (
        SELECT FROM pg_attribute
        WHERE attrelid = 'pseudonyms'::regclass AND attname = 'sequence_number'
          AND NOT attisdropped
      )""";

  private static final String ADD_SEQUENCE_NUMBER =
      "ALTER TABLE pseudonyms ADD COLUMN IF NOT EXISTS sequence_number bigint NOT NULL DEFAULT 0";

  /** The columns of the primary key of pseudonyms, in order, and its name. */
  private static final String PRIMARY_KEY =
      """
      SELECT c.conname, array_agg(a.attname::text ORDER BY k.position)
      FROM pg_constraint c
      CROSS JOIN unnest(c.conkey) WITH ORDINALITY AS k (attnum, position)
      JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
      WHERE c.conrelid = 'pseudonyms'::regclass AND c.contype = 'p'
      GROUP BY c.conname""";

  /**
   * The index of that name beside pseudonyms: whether it is valid and unique, its columns in order
   * (NULL for an expression), and whether it is partial.
   */
  private static final String INDEX =
      """
      SELECT i.indisvalid, i.indisunique,
        array_agg(a.attname::text ORDER BY k.position), i.indpred IS NOT NULL
      FROM pg_class c
      JOIN pg_index i ON i.indexrelid = c.oid
      CROSS JOIN unnest(i.indkey) WITH ORDINALITY AS k (attnum, position)
      LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
      WHERE c.relname = ?
        AND c.relnamespace = (SELECT relnamespace FROM pg_class WHERE oid = 'pseudonyms'::regclass)
      GROUP BY i.indisvalid, i.indisunique, i.indpred IS NOT NULL""";

  private static final String BUILD_KEY_INDEX =
      "CREATE UNIQUE INDEX CONCURRENTLY "
          + KEY_INDEX
          + " ON pseudonyms (namespace_name, original_value, sequence_number)";

  private static final String MOVE_KEY =
      "ALTER TABLE pseudonyms DROP CONSTRAINT pk_pseudonyms,"
          + " ADD CONSTRAINT pk_pseudonyms PRIMARY KEY USING INDEX "
          + KEY_INDEX;

  private static final String BUILD_KEYSET_INDEX =
      "CREATE INDEX CONCURRENTLY "
          + KEYSET_INDEX
          + " ON pseudonyms (namespace_name, created_at, original_value, sequence_number)";

  private static final String LOCK = "LOCK TABLE pseudonyms IN ACCESS EXCLUSIVE MODE";

  /**
   * The sessions other than this one that hold a lock on pseudonyms, by pid and kind (an autovacuum
   * worker gives way only to a lock that waited deadlock_timeout, longer than an attempt here
   * waits).
   */
  private static final String LOCK_HOLDERS =
      """
      SELECT coalesce(string_agg(DISTINCT 'pid ' || l.pid || ' (' || a.backend_type || ')', ', '),
        'none any more')
      FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.relation = 'pseudonyms'::regclass AND l.granted AND l.pid <> pg_backend_pid()""";

  private static final Logger LOG = LoggerFactory.getLogger(PseudonymKeyMigration.class);

  private final Duration lockTimeout;
  private final Duration lockPatience;

  /**
   * @param lockTimeout how long one attempt at the table's lock may wait in its queue, and so hold
   *     up the writers queued behind it
   * @param lockPatience how long the attempts go on before the migration fails
   */
  PseudonymKeyMigration(Duration lockTimeout, Duration lockPatience) {
    this.lockTimeout = lockTimeout;
    this.lockPatience = lockPatience;
  }

  @Override
  public MigrationVersion getVersion() {
    return MigrationVersion.fromVersion(VERSION);
  }

  @Override
  public String getDescription() {
    return "pseudonyms key with sequence number";
  }

  @Override
  public Integer getChecksum() {
    return null;
  }

  @Override
  public boolean canExecuteInTransaction() {
    return false;
  }

  @Override
  public void migrate(Context context) throws SQLException, InterruptedException {
    Connection connection = context.getConnection();
    connection.setAutoCommit(true);
    addSequenceNumber(connection);
    moveKey(connection);
    replaceKeysetIndex(connection);
  }

  private void addSequenceNumber(Connection connection) throws SQLException, InterruptedException {
    if (!queryBoolean(connection, HAS_SEQUENCE_NUMBER)) {
      Locked locked = underBriefLock(connection, ADD_SEQUENCE_NUMBER);
      LOG.info("Added pseudonyms.sequence_number, 0 for every row ({})", locked);
    }
  }

  private void moveKey(Connection connection) throws SQLException, InterruptedException {
    List<String> key = primaryKey(connection);
    if (key.equals(KEY)) {
      // a database the .NET service 1.22 made, or a run cut short after the move
      dropIfPresent(connection, KEY_INDEX);
      return;
    }
    if (!key.equals(KEY_BEFORE)) {
      throw new SQLException(
          "vfps: pk_pseudonyms covers " + key + "; expected " + KEY_BEFORE + " or " + KEY);
    }
    if (ensureIndex(connection, KEY_INDEX, true, KEY, BUILD_KEY_INDEX)) {
      LOG.info("Built the unique index {} for the new pseudonyms key", KEY_INDEX);
    }
    Locked locked = underBriefLock(connection, MOVE_KEY);
    LOG.info("pk_pseudonyms now covers {} ({})", String.join(", ", KEY), locked);
  }

  private void replaceKeysetIndex(Connection connection) throws SQLException {
    if (ensureIndex(connection, KEYSET_INDEX, false, KEYSET, BUILD_KEYSET_INDEX)) {
      LOG.info("Built the keyset index {}", KEYSET_INDEX);
    }
    dropIfPresent(connection, KEYSET_INDEX_BEFORE);
  }

  /**
   * Makes sure the named index exists as {@code build} makes it, and is valid: an unfinished or
   * different one is dropped first. Both concurrently; yields whether it built the index.
   */
  private static boolean ensureIndex(
      Connection connection, String name, boolean unique, List<String> columns, String build)
      throws SQLException {
    IndexState state = index(connection, name);
    if (state != null && state.is(unique, columns)) {
      return false;
    }
    if (state != null) {
      LOG.info(
          "Dropping the index {} that an earlier run left {}",
          name,
          state.valid() ? "different" : "unfinished");
      execute(connection, "DROP INDEX CONCURRENTLY " + name);
    }
    LOG.info("Building the index {} concurrently: pseudonyms stay writable meanwhile", name);
    execute(connection, build);
    return true;
  }

  private static void dropIfPresent(Connection connection, String name) throws SQLException {
    if (index(connection, name) != null) {
      LOG.info("Dropping the index {} concurrently", name);
      execute(connection, "DROP INDEX CONCURRENTLY " + name);
    }
  }

  /**
   * Runs the statement in a transaction of its own that first takes the ACCESS EXCLUSIVE lock of
   * pseudonyms, waiting at most {@link #lockTimeout} for it; when it cannot get it, tries again
   * after a pause that holds nothing, for up to {@link #lockPatience}. Yields how the successful
   * attempt went.
   */
  private Locked underBriefLock(Connection connection, String statement)
      throws SQLException, InterruptedException {
    long deadline = System.nanoTime() + lockPatience.toNanos();
    long pauseMillis = FIRST_PAUSE_MILLIS;
    for (int attempt = 1; ; attempt++) {
      connection.setAutoCommit(false);
      try (Statement sql = connection.createStatement()) {
        sql.execute("SET LOCAL lock_timeout = " + lockTimeout.toMillis());
        long asked = System.nanoTime();
        sql.execute(LOCK);
        long got = System.nanoTime();
        sql.execute(statement);
        long ran = System.nanoTime();
        connection.commit();
        return new Locked(
            attempt,
            Duration.ofNanos(got - asked),
            Duration.ofNanos(ran - got),
            Duration.ofNanos(System.nanoTime() - ran));
      } catch (SQLException e) {
        connection.rollback();
        if (!LOCK_NOT_AVAILABLE.equals(e.getSQLState())) {
          throw e;
        }
      } finally {
        connection.setAutoCommit(true);
      }
      if (System.nanoTime() - deadline > 0) {
        throw new SQLException(
            "vfps: pseudonyms stayed locked by other sessions for "
                + TimeSpans.format(lockPatience)
                + " (now by "
                + lockHolders(connection)
                + "); end them or migrate again later",
            LOCK_NOT_AVAILABLE);
      }
      if (attempt == 1) {
        LOG.info(
            "pseudonyms is locked by another session ({}); retrying, each attempt waiting at most {}",
            lockHolders(connection),
            TimeSpans.format(lockTimeout));
      }
      Thread.sleep((long) (pauseMillis * ThreadLocalRandom.current().nextDouble(0.5, 1.5)));
      pauseMillis = Math.min(pauseMillis * 2, LONGEST_PAUSE_MILLIS);
    }
  }

  /**
   * How an {@link #underBriefLock} went: its attempts, and how long the last one waited for the
   * lock, ran its statement and committed. The commit releases the lock once its record is written,
   * before it removes the files of what the statement dropped, which may take a while longer.
   */
  private record Locked(int attempts, Duration waited, Duration ran, Duration committed) {

    @Override
    public String toString() {
      return "waited "
          + waited.toMillis()
          + " ms for the table's lock, then ran "
          + ran.toMillis()
          + " ms and committed in "
          + committed.toMillis()
          + " ms"
          + (attempts > 1 ? ", at attempt " + attempts : "");
    }
  }

  private static List<String> primaryKey(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery(PRIMARY_KEY)) {
      if (!result.next()) {
        throw new SQLException("vfps: pseudonyms has no primary key");
      }
      if (!"pk_pseudonyms".equals(result.getString(1))) {
        throw new SQLException(
            "vfps: the primary key of pseudonyms is "
                + result.getString(1)
                + ", not pk_pseudonyms");
      }
      return List.of((String[]) result.getArray(2).getArray());
    }
  }

  private static IndexState index(Connection connection, String name) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(INDEX)) {
      statement.setString(1, name);
      try (ResultSet result = statement.executeQuery()) {
        if (!result.next()) {
          return null;
        }
        String[] columns = (String[]) result.getArray(3).getArray();
        return new IndexState(
            result.getBoolean(1),
            result.getBoolean(2),
            Arrays.asList(columns),
            result.getBoolean(4));
      }
    }
  }

  /** What the catalog says of an index. */
  private record IndexState(boolean valid, boolean unique, List<String> columns, boolean partial) {

    boolean is(boolean unique, List<String> columns) {
      return valid && this.unique == unique && this.columns.equals(columns) && !partial;
    }
  }

  private static String lockHolders(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery(LOCK_HOLDERS)) {
      result.next();
      return result.getString(1);
    }
  }

  private static boolean queryBoolean(Connection connection, String query) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery(query)) {
      result.next();
      return result.getBoolean(1);
    }
  }

  private static void execute(Connection connection, String statement) throws SQLException {
    try (Statement sql = connection.createStatement()) {
      sql.execute(statement);
    }
  }
}
