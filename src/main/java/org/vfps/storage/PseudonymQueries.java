package org.vfps.storage;

/** The SQL of {@link PgPseudonymRepository}. */
final class PseudonymQueries {

  private PseudonymQueries() {}

  /**
   * The head of a statement that stores rows only in the namespace named {@code $1} and created at
   * {@code createdAt} (a parameter), as the statement's snapshot has it: the CTE {@code namespace}
   * holds that namespace's name, or no row when it is gone, and the CTE {@code inserted} opens with
   * the insert's column list, for the caller's {@code SELECT} from {@code namespace} to complete.
   */
  private static String insertIntoBoundNamespace(String createdAt) {
    return """
        WITH namespace AS (
          SELECT name FROM namespaces WHERE name = $1 AND created_at = %s
        ),
        """
            .formatted(createdAt)
        + INSERT_INTO_PSEUDONYMS;
  }

  /** The CTE {@code inserted}, open after the insert's column list. */
  private static final String INSERT_INTO_PSEUDONYMS =
      """
      inserted AS (
        INSERT INTO pseudonyms
          (namespace_name, original_value, pseudonym_value, sequence_number, created_at,
           last_updated_at, x_sealed_original_value)
      """;

  /**
   * The head of a statement that stores rows of the namespace {@code $1}, created at {@code
   * createdAt}, only while it is being sealed or unsealed and new rows take the form the caller
   * read ({@code writesSealed}, under the index key of check {@code indexKeyCheck}): the CTE {@code
   * namespace} holds its name, or no row, and the CTE {@code inserted} opens as in {@link
   * #insertIntoBoundNamespace}. It locks the namespace's row of {@code vfps_namespace_sealing}
   * {@code FOR SHARE}, so that a command changing the form waits for the statement's commit, and a
   * statement that waited for the command's finds no row.
   */
  private static String insertIntoNamespaceInTransition(
      String createdAt, String writesSealed, String indexKeyCheck) {
    return """
        WITH namespace AS (
          SELECT n.name FROM namespaces n
          JOIN vfps_namespace_sealing s ON s.namespace_name = n.name
          WHERE n.name = $1 AND n.created_at = %s AND s.writes_sealed = %s
            AND s.index_key_check = %s
            AND (s.reads_plain OR s.other_index_key_check IS NOT NULL)
          FOR SHARE OF s
        ),
        """
            .formatted(createdAt, writesSealed, indexKeyCheck)
        + INSERT_INTO_PSEUDONYMS;
  }

  /**
   * A list page of the namespace {@code $1}, in the .NET service's order, along {@code
   * ix_pseudonyms_namespace_name_created_at_original_value_sequence_number}.
   *
   * @param after the condition on the key that starts the page, or an empty string for the first
   * @param limit the parameter of the page's size
   */
  private static String page(String after, String limit) {
    return """
        SELECT pseudonym_value, original_value, x_sealed_original_value, sequence_number,
          created_at, last_updated_at
        FROM pseudonyms
        WHERE namespace_name = $1%s
        ORDER BY created_at DESC, original_value DESC, sequence_number DESC
        LIMIT %s"""
        .formatted(after, limit);
  }

  /**
   * Inserts the candidate unless the pair exists and returns the stored row either way: the new row
   * from the insert, or the existing one from the select, which {@code inserted} tells apart (the
   * select's snapshot predates the insert, so never both). Under a concurrent insert of the same
   * pair, both halves can come back empty (the select's snapshot predates the other commit); the
   * caller then runs it again. The pseudonym of a pair is its row of sequence number 0: a namespace
   * of the .NET service may hold more for one original value (its {@code count}), numbered from 0.
   *
   * <p>The row is bound to the namespace the caller looked up: the one named {@code $1} and created
   * at {@code $4}, as this statement's snapshot has it. When that namespace is gone (deleted,
   * perhaps created again under its name) nothing is stored and one row of nulls comes back. A
   * delete after the snapshot makes the foreign key fail the insert; a namespace created under the
   * name after the snapshot cannot be, since its creation waits for the inserts in flight ({@link
   * NamespaceQueries#HOLD_PSEUDONYM_WRITES}).
   */
  static final String UPSERT =
      insertIntoBoundNamespace("$4")
          + """
            SELECT name, $2, $3, 0, now(), now(), $5 FROM namespace
        ON CONFLICT (namespace_name, original_value, sequence_number) DO NOTHING
        RETURNING pseudonym_value, created_at, last_updated_at
      )
      SELECT pseudonym_value, created_at, last_updated_at, true AS inserted FROM inserted
      UNION ALL
      SELECT pseudonym_value, created_at, last_updated_at, false FROM pseudonyms
      WHERE namespace_name = $1 AND original_value = $2 AND sequence_number = 0
        AND EXISTS (SELECT FROM namespace)
      UNION ALL
      SELECT NULL, NULL, NULL, NULL WHERE NOT EXISTS (SELECT FROM namespace)""";

  /**
   * {@link #UPSERT} in a namespace being sealed or unsealed, whose rows take both forms ({@link
   * StoredOriginals}): {@code $2} is the key of the form new rows take, {@code $5} the sealed value
   * (null for a plain row), {@code $6} the key of the other form (plain or sealed, or sealed under
   * the other index key), {@code $7} whether new rows are sealed and {@code $8} the check of the
   * index key they are indexed under. The pair is inserted only while no row of the other form
   * holds it, and either form's row is returned. The namespace's row of {@code
   * vfps_namespace_sealing} is locked {@code FOR SHARE}: a sealing command that changes the form
   * waits for this statement's commit, and a statement that waited for the command's sees the new
   * form, which no longer matches {@code $7} and {@code $8}: then nothing is stored, and the last
   * row says {@code stale}, for the caller to read the form again and retry.
   */
  static final String UPSERT_IN_TRANSITION =
      insertIntoNamespaceInTransition("$4", "$7", "$8")
          + """
        SELECT name, $2, $3, 0, now(), now(), $5 FROM namespace
        WHERE NOT EXISTS (
          SELECT FROM pseudonyms
          WHERE namespace_name = $1 AND original_value = $6 AND sequence_number = 0)
        ON CONFLICT (namespace_name, original_value, sequence_number) DO NOTHING
        RETURNING pseudonym_value, created_at, last_updated_at
      )
      SELECT pseudonym_value, created_at, last_updated_at, true AS inserted, false AS stale
      FROM inserted
      UNION ALL
      SELECT pseudonym_value, created_at, last_updated_at, false, false FROM pseudonyms
      WHERE namespace_name = $1 AND original_value IN ($2, $6) AND sequence_number = 0
        AND EXISTS (SELECT FROM namespace)
      UNION ALL
      SELECT NULL, NULL, NULL, NULL,
        EXISTS (SELECT FROM namespaces WHERE name = $1 AND created_at = $4)
      WHERE NOT EXISTS (SELECT FROM namespace)""";

  /**
   * The multi-row {@link #UPSERT}: one statement for a whole batch, whatever its size, with the
   * pairs and candidates as three parallel arrays (distinct pairs only), each pair bound to the
   * namespace its caller looked up: {@code $4} and {@code $5} name each namespace of the batch
   * once, with its time of creation. It returns the stored row of every pair, new or existing; a
   * pair that a concurrent insert hid from the select, or whose namespace is gone, is missing, and
   * the caller upserts it again on its own. Only the pairs the insert skipped are looked up:
   * probing the primary key for a pair this statement inserted finds its row, invisible to the
   * statement's snapshot, and costs PostgreSQL about a tenth of a new row's CPU for nothing.
   */
  static final String UPSERT_BATCH =
      """
      WITH bound (name) AS (
        SELECT n.name FROM namespaces n
        JOIN unnest($4::text[], $5::timestamptz[]) AS b (name, created_at)
          ON n.name = b.name AND n.created_at = b.created_at
      ),
      input AS (
        SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $6::bytea[])
          AS u (namespace_name, original_value, pseudonym_value, sealed)
        WHERE u.namespace_name IN (SELECT name FROM bound)
      ),
      inserted AS (
        INSERT INTO pseudonyms
          (namespace_name, original_value, sequence_number, pseudonym_value, created_at,
            last_updated_at, x_sealed_original_value)
        SELECT namespace_name, original_value, 0, pseudonym_value, now(), now(), sealed
        FROM input
        ON CONFLICT (namespace_name, original_value, sequence_number) DO NOTHING
        RETURNING namespace_name, original_value, pseudonym_value, created_at, last_updated_at
      )
      SELECT namespace_name, original_value, pseudonym_value, created_at, last_updated_at,
        true AS inserted
      FROM inserted
      UNION ALL
      SELECT p.namespace_name, p.original_value, p.pseudonym_value, p.created_at,
        p.last_updated_at, false
      FROM pseudonyms p
      JOIN input i
        ON p.namespace_name = i.namespace_name AND p.original_value = i.original_value
          AND p.sequence_number = 0
      WHERE NOT EXISTS (
        SELECT FROM inserted n
        WHERE n.namespace_name = i.namespace_name AND n.original_value = i.original_value
      )""";

  static final String FIND_BY_VALUE =
      """
      SELECT original_value, x_sealed_original_value, sequence_number, created_at,
        last_updated_at
      FROM pseudonyms
      WHERE namespace_name = $1 AND pseudonym_value = $2
      LIMIT 1""";

  /** The pseudonyms among the values of {@code $2}, a text array, with their original values. */
  static final String FIND_ALL_BY_VALUE =
      """
      SELECT pseudonym_value, original_value, x_sealed_original_value, sequence_number,
        created_at, last_updated_at
      FROM pseudonyms
      WHERE namespace_name = $1 AND pseudonym_value = ANY($2::text[])""";

  /**
   * A list page starts at the newest pseudonym: every pseudonym, whatever its sequence number, in
   * the order of {@link #page}.
   */
  static final String FIRST_PAGE = page("", "$2");

  /** The page after the row of {@code $2}, {@code $3}, {@code $4}. */
  static final String NEXT_PAGE =
      page(" AND (created_at, original_value, sequence_number) < ($2, $3, $4)", "$5");

  static final String COUNT = "SELECT count(*) FROM pseudonyms WHERE namespace_name = $1";

  static final String COUNT_BY_NAMESPACE =
      "SELECT namespace_name, count(*) FROM pseudonyms GROUP BY namespace_name";

  /**
   * The pseudonyms (of sequence number 0) of the original values of {@code $2}, a text array (the
   * forward lookup).
   */
  static final String FIND_ALL_BY_ORIGINAL =
      """
      SELECT original_value, pseudonym_value, sequence_number, created_at, last_updated_at
      FROM pseudonyms
      WHERE namespace_name = $1 AND original_value = ANY($2::text[]) AND sequence_number = 0""";

  /**
   * Every pseudonym of one original value, by sequence number: {@code $2} holds its keys (one, or
   * one of each form while the namespace holds both).
   */
  static final String FIND_ALL_OF_ORIGINAL =
      """
      SELECT pseudonym_value, sequence_number, created_at, last_updated_at FROM pseudonyms
      WHERE namespace_name = $1 AND original_value = ANY($2::text[])
      ORDER BY sequence_number""";

  /**
   * Stores new sequence numbers of one original value, {@code $3} the candidates and {@code $4}
   * their sequence numbers: a row that would break a key (the sequence number stored meanwhile, by
   * a concurrent call) or the uniqueness of pseudonym values (a candidate another value has) is
   * skipped, and the caller reads what is stored.
   */
  static final String INSERT_SEQUENCE_NUMBERS =
      insertIntoBoundNamespace("$5")
          + """
            SELECT n.name, $2, candidate.pseudonym_value, candidate.sequence_number, now(), now(),
          $6
        FROM unnest($3::text[], $4::bigint[]) AS candidate (pseudonym_value, sequence_number)
        CROSS JOIN namespace n
        ON CONFLICT DO NOTHING
      )
      SELECT EXISTS (SELECT FROM namespace) AS present""";

  /**
   * {@link #INSERT_SEQUENCE_NUMBERS} in a namespace being sealed or unsealed, guarded as {@link
   * #UPSERT_IN_TRANSITION} is: {@code $6} is the sealed value (null for plain rows), {@code $7} the
   * key of the other form, {@code $8} whether new rows are sealed and {@code $9} the check of the
   * index key they are indexed under. A candidate whose sequence number a row of the other form
   * holds is skipped, so that no sequence number of a value is stored in both forms. Nothing is
   * stored when the form changed since the caller read it: then {@code present} is false and {@code
   * stale} true, for the caller to read the form again.
   */
  static final String INSERT_SEQUENCE_NUMBERS_IN_TRANSITION =
      insertIntoNamespaceInTransition("$5", "$8", "$9")
          + """
        SELECT n.name, $2, candidate.pseudonym_value, candidate.sequence_number, now(), now(), $6
        FROM unnest($3::text[], $4::bigint[]) AS candidate (pseudonym_value, sequence_number)
        CROSS JOIN namespace n
        WHERE NOT EXISTS (
          SELECT FROM pseudonyms other
          WHERE other.namespace_name = $1 AND other.original_value = $7
            AND other.sequence_number = candidate.sequence_number)
        ON CONFLICT DO NOTHING
      )
      SELECT EXISTS (SELECT FROM namespace) AS present,
        NOT EXISTS (SELECT FROM namespace)
          AND EXISTS (SELECT FROM namespaces WHERE name = $1 AND created_at = $5) AS stale""";

  /** The values of {@code $2}, a text array, that are pseudonyms of the namespace. */
  static final String EXISTING_PSEUDONYM_VALUES =
      """
      SELECT pseudonym_value FROM pseudonyms
      WHERE namespace_name = $1 AND pseudonym_value = ANY($2::text[])""";

  /**
   * Deletes every pseudonym of the original values of {@code $2}, a text array, and returns them
   * with the original value each belonged to.
   */
  static final String DELETE_ORIGINALS =
      """
      DELETE FROM pseudonyms
      WHERE namespace_name = $1 AND original_value = ANY($2::text[])
      RETURNING original_value, pseudonym_value, sequence_number, created_at, last_updated_at""";

  /**
   * Replaces the original values of {@code $2} by the anonymized values of {@code $3} (parallel
   * text arrays) in every row of theirs, and returns those rows with the original value each had.
   */
  static final String ANONYMIZE_ORIGINALS =
      """
      UPDATE pseudonyms p
      SET original_value = w.anonymized, x_sealed_original_value = NULL, last_updated_at = now()
      FROM unnest($2::text[], $3::text[]) AS w (original_value, anonymized)
      WHERE p.namespace_name = $1 AND p.original_value = w.original_value
      RETURNING w.original_value, p.pseudonym_value, p.sequence_number, p.created_at,
        p.last_updated_at""";

  /**
   * The stored rows an import of pairs meets: those of the original values of {@code $2} and those
   * of the pseudonym values of {@code $3} (text arrays).
   */
  static final String IMPORT_EXISTING =
      """
      SELECT original_value, pseudonym_value, sequence_number FROM pseudonyms
      WHERE namespace_name = $1
        AND (original_value = ANY($2::text[]) OR pseudonym_value = ANY($3::text[]))""";

  /**
   * Stores imported pairs ({@code $2} original values, {@code $3} pseudonyms, {@code $4} sequence
   * numbers) in the namespace named {@code $1} and created at {@code $5}, skipping any that meets a
   * row stored meanwhile; returns the pairs stored, or one row of nulls when that namespace is
   * gone.
   */
  static final String IMPORT_PAIRS =
      insertIntoBoundNamespace("$5")
          + """
            SELECT n.name, pair.original_value, pair.pseudonym_value, pair.sequence_number, now(),
          now(), pair.sealed
        FROM unnest($2::text[], $3::text[], $4::bigint[], $6::bytea[])
          AS pair (original_value, pseudonym_value, sequence_number, sealed)
        CROSS JOIN namespace n
        ON CONFLICT DO NOTHING
        RETURNING original_value, pseudonym_value
      )
      SELECT original_value, pseudonym_value FROM inserted
      UNION ALL
      SELECT NULL, NULL WHERE NOT EXISTS (SELECT FROM namespace)""";
}
