package org.vfps.storage;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.VertxInternal;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * This replica's view of {@code vfps_namespace_sealing}, read again every {@value #RELOAD_MILLIS}
 * ms. A view older than {@value #MAX_AGE_MILLIS} ms (the database was away, or the loop stalled) is
 * read again before it is used, so that no write or lookup goes by a form older than that: the
 * sealing commands wait longer than that ({@link SealingCommands#SETTLE}) between announcing a
 * change of form and acting on it. Thread-safe.
 */
final class SealingStates {

  static final long RELOAD_MILLIS = 1000;
  static final long MAX_AGE_MILLIS = 5000;

  /** How far a replica's clock, which dates a namespace's creation, may be off the database's. */
  static final long CLOCK_SKEW_SECONDS = 2;

  private static final String SELECT =
      "SELECT s.namespace_name, s.writes_sealed, s.reads_plain, s.index_key_check,"
          + " s.other_index_key_check, t.read_at"
          + " FROM (SELECT now() AS read_at) t LEFT JOIN vfps_namespace_sealing s ON true";

  /** A plain namespace: no row. */
  static final Sealing PLAIN = new Sealing(SealingForm.PLAIN, null, null);

  private final Pool pool;

  /**
   * Namespaces created lately, by their time of creation, that a view read since holds as it is:
   * the views after it do too. Entries leave once the views' own times pass them.
   */
  private final Map<String, Instant> seenAfterCreation = new ConcurrentHashMap<>();

  private volatile View view = new View(Map.of(), Instant.EPOCH, 0);
  private volatile Future<View> loading;

  /**
   * Where the table is read: a context of its own, so that a read a call asks for is no part of the
   * call's trace; null until {@link #startReloading}.
   */
  private volatile Context reads;

  /**
   * A namespace's row: its form, the check value of the index key its new rows are indexed under,
   * and while it moves to another index key, the check of the other one (else null); both null for
   * a plain namespace.
   */
  record Sealing(SealingForm form, byte[] indexKeyCheck, byte[] otherIndexKeyCheck) {

    /** Whether rows of two forms, or under two index keys, may exist: a write must check both. */
    boolean inTransition() {
      return form.inTransition() || otherIndexKeyCheck != null;
    }
  }

  /** What the table held at {@code readAt} (the database's clock), read at {@code loadedNanos}. */
  record View(Map<String, Sealing> namespaces, Instant readAt, long loadedNanos) {

    boolean fresh() {
      return loadedNanos != 0 && System.nanoTime() - loadedNanos < MAX_AGE_MILLIS * 1_000_000;
    }
  }

  SealingStates(Pool pool) {
    this.pool = pool;
  }

  /** Starts reading the table every {@value #RELOAD_MILLIS} ms on {@code vertx}; returns its id. */
  long startReloading(Vertx vertx) {
    reads = ((VertxInternal) vertx).createEventLoopContext();
    return vertx.setPeriodic(RELOAD_MILLIS, id -> reload());
  }

  /**
   * The namespace's sealing, from a view at most {@value #MAX_AGE_MILLIS} ms old. A namespace
   * created since the view was read ({@code createdAt}, when known), perhaps sealed by another
   * replica, is looked up in a new view. Reading one, the future completes on the caller's context,
   * which holds the call's own state.
   */
  Future<Sealing> sealing(String namespace, Instant createdAt) {
    Sealing known = known(namespace, createdAt);
    if (known != null) {
      return Future.succeededFuture(known);
    }
    Context caller = Vertx.currentContext();
    Future<Sealing> read =
        reload()
            .map(
                loaded -> {
                  if (createdAt != null) {
                    // read after the caller found the namespace, so after its creation committed
                    seenAfterCreation.put(namespace, createdAt);
                  }
                  return loaded.namespaces.getOrDefault(namespace, PLAIN);
                });
    if (caller == null) {
      return read;
    }
    Promise<Sealing> delivered = Promise.promise();
    read.onComplete(done -> caller.runOnContext(ignored -> delivered.handle(done)));
    return delivered.future();
  }

  /**
   * The namespace's sealing as {@link #sealing} gives it when the view at hand serves, else null:
   * the hot path's way, without a future.
   */
  Sealing known(String namespace, Instant createdAt) {
    View current = view;
    if (current.fresh() && !createdSince(current, namespace, createdAt)) {
      return current.namespaces.getOrDefault(namespace, PLAIN);
    }
    return null;
  }

  private boolean createdSince(View view, String namespace, Instant createdAt) {
    return createdAt != null
        && !view.namespaces.containsKey(namespace)
        && !createdAt.isBefore(view.readAt.minusSeconds(CLOCK_SKEW_SECONDS))
        && !createdAt.equals(seenAfterCreation.get(namespace));
  }

  /** Whether any namespace is sealed, or being sealed or unsealed, as the table holds now. */
  Future<Boolean> anySealed() {
    return reload().map(loaded -> !loaded.namespaces.isEmpty());
  }

  /** Reads the table again; concurrent callers share one read. */
  Future<View> reload() {
    Future<View> running = loading;
    if (running != null && !running.isComplete()) {
      return running;
    }
    Context on = reads;
    Promise<RowSet<Row>> read = Promise.promise();
    if (on == null) {
      pool.query(SELECT).execute().onComplete(read);
    } else {
      on.runOnContext(ignored -> pool.query(SELECT).execute().onComplete(read));
    }
    Future<View> next =
        read.future()
            .map(
                rows -> {
                  Map<String, Sealing> namespaces = new HashMap<>();
                  Instant readAt = Instant.EPOCH;
                  for (Row row : rows) {
                    readAt = row.getOffsetDateTime("read_at").toInstant();
                    String name = row.getString("namespace_name");
                    if (name != null) {
                      Buffer other = row.getBuffer("other_index_key_check");
                      namespaces.put(
                          name,
                          new Sealing(
                              SealingForm.of(
                                  row.getBoolean("writes_sealed"), row.getBoolean("reads_plain")),
                              row.getBuffer("index_key_check").getBytes(),
                              other == null ? null : other.getBytes()));
                    }
                  }
                  View loaded = new View(Map.copyOf(namespaces), readAt, System.nanoTime());
                  view = loaded;
                  Instant passed = readAt.minusSeconds(CLOCK_SKEW_SECONDS);
                  seenAfterCreation.values().removeIf(created -> created.isBefore(passed));
                  return loaded;
                })
            .recover(failure -> Future.failedFuture(PgFailures.translate(failure, Map.of())));
    loading = next;
    return next;
  }
}
