package org.vfps.storage;

/** The SQL of the cache invalidation log ({@link PgInvalidationLog}). */
final class InvalidationQueries {

  private InvalidationQueries() {}

  /**
   * Appends an entry ({@code $1} kind, {@code $2} namespace, {@code $3} pseudonym values) under the
   * next generation, and prunes entries older than an hour. Run last in the transaction of the
   * change: the row of {@code vfps_cache_generation} stays locked until the commit, so the next
   * change's generation is taken only after this one is visible, and generations follow the order
   * of the commits.
   */
  static final String APPEND =
      """
      WITH next AS (
        UPDATE vfps_cache_generation SET generation = generation + 1 WHERE id
        RETURNING generation
      ),
      pruned AS (
        DELETE FROM vfps_cache_invalidations WHERE created_at < now() - interval '1 hour'
      )
      INSERT INTO vfps_cache_invalidations (generation, kind, namespace_name, pseudonym_values)
      SELECT generation, $1, $2, $3::text[] FROM next""";

  /**
   * The newest generation and the entries after {@code $1}, at most {@code $2}, in one snapshot.
   */
  static final String AFTER =
      """
      SELECT g.generation AS newest, i.generation, i.kind, i.namespace_name, i.pseudonym_values
      FROM vfps_cache_generation g
      LEFT JOIN LATERAL (
        SELECT generation, kind, namespace_name, pseudonym_values
        FROM vfps_cache_invalidations
        WHERE generation > $1
        ORDER BY generation
        LIMIT $2
      ) i ON true
      WHERE g.id
      ORDER BY i.generation""";
}
