package org.vfps.storage;

/** The SQL of {@link PgNamespaceRepository}. */
final class NamespaceQueries {

  private NamespaceQueries() {}

  static final String COLUMNS =
      """
      name, description, pseudonym_generation_method, pseudonym_length, pseudonym_prefix, \
      pseudonym_suffix, created_at, last_updated_at""";

  static final String INSERT =
      "INSERT INTO namespaces (" + COLUMNS + ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8)";

  static final String INSERT_IF_ABSENT = INSERT + " ON CONFLICT (name) DO NOTHING";

  static final String FIND = "SELECT " + COLUMNS + " FROM namespaces WHERE name = $1";

  static final String FIND_ANY =
      "SELECT " + COLUMNS + " FROM namespaces WHERE name = ANY($1::text[])";

  /** The namespaces after $1 in name order, at most $2 of them: keyset pages over the key. */
  static final String FIND_PAGE =
      "SELECT " + COLUMNS + " FROM namespaces WHERE name > $1 ORDER BY name LIMIT $2";

  static final String DELETE = "DELETE FROM namespaces WHERE name = $1";
}
