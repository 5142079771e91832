package org.vfps.storage;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.vfps.cache.Invalidation;
import org.vfps.cache.InvalidationLog;

/**
 * The cache invalidation log in {@code vfps_cache_invalidations}: the repositories {@linkplain
 * #append append} to it in the transactions of the changes, and every replica reads it.
 * Thread-safe.
 */
public final class PgInvalidationLog implements InvalidationLog {

  private final Pool pool;

  PgInvalidationLog(Pool pool) {
    this.pool = pool;
  }

  /**
   * Appends the change's entry; call it last in the change's transaction, on that transaction's
   * connection.
   *
   * @param namespace null for an access change
   * @param pseudonymValues null unless pseudonyms were withdrawn
   */
  static Future<Void> append(
      SqlClient transaction,
      Invalidation.Kind kind,
      String namespace,
      Collection<String> pseudonymValues) {
    return transaction
        .preparedQuery(InvalidationQueries.APPEND)
        .execute(
            Tuple.of(
                kind.stored(),
                namespace,
                pseudonymValues == null ? null : pseudonymValues.toArray(String[]::new)))
        .mapEmpty();
  }

  @Override
  public Future<Entries> after(long generation, int limit) {
    return pool.preparedQuery(InvalidationQueries.AFTER)
        .execute(Tuple.of(generation, limit))
        .recover(failure -> Future.failedFuture(PgFailures.translate(failure, Map.of())))
        .map(
            rows -> {
              long newest = generation;
              List<Invalidation> entries = new ArrayList<>(rows.size());
              for (Row row : rows) {
                newest = row.getLong("newest");
                Long entry = row.getLong("generation");
                if (entry != null) {
                  String[] values = row.getArrayOfStrings("pseudonym_values");
                  entries.add(
                      new Invalidation(
                          entry,
                          Invalidation.Kind.of(row.getString("kind")),
                          row.getString("namespace_name"),
                          values == null ? Set.of() : Set.of(values)));
                }
              }
              return new Entries(newest, entries);
            });
  }
}
