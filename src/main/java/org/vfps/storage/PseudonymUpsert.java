package org.vfps.storage;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.util.Map;
import java.util.function.Function;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.namespace.Namespace;
import org.vfps.namespace.NamespaceFailures;
import org.vfps.pseudonym.Candidates;
import org.vfps.pseudonym.Upserted;

/**
 * The single-row upsert of one value ({@link PseudonymQueries#UPSERT}), with candidate regeneration
 * on collisions as {@link Collisions} rules: the path of a value that meets no other in flight, and
 * of each value that a multi-row statement could not settle. Thread-safe.
 */
final class PseudonymUpsert implements WriteCoalescer.SingleUpsert {

  /**
   * Runs of the upsert that may come back empty under a concurrent insert of the same pair, or lose
   * a deadlock to a concurrent multi-row statement.
   */
  static final int UPSERT_ATTEMPTS = 3;

  /** The unique index on pseudonym values within a namespace, since migration V4. */
  private static final String UNIQUE_PSEUDONYM_INDEX =
      "ix_pseudonyms_namespace_name_pseudonym_value";

  /**
   * Its name from V2 until V4 renamed it: a replica may meet either while a rolling upgrade
   * migrates.
   */
  private static final String UNIQUE_PSEUDONYM_INDEX_BEFORE_V4 =
      "ux_pseudonyms_namespace_name_pseudonym_value";

  private final Pool pool;
  private final UpsertTimer timer;
  private final Function<String, Future<Long>> counter;

  /**
   * @param counter how many pseudonyms a namespace holds, asked after a run of collisions
   */
  PseudonymUpsert(Pool pool, UpsertTimer timer, Function<String, Future<Long>> counter) {
    this.pool = pool;
    this.timer = timer;
    this.counter = counter;
  }

  @Override
  public Future<Upserted> upsert(
      Namespace namespace, String key, Buffer sealed, Candidates candidates) {
    return upsert(
        namespace,
        new StoredOriginals.Write(key, sealed, null, null, null),
        candidates,
        candidates.get(),
        1,
        new Collisions());
  }

  /**
   * The upsert of a value in a namespace that holds rows of both forms ({@link
   * PseudonymQueries#UPSERT_IN_TRANSITION}), as {@code write} says. Fails with {@link #STALE_FORM}
   * when the namespace's form changed since {@code write} was made.
   */
  Future<Upserted> upsertInTransition(
      Namespace namespace, StoredOriginals.Write write, Candidates candidates) {
    return upsert(namespace, write, candidates, candidates.get(), 1, new Collisions());
  }

  /** The failure of an upsert whose namespace's form changed since it was read: read it again. */
  static final ServiceException STALE_FORM =
      new ServiceException(
          ErrorCode.UNAVAILABLE,
          "The namespace's sealing changed during the call; try again.",
          Map.of());

  private Future<Upserted> upsert(
      Namespace namespace,
      StoredOriginals.Write write,
      Candidates candidates,
      String candidate,
      int attempt,
      Collisions collisions) {
    long started = System.nanoTime();
    String originalValue = write.key();
    Future<RowSet<Row>> statement =
        write.otherKey() == null
            ? pool.preparedQuery(PseudonymQueries.UPSERT)
                .execute(
                    Tuple.of(
                        namespace.name(),
                        write.key(),
                        candidate,
                        PseudonymRows.createdAt(namespace),
                        write.sealed()))
            : pool.preparedQuery(PseudonymQueries.UPSERT_IN_TRANSITION)
                .execute(
                    Tuple.tuple()
                        .addString(namespace.name())
                        .addString(write.key())
                        .addString(candidate)
                        .addOffsetDateTime(PseudonymRows.createdAt(namespace))
                        .addBuffer(write.sealed())
                        .addString(write.otherKey())
                        .addBoolean(write.sealed() != null)
                        .addBuffer(Buffer.buffer(write.indexKeyCheck())));
    return statement.transform(
        done -> {
          timer.single(System.nanoTime() - started);
          if (done.succeeded()) {
            RowSet<Row> rows = done.result();
            if (rows.size() > 0) {
              Row row = rows.iterator().next();
              if (row.getValue("inserted") == null) {
                if (write.otherKey() != null && Boolean.TRUE.equals(row.getBoolean("stale"))) {
                  return Future.failedFuture(STALE_FORM);
                }
                // the namespace looked up is gone, perhaps created again under its name
                return Future.failedFuture(NamespaceFailures.notFound(namespace.name()));
              }
              return Future.succeededFuture(
                  new Upserted(
                      PseudonymRows.toPseudonym(
                          namespace.name(), originalValue, row.getString("pseudonym_value"), row),
                      row.getBoolean("inserted")));
            }
            if (attempt < UPSERT_ATTEMPTS) {
              return upsert(namespace, write, candidates, candidate, attempt + 1, collisions);
            }
            return Future.failedFuture(PseudonymRows.upsertFailed(namespace.name(), null));
          }
          Throwable failure = done.cause();
          if (PgFailures.violates(failure, PgFailures.UNIQUE_VIOLATION, UNIQUE_PSEUDONYM_INDEX)
              || PgFailures.violates(
                  failure, PgFailures.UNIQUE_VIOLATION, UNIQUE_PSEUDONYM_INDEX_BEFORE_V4)) {
            return collided(namespace, write, candidates, attempt, collisions, failure);
          }
          if (PgFailures.violates(failure, PgFailures.DEADLOCK_DETECTED, null)
              && attempt < UPSERT_ATTEMPTS) {
            // lost a lock race with a multi-row statement that shares its candidate
            return upsert(namespace, write, candidates, candidate, attempt + 1, collisions);
          }
          if (PgFailures.violates(failure, PgFailures.FOREIGN_KEY_VIOLATION, null)) {
            return Future.failedFuture(NamespaceFailures.notFound(namespace.name()));
          }
          return Future.failedFuture(
              PgFailures.translate(failure, PseudonymRows.metadata(namespace.name())));
        });
  }

  /**
   * The candidate was another value's pseudonym: tries a fresh one, until {@link Collisions} says
   * the namespace is full.
   */
  private Future<Upserted> collided(
      Namespace namespace,
      StoredOriginals.Write write,
      Candidates candidates,
      int attempt,
      Collisions collisions,
      Throwable failure) {
    collisions.seenAnother();
    // a deterministic method's next candidate would be the same one again
    if (candidates.distinct() > 1 && collisions.mayTryAnother()) {
      return upsert(namespace, write, candidates, candidates.get(), attempt, collisions);
    }
    if (candidates.distinct() <= 1) {
      return Future.failedFuture(Collisions.derivedPseudonymTaken(namespace.name()));
    }
    if (collisions.counted()) {
      return Future.failedFuture(collisions.exhausted(namespace.name(), failure));
    }
    return counter
        .apply(namespace.name())
        .compose(
            count -> {
              collisions.counted(count, candidates.distinct());
              return collisions.mayTryAnother()
                  ? upsert(namespace, write, candidates, candidates.get(), attempt, collisions)
                  : Future.failedFuture(collisions.exhausted(namespace.name(), failure));
            });
  }
}
