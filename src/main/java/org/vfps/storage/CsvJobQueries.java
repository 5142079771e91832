package org.vfps.storage;

/** The SQL of CSV jobs, on the .NET vfps's {@code pseudonymization_jobs} and our run tables. */
final class CsvJobQueries {

  private CsvJobQueries() {}

  /**
   * A job's columns, and those of its run row (null for a job the .NET vfps created, which has
   * none); after {@code FROM} or {@code UPDATE pseudonymization_jobs} without an alias.
   */
  private static final String COLUMNS =
      """
      id, status, created_by, input_object_key, output_object_key, encoding, delimiter,
      has_header_row, column_mappings, total_bytes, bytes_processed, rows_processed,
      error_message, created_at, last_updated_at, direction, bad_data_row_count,
      original_file_name, missing_value_count, pseudonymize_mode, unresolved_value_count,
      (SELECT r.neutralize_formulas FROM vfps_csv_job_runs r
       WHERE r.job_id = pseudonymization_jobs.id) AS neutralize_formulas,
      (SELECT r.neutralized_cells FROM vfps_csv_job_runs r
       WHERE r.job_id = pseudonymization_jobs.id) AS neutralized_cells,
      (SELECT r.mistyped_pseudonyms FROM vfps_csv_job_runs r
       WHERE r.job_id = pseudonymization_jobs.id) AS mistyped_pseudonyms""";

  static final String INSERT =
      """
      INSERT INTO pseudonymization_jobs
        (id, status, created_by, input_object_key, output_object_key, encoding, delimiter,
         has_header_row, column_mappings, total_bytes, bytes_processed, rows_processed,
         error_message, hangfire_job_id, created_at, last_updated_at, direction,
         bad_data_row_count, original_file_name, missing_value_count, pseudonymize_mode,
         unresolved_value_count)
      VALUES ($1, $2, $3, $4, NULL, 'utf-8', $5, $6, $7::jsonb, 0, 0, 0, NULL, NULL, $8, $8, $9,
        0, $10, 0, $11, 0)""";

  static final String INSERT_RUN =
      "INSERT INTO vfps_csv_job_runs (job_id, creator, neutralize_formulas)"
          + " VALUES ($1, $2::jsonb, $3)";

  static final String FIND = "SELECT " + COLUMNS + " FROM pseudonymization_jobs WHERE id = $1";

  static final String LIST_ALL =
      "SELECT " + COLUMNS + " FROM pseudonymization_jobs ORDER BY created_at DESC, id LIMIT $1";

  /**
   * The issuer ({@code CallerId.Issuer}'s name) of a job's creator, with its run row {@code r}
   * joined: the one stored with the creator; for a creator stored before creators named theirs,
   * derived from its credential (as {@code Creators} does); for a job of the .NET vfps, which has
   * no run row and a {@code sub} in {@code created_by}, the provider's.
   */
  private static final String CREATOR_ISSUER =
      """
      CASE
        WHEN r.job_id IS NULL THEN 'PROVIDER_SUB'
        WHEN r.creator ->> 'issuer' IS NOT NULL THEN r.creator ->> 'issuer'
        WHEN r.creator ->> 'serviceAccount' IS NOT NULL THEN 'SERVICE_ACCOUNT'
        WHEN r.creator ->> 'credential' = 'CLIENT_ACCOUNT' THEN 'CLIENT_ACCOUNT'
        WHEN r.creator ->> 'credential' = 'NONE' THEN 'NONE'
        ELSE 'PROVIDER_SUB'
      END""";

  /**
   * Jobs of the creator of subject {@code $1} and issuer {@code $2}; the job table keeps its name,
   * which {@link #COLUMNS} refers to.
   */
  private static final String OF_CREATOR =
      " FROM pseudonymization_jobs LEFT JOIN vfps_csv_job_runs r"
          + " ON r.job_id = pseudonymization_jobs.id"
          + " WHERE pseudonymization_jobs.created_by = $1 AND "
          + CREATOR_ISSUER
          + " = $2";

  /** Job {@code $3}, if its creator is the one of subject {@code $1} and issuer {@code $2}. */
  static final String FIND_OF_CREATOR =
      "SELECT " + COLUMNS + OF_CREATOR + " AND pseudonymization_jobs.id = $3";

  static final String LIST_OF_CREATOR =
      "SELECT "
          + COLUMNS
          + OF_CREATOR
          + " ORDER BY pseudonymization_jobs.created_at DESC, pseudonymization_jobs.id LIMIT $3";

  /** AwaitingUpload (0) to Queued (1), with the file's size. */
  static final String QUEUE =
      "UPDATE pseudonymization_jobs SET status = 1, total_bytes = $2, last_updated_at = now()"
          + " WHERE id = $1 AND status = 0 RETURNING "
          + COLUMNS;

  /** AwaitingUpload (0) to Failed (4). */
  static final String FAIL_AWAITING =
      "UPDATE pseudonymization_jobs SET status = 4, error_message = $2, last_updated_at = now()"
          + " WHERE id = $1 AND status = 0 RETURNING "
          + COLUMNS;

  /** Any status but Completed (3), Failed (4) and Cancelled (5) to Cancelled. */
  static final String CANCEL =
      "UPDATE pseudonymization_jobs SET status = 5, last_updated_at = now()"
          + " WHERE id = $1 AND status NOT IN (3, 4, 5) RETURNING "
          + COLUMNS;

  /**
   * Claims the oldest queued job (1), or running (2) or stalled (6) one without a heartbeat for
   * {@code $2} seconds, for worker {@code $1}; the row lock with SKIP LOCKED keeps two workers off
   * one job. Only jobs vfps created have a run row.
   */
  static final String CLAIM =
      """
      UPDATE vfps_csv_job_runs r
      SET worker = $1, heartbeat_at = now(), attempt = r.attempt + 1
      WHERE r.job_id = (
        SELECT c.job_id FROM vfps_csv_job_runs c
        JOIN pseudonymization_jobs j ON j.id = c.job_id
        WHERE j.status = 1
           OR (j.status IN (2, 6)
               AND (c.heartbeat_at IS NULL OR c.heartbeat_at < now() - make_interval(secs => $2)))
        ORDER BY j.created_at, j.id
        LIMIT 1
        FOR UPDATE OF c SKIP LOCKED)
      RETURNING r.job_id, r.creator::text, r.attempt, r.checkpoint::text""";

  static final String MARK_RUNNING =
      "UPDATE pseudonymization_jobs SET status = 2, last_updated_at = now()"
          + " WHERE id = $1 AND status IN (1, 2, 6) RETURNING "
          + COLUMNS;

  static final String PENDING_OUTPUT =
      "SELECT content FROM vfps_csv_job_pending_output WHERE job_id = $1 ORDER BY chunk";

  static final String HEARTBEAT =
      "UPDATE vfps_csv_job_runs SET heartbeat_at = now() WHERE worker = $1 AND job_id = ANY($2)";

  /** The checkpoint of a job the worker holds and that runs (2) or stalls (6). */
  static final String MOVE_CHECKPOINT =
      """
      UPDATE vfps_csv_job_runs r SET checkpoint = $3::jsonb, heartbeat_at = now()
      FROM pseudonymization_jobs j
      WHERE r.job_id = $1 AND r.worker = $2 AND j.id = r.job_id AND j.status IN (2, 6)""";

  static final String ADD_PENDING =
      "INSERT INTO vfps_csv_job_pending_output (job_id, chunk, content) VALUES ($1, $2, $3)"
          + " ON CONFLICT (job_id, chunk) DO UPDATE SET content = excluded.content";

  static final String DROP_PENDING = "DELETE FROM vfps_csv_job_pending_output WHERE job_id = $1";

  static final String PUBLISH_COUNTERS =
      """
      UPDATE pseudonymization_jobs
      SET bytes_processed = $2, rows_processed = $3, bad_data_row_count = $4,
        missing_value_count = $5, unresolved_value_count = $6, status = 2, last_updated_at = now()
      WHERE id = $1 AND status IN (2, 6)""";

  /** The counters of ours, beside {@link #PUBLISH_COUNTERS} and {@link #FINISH}. */
  static final String PUBLISH_RUN_COUNTERS =
      "UPDATE vfps_csv_job_runs SET neutralized_cells = $2, mistyped_pseudonyms = $3"
          + " WHERE job_id = $1";

  /** Ends a job the worker holds: Completed (3) or Failed (4). */
  static final String FINISH =
      """
      UPDATE pseudonymization_jobs j
      SET status = $3, bytes_processed = $4, rows_processed = $5, bad_data_row_count = $6,
        missing_value_count = $7, unresolved_value_count = $8, output_object_key = $9,
        error_message = $10, last_updated_at = now()
      FROM vfps_csv_job_runs r
      WHERE j.id = $1 AND r.job_id = j.id AND r.worker = $2 AND j.status IN (2, 6)""";

  static final String RELEASE =
      "UPDATE vfps_csv_job_runs SET worker = NULL, heartbeat_at = NULL"
          + " WHERE job_id = $1 AND worker = $2";

  /**
   * AwaitingUpload (0) to Failed (4) with the message {@code $2}, for jobs created more than {@code
   * $1} seconds ago.
   */
  static final String EXPIRE_ABANDONED =
      "UPDATE pseudonymization_jobs SET status = 4, error_message = $2, last_updated_at = now()"
          + " WHERE status = 0 AND created_at < now() - make_interval(secs => $1)";

  /** Running (2) to Stalled (6) without progress for {@code $1} seconds. */
  static final String MARK_STALLED =
      "UPDATE pseudonymization_jobs SET status = 6"
          + " WHERE status = 2 AND last_updated_at < now() - make_interval(secs => $1)";
}
