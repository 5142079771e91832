package org.vfps.storage;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.vfps.seal.Sealer;
import org.vfps.seal.SealingException;

/**
 * The sealing commands on a running deployment: {@link #seal} and {@link #unseal} turn an existing
 * namespace's rows from one form into the other, {@link #reencrypt} seals every sealed value again
 * under the newest data key. Each runs online, while replicas write and read the namespace:
 *
 * <ol>
 *   <li>it announces the change in {@code vfps_namespace_sealing}: values are looked up in both
 *       forms, new rows still take the old one;
 *   <li>it waits {@link #SETTLE}, longer than any replica goes by an older view ({@link
 *       SealingStates#MAX_AGE_MILLIS}), so every replica looks in both forms;
 *   <li>it switches the form new rows take, locking the row that writers lock {@code FOR SHARE}
 *       ({@link PseudonymQueries#UPSERT_IN_TRANSITION}), and waits again;
 *   <li>it turns the rows of the old form into the new one, a batch per transaction;
 *   <li>it records the end: sealed rows only, or no row (plain).
 * </ol>
 *
 * A command that stopped half-way is run again and goes on from where the table says it is.
 */
public final class SealingCommands {

  /** How long a command waits after each change of form for every replica to see it. */
  public static final Duration SETTLE =
      Duration.ofMillis(3 * SealingStates.MAX_AGE_MILLIS + SealingStates.RELOAD_MILLIS);

  /** Values turned per transaction. */
  static final int BATCH = 500;

  private final Vertx vertx;
  private final Pool pool;
  private final Sealer sealer;
  private final Consumer<String> progress;
  private final Duration settle;

  /**
   * @param progress where each step is reported, one line each; never a value
   * @param settle how long to wait after each change of form ({@link #SETTLE}; shorter in tests
   *     that run no other replica)
   */
  public SealingCommands(
      Vertx vertx, Pool pool, Sealer sealer, Consumer<String> progress, Duration settle) {
    this.vertx = vertx;
    this.pool = pool;
    this.sealer = sealer;
    this.progress = progress;
    this.settle = settle;
  }

  /** The pool of a {@link Database}, for the commands. */
  public static SealingCommands on(
      Vertx vertx, Database database, Sealer sealer, Consumer<String> progress, Duration settle) {
    return new SealingCommands(vertx, database.pool(), sealer, progress, settle);
  }

  /** Seals the namespace's rows; returns how many values it sealed. */
  public Future<Long> seal(String namespace) {
    return turn(namespace, true);
  }

  /** Turns the namespace's sealed rows back into plain ones; returns how many values. */
  public Future<Long> unseal(String namespace) {
    return turn(namespace, false);
  }

  /**
   * Turns the namespace's rows into sealed ones ({@code toSealed}) or plain ones, from where the
   * table says it is: announced, switched, or neither yet.
   */
  private Future<Long> turn(String namespace, boolean toSealed) {
    SealingForm done = toSealed ? SealingForm.SEALED : SealingForm.PLAIN;
    SealingForm switchedAlready =
        toSealed ? SealingForm.BOTH_WRITES_SEALED : SealingForm.BOTH_WRITES_PLAIN;
    return state(namespace)
        .map(State::form)
        .compose(
            form -> {
              if (form == done) {
                progress.accept(
                    "namespace '"
                        + namespace
                        + "' is "
                        + (toSealed ? "sealed" : "plain")
                        + " already");
                return Future.succeededFuture(0L);
              }
              Future<Void> switched =
                  form == switchedAlready
                      ? Future.succeededFuture()
                      : announce(
                              namespace,
                              form == (toSealed ? SealingForm.PLAIN : SealingForm.SEALED),
                              toSealed
                                  ? "INSERT INTO vfps_namespace_sealing (namespace_name,"
                                      + " writes_sealed, reads_plain, index_key_check)"
                                      + " VALUES ($1, false, true, $2)"
                                  : "UPDATE vfps_namespace_sealing SET reads_plain = true,"
                                      + " changed_at = now() WHERE namespace_name = $1",
                              toSealed
                                  ? Tuple.of(namespace, Buffer.buffer(sealer.keyCheck()))
                                  : Tuple.of(namespace))
                          .compose(
                              ready ->
                                  switchWrites(
                                      namespace,
                                      toSealed,
                                      toSealed
                                          ? "new rows are written sealed"
                                          : "new rows are written plain"))
                          .compose(ready -> waitSettle());
              return switched
                  .compose(ready -> convert(namespace, toSealed, 0L))
                  .compose(
                      count ->
                          update(
                                  namespace,
                                  toSealed
                                      ? "UPDATE vfps_namespace_sealing SET reads_plain = false,"
                                          + " changed_at = now() WHERE namespace_name = $1"
                                      : "DELETE FROM vfps_namespace_sealing"
                                          + " WHERE namespace_name = $1",
                                  (toSealed ? "sealed: " : "unsealed: ") + count + " values")
                              .map(count));
            });
  }

  /**
   * Announces the change (values looked up in both forms) when {@code fresh}, then waits {@link
   * #SETTLE}; a command resumed after the announcement waits too, as the run that announced may
   * have stopped during its wait.
   *
   * @param statement the announcement, with its {@code arguments}
   */
  private Future<Void> announce(
      String namespace, boolean fresh, String statement, Tuple arguments) {
    Future<Void> announced =
        fresh
            ? pool.preparedQuery(statement)
                .execute(arguments)
                .map(done -> reported(namespace, "announced: values are looked up in both forms"))
            : Future.succeededFuture();
    return announced.compose(done -> waitSettle());
  }

  /**
   * Seals every sealed value that is not under the newest data key again under it, in batches,
   * until none is left; returns how many.
   */
  public Future<Long> reencrypt() {
    return pool.query(
            "SELECT namespace_name, index_key_check, other_index_key_check"
                + " FROM vfps_namespace_sealing")
        .execute()
        .compose(
            rows -> {
              for (Row row : rows) {
                Buffer other = row.getBuffer("other_index_key_check");
                if (sealer.indexVersionOf(row.getBuffer("index_key_check").getBytes()).isEmpty()
                    || (other != null && sealer.indexVersionOf(other.getBytes()).isEmpty())) {
                  return Future.failedFuture(otherKeyFile(row.getString("namespace_name")));
                }
              }
              return reencryptBatch(0L);
            });
  }

  /**
   * Moves a sealed namespace to the newest index key of the key file, online, as {@link #seal}
   * moves a plain one to sealed rows: it announces the new key (values are looked up under both,
   * new rows still indexed under the old), waits, switches new rows to the new key under the row
   * lock, waits, re-indexes the rows in batches (each value opened, indexed under the new key and
   * sealed again, bound to its new blind index), and records the end. Returns how many rows it
   * re-indexed. Run again after an interruption, it goes on from where the table says it is.
   */
  public Future<Long> reindex(String namespace) {
    byte[] target = sealer.keyCheck();
    return state(namespace)
        .compose(
            state -> {
              if (state.form() != SealingForm.SEALED) {
                return Future.failedFuture(
                    new IllegalStateException(
                        "namespace '"
                            + namespace
                            + "' is not sealed (or is being sealed or unsealed): seal it first"));
              }
              Buffer current = state.indexKeyCheck();
              Buffer other = state.otherIndexKeyCheck();
              boolean switched = Arrays.equals(current.getBytes(), target);
              if (switched && other == null) {
                progress.accept(
                    "namespace '"
                        + namespace
                        + "' is indexed under index key "
                        + sealer.currentIndexVersion()
                        + " already");
                return Future.succeededFuture(0L);
              }
              Future<Void> ready =
                  switched
                      ? Future.succeededFuture()
                      : announce(
                              namespace,
                              other == null,
                              "UPDATE vfps_namespace_sealing SET other_index_key_check = $2,"
                                  + " changed_at = now() WHERE namespace_name = $1",
                              Tuple.of(namespace, Buffer.buffer(target)))
                          .compose(done -> switchIndex(namespace, current, target))
                          .compose(done -> waitSettle());
              return ready
                  .compose(done -> reindexBatch(namespace, "", 0L))
                  .compose(
                      count ->
                          update(
                                  namespace,
                                  "UPDATE vfps_namespace_sealing SET other_index_key_check = NULL,"
                                      + " changed_at = now() WHERE namespace_name = $1",
                                  "re-indexed: "
                                      + count
                                      + " rows under index key "
                                      + sealer.currentIndexVersion())
                              .map(count));
            });
  }

  /**
   * Moves every sealed namespace to the newest index key ({@link #reindex}), one after the other;
   * returns how many rows it re-indexed in all.
   */
  public Future<Long> reindexAll() {
    return pool.query(
            "SELECT namespace_name FROM vfps_namespace_sealing WHERE NOT reads_plain"
                + " ORDER BY namespace_name")
        .execute()
        .compose(
            rows -> {
              List<String> names = new ArrayList<>();
              rows.forEach(row -> names.add(row.getString(0)));
              Future<Long> all = Future.succeededFuture(0L);
              for (String name : names) {
                all = all.compose(sum -> reindex(name).map(count -> sum + count));
              }
              return all;
            });
  }

  /** New rows of the namespace are indexed under {@code target}; the old key is still read. */
  private Future<Void> switchIndex(String namespace, Buffer old, byte[] target) {
    return updateLocked(
        namespace,
        "UPDATE vfps_namespace_sealing SET index_key_check = $2,"
            + " other_index_key_check = $3, changed_at = now()"
            + " WHERE namespace_name = $1",
        Tuple.of(namespace, Buffer.buffer(target), old),
        "new rows are indexed under the new key");
  }

  /**
   * Re-indexes the namespace's sealed rows after {@code after} (in the order of their keys), a
   * batch at a time: a row whose key is not its value's blind index under the newest index key gets
   * it, and its value sealed again for it. A row re-indexed moves in that order, and may be met
   * again: its key then fits, and it is left.
   */
  private Future<Long> reindexBatch(String namespace, String after, long done) {
    int target = sealer.currentIndexVersion();
    return pool.preparedQuery(
            """
            SELECT original_value, x_sealed_original_value FROM pseudonyms
            WHERE namespace_name = $1 AND x_sealed_original_value IS NOT NULL
              AND original_value > $2
            ORDER BY original_value
            LIMIT $3""")
        .execute(Tuple.of(namespace, after, BATCH))
        .compose(
            rows -> {
              if (rows.size() == 0) {
                return Future.succeededFuture(done);
              }
              List<String> from = new ArrayList<>();
              List<String> to = new ArrayList<>();
              List<Buffer> before = new ArrayList<>();
              List<Buffer> sealed = new ArrayList<>();
              String last = after;
              for (Row row : rows) {
                String key = row.getString("original_value");
                last = key;
                Buffer stored = row.getBuffer("x_sealed_original_value");
                String value = open(namespace, key, stored);
                String index = sealer.blindIndex(target, namespace, value);
                if (!index.equals(key)) {
                  from.add(key);
                  to.add(index);
                  before.add(stored);
                  sealed.add(Buffer.buffer(sealer.seal(namespace, index, value)));
                }
              }
              String next = last;
              if (from.isEmpty()) {
                return reindexBatch(namespace, next, done);
              }
              return pool.preparedQuery(
                      """
                      UPDATE pseudonyms p
                      SET original_value = c.to_value, x_sealed_original_value = c.sealed
                      FROM unnest($2::text[], $3::text[], $4::bytea[], $5::bytea[])
                        AS c (from_value, to_value, before, sealed)
                      WHERE p.namespace_name = $1 AND p.original_value = c.from_value
                        AND p.x_sealed_original_value = c.before""")
                  .execute(
                      Tuple.of(
                          namespace,
                          from.toArray(String[]::new),
                          to.toArray(String[]::new),
                          before.toArray(Buffer[]::new),
                          sealed.toArray(Buffer[]::new)))
                  .compose(
                      updated -> {
                        reported(namespace, (done + updated.rowCount()) + " rows re-indexed");
                        return reindexBatch(namespace, next, done + updated.rowCount());
                      });
            });
  }

  private Future<Long> reencryptBatch(long done) {
    int current = sealer.keys().currentVersion();
    byte[] currentHeader = ByteBuffer.allocate(4).putInt(current).array();
    return pool.preparedQuery(
            """
            SELECT namespace_name, original_value, x_sealed_original_value FROM pseudonyms
            WHERE x_sealed_original_value IS NOT NULL
              AND substring(x_sealed_original_value FROM 2 FOR 4) <> $1
            LIMIT $2""")
        .execute(Tuple.of(Buffer.buffer(currentHeader), BATCH))
        .compose(
            rows -> {
              if (rows.size() == 0) {
                progress.accept("re-encrypted: " + done + " values under data key " + current);
                return Future.succeededFuture(done);
              }
              List<String> names = new ArrayList<>();
              List<String> keys = new ArrayList<>();
              List<Buffer> before = new ArrayList<>();
              List<Buffer> after = new ArrayList<>();
              for (Row row : rows) {
                String namespace = row.getString("namespace_name");
                String key = row.getString("original_value");
                Buffer sealed = row.getBuffer("x_sealed_original_value");
                String value = open(namespace, key, sealed);
                names.add(namespace);
                keys.add(key);
                before.add(sealed);
                after.add(Buffer.buffer(sealer.seal(namespace, key, value)));
              }
              return pool.preparedQuery(
                      """
                      UPDATE pseudonyms p SET x_sealed_original_value = c.after
                      FROM unnest($1::text[], $2::text[], $3::bytea[], $4::bytea[])
                        AS c (namespace_name, original_value, before, after)
                      WHERE p.namespace_name = c.namespace_name
                        AND p.original_value = c.original_value
                        AND p.x_sealed_original_value = c.before""")
                  .execute(
                      Tuple.of(
                          names.toArray(String[]::new),
                          keys.toArray(String[]::new),
                          before.toArray(Buffer[]::new),
                          after.toArray(Buffer[]::new)))
                  .compose(updated -> reencryptBatch(done + updated.rowCount()));
            });
  }

  /** A namespace's row of {@code vfps_namespace_sealing} as the table holds it now. */
  private record State(SealingForm form, Buffer indexKeyCheck, Buffer otherIndexKeyCheck) {}

  /**
   * The namespace's row as the table holds it; fails when the namespace does not exist, or is
   * sealed under an index key this command's key file does not hold.
   */
  private Future<State> state(String namespace) {
    return pool.preparedQuery(
            """
            SELECT s.writes_sealed, s.reads_plain, s.index_key_check, s.other_index_key_check
            FROM namespaces n LEFT JOIN vfps_namespace_sealing s ON s.namespace_name = n.name
            WHERE n.name = $1""")
        .execute(Tuple.of(namespace))
        .compose(
            rows -> {
              if (rows.size() == 0) {
                return Future.failedFuture(
                    new IllegalArgumentException("namespace '" + namespace + "' does not exist"));
              }
              Row row = rows.iterator().next();
              if (row.getBoolean("writes_sealed") == null) {
                return Future.succeededFuture(new State(SealingForm.PLAIN, null, null));
              }
              Buffer check = row.getBuffer("index_key_check");
              Buffer other = row.getBuffer("other_index_key_check");
              if (sealer.indexVersionOf(check.getBytes()).isEmpty()
                  || (other != null && sealer.indexVersionOf(other.getBytes()).isEmpty())) {
                return Future.failedFuture(otherKeyFile(namespace));
              }
              return Future.succeededFuture(
                  new State(
                      SealingForm.of(
                          row.getBoolean("writes_sealed"), row.getBoolean("reads_plain")),
                      check,
                      other));
            });
  }

  private static IllegalStateException otherKeyFile(String namespace) {
    return new IllegalStateException(
        "namespace '" + namespace + "' is sealed with another key file than Sealing__KeyFile");
  }

  private Future<Void> update(String namespace, String statement, String report) {
    return pool.preparedQuery(statement)
        .execute(Tuple.of(namespace))
        .map(done -> reported(namespace, report));
  }

  /**
   * Switches the form new rows take, once every writer that locked the row for its statement has
   * committed.
   */
  private Future<Void> switchWrites(String namespace, boolean sealed, String report) {
    return updateLocked(
        namespace,
        "UPDATE vfps_namespace_sealing SET writes_sealed = $2,"
            + " changed_at = now() WHERE namespace_name = $1",
        Tuple.of(namespace, sealed),
        report);
  }

  /**
   * Runs {@code statement} on the namespace's row of {@code vfps_namespace_sealing} in a
   * transaction that first locks that row {@code FOR UPDATE}, so that it waits for every writer
   * that locked the row {@code FOR SHARE} for its statement; then reports {@code report}.
   */
  private Future<Void> updateLocked(
      String namespace, String statement, Tuple arguments, String report) {
    return pool.withTransaction(
            transaction ->
                transaction
                    .preparedQuery(
                        "SELECT FROM vfps_namespace_sealing WHERE namespace_name = $1 FOR UPDATE")
                    .execute(Tuple.of(namespace))
                    .compose(locked -> transaction.preparedQuery(statement).execute(arguments)))
        .map(done -> reported(namespace, report));
  }

  /** Reports a step of the namespace's command, one line; never a value. */
  private Void reported(String namespace, String report) {
    progress.accept("namespace '" + namespace + "': " + report);
    return null;
  }

  private Future<Void> waitSettle() {
    if (settle.isZero()) {
      return Future.succeededFuture();
    }
    progress.accept("waiting " + settle.toSeconds() + " s for every replica to see the change");
    return vertx.timer(settle.toMillis()).mapEmpty();
  }

  /** Turns the rows of the old form into the new one, a batch at a time, until none is left. */
  private Future<Long> convert(String namespace, boolean toSealed, long done) {
    Future<RowSet<Row>> batch =
        toSealed
            ? pool.preparedQuery(
                    """
                    SELECT DISTINCT original_value FROM pseudonyms
                    WHERE namespace_name = $1 AND x_sealed_original_value IS NULL
                      AND btrim(original_value, E' \\t') <> ''
                    LIMIT $2""")
                .execute(Tuple.of(namespace, BATCH))
            : pool.preparedQuery(
                    """
                    SELECT DISTINCT original_value, x_sealed_original_value FROM pseudonyms
                    WHERE namespace_name = $1 AND x_sealed_original_value IS NOT NULL
                    LIMIT $2""")
                .execute(Tuple.of(namespace, BATCH));
    return batch.compose(
        rows -> {
          if (rows.size() == 0) {
            return Future.succeededFuture(done);
          }
          List<String> from = new ArrayList<>();
          List<String> to = new ArrayList<>();
          List<Buffer> sealed = new ArrayList<>();
          for (Row row : rows) {
            String stored = row.getString("original_value");
            if (toSealed) {
              String index = sealer.blindIndex(namespace, stored);
              from.add(stored);
              to.add(index);
              sealed.add(Buffer.buffer(sealer.seal(namespace, index, stored)));
            } else {
              from.add(stored);
              to.add(open(namespace, stored, row.getBuffer("x_sealed_original_value")));
              sealed.add(null);
            }
          }
          return pool.preparedQuery(
                  """
                  UPDATE pseudonyms p
                  SET original_value = c.to_value, x_sealed_original_value = c.sealed
                  FROM unnest($2::text[], $3::text[], $4::bytea[]) AS c (from_value, to_value, sealed)
                  WHERE p.namespace_name = $1 AND p.original_value = c.from_value
                    AND (p.x_sealed_original_value IS NULL) = $5""")
              .execute(
                  Tuple.of(
                      namespace,
                      from.toArray(String[]::new),
                      to.toArray(String[]::new),
                      sealed.toArray(Buffer[]::new),
                      toSealed))
              .compose(
                  updated -> {
                    reported(namespace, (done + rows.size()) + " values turned");
                    return convert(namespace, toSealed, done + rows.size());
                  });
        });
  }

  private String open(String namespace, String key, Buffer sealed) {
    try {
      return sealer.open(namespace, key, sealed.getBytes());
    } catch (SealingException e) {
      throw new IllegalStateException(
          "a sealed value of namespace '" + namespace + "' does not open: " + e.getMessage(), e);
    }
  }
}
