package org.vfps.storage;

/** The SQL of {@link PgNamespaceRepository}. */
final class NamespaceQueries {

  private NamespaceQueries() {}

  static final String COLUMNS =
      """
      name, description, pseudonym_generation_method, pseudonym_length, pseudonym_prefix, \
      pseudonym_suffix, original_value_validation_regex, allows_multiple_pseudonyms, parent_name, \
      parent_validation_mode, created_at, last_updated_at""";

  /**
   * A namespace's row with its alphabet format's columns, NULL for a namespace without one: the
   * rows {@link NamespaceRows#toNamespace} reads.
   */
  private static final String SELECT =
      """
      SELECT n.name, n.description, n.pseudonym_generation_method, n.pseudonym_length, \
      n.pseudonym_prefix, n.pseudonym_suffix, n.original_value_validation_regex, \
      n.allows_multiple_pseudonyms, n.parent_name, n.parent_validation_mode, n.created_at, \
      n.last_updated_at, f.alphabet, f.check_digit, f.group_size, f.group_delimiter \
      FROM namespaces n LEFT JOIN vfps_namespace_formats f ON f.namespace_name = n.name""";

  static final String INSERT =
      "INSERT INTO namespaces ("
          + COLUMNS
          + ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)";

  static final String INSERT_IF_ABSENT = INSERT + " ON CONFLICT (name) DO NOTHING";

  /**
   * Seals the namespace just inserted in the same transaction: its rows are written sealed from the
   * first.
   */
  static final String INSERT_SEALED =
      "INSERT INTO vfps_namespace_sealing"
          + " (namespace_name, writes_sealed, reads_plain, index_key_check)"
          + " VALUES ($1, true, false, $2)";

  /** The alphabet format of the namespace just inserted in the same transaction. */
  static final String INSERT_FORMAT =
      """
      INSERT INTO vfps_namespace_formats \
      (namespace_name, alphabet, check_digit, group_size, group_delimiter) \
      VALUES ($1, $2, $3, $4, $5)""";

  static final String FIND = SELECT + " WHERE n.name = $1";

  static final String FIND_ANY = SELECT + " WHERE n.name = ANY($1::text[])";

  /** The namespaces after $1 in name order, at most $2 of them: keyset pages over the key. */
  static final String FIND_PAGE = SELECT + " WHERE n.name > $1 ORDER BY n.name LIMIT $2";

  /** The direct children of $1, in name order. */
  static final String FIND_CHILDREN = SELECT + " WHERE n.parent_name = $1 ORDER BY n.name";

  /**
   * Fails with a foreign key violation while children name $1 as their parent ({@code ON DELETE
   * RESTRICT}), so that no child can be added between a check and the delete.
   */
  static final String DELETE = "DELETE FROM namespaces WHERE name = $1";

  /**
   * Run first in the transaction that creates a namespace: waits for the inserts of pseudonyms in
   * flight and holds new ones back until the commit. An insert is bound to the namespace its caller
   * looked up by name and time of creation, as its snapshot shows them ({@link
   * PseudonymQueries#UPSERT}), and PostgreSQL takes an insert's table lock before its snapshot; so
   * a namespace created under a deleted one's name is either not there yet when an insert's foreign
   * key is checked, or there before its snapshot, and no insert meant for the deleted namespace
   * lands in it. {@code SHARE} mode lets reads go on; it needs the {@code UPDATE} or {@code DELETE}
   * privilege on {@code pseudonyms}, which withdrawals need anyway.
   */
  static final String HOLD_PSEUDONYM_WRITES = "LOCK TABLE pseudonyms IN SHARE MODE";

  /** The foreign key of {@code parent_name}, as the .NET vfps names it. */
  static final String PARENT_FOREIGN_KEY = "fk_namespaces_namespaces_parent_name";
}
