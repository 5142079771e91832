package org.vfps.storage;

/** The SQL of the admin UI's signed-out sessions ({@link PgEndedSessions}). */
final class SessionQueries {

  private SessionQueries() {}

  /** Records an ended session ($1, kept until $2) and prunes those kept until before $3. */
  static final String END =
      """
      WITH pruned AS (DELETE FROM vfps_ended_ui_sessions WHERE kept_until < $3)
      INSERT INTO vfps_ended_ui_sessions (session_id, kept_until) VALUES ($1, $2)
      ON CONFLICT (session_id) DO NOTHING""";

  static final String ENDED = "SELECT 1 FROM vfps_ended_ui_sessions WHERE session_id = $1";
}
