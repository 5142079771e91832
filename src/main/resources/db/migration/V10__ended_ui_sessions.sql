-- The admin UI's sessions that were signed out. A session travels in a sealed cookie, which any
-- replica opens without asking anyone; a signed-out session is refused on every replica because
-- each asks this table when the cookie authenticates a request. A row is kept until the session
-- would have ended anyway (a session lasts at most 12 hours after its sign-in, renewals included)
-- and pruned by the next sign-out after that. A table of our own: the .NET service ignores it.
CREATE TABLE IF NOT EXISTS vfps_ended_ui_sessions (
    session_id text NOT NULL,
    kept_until timestamp with time zone NOT NULL,
    CONSTRAINT pk_vfps_ended_ui_sessions PRIMARY KEY (session_id)
);

CREATE INDEX IF NOT EXISTS ix_vfps_ended_ui_sessions_kept_until
    ON vfps_ended_ui_sessions (kept_until);
