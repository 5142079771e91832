-- What vfps keeps beside the .NET vfps's pseudonymization_jobs rows so that a CSV job can run on
-- any replica and resume where it stopped. Tables of our own: the .NET service ignores them, and a
-- job row it deletes takes its rows here with it.

-- One row per job created by vfps: who created it (the caller whose permissions the job runs
-- with), which worker holds it and when that worker last said it was alive, and the checkpoint a
-- worker resumes from (input offset, the output's multipart upload and its parts, the counters).
CREATE TABLE IF NOT EXISTS vfps_csv_job_runs (
    job_id uuid NOT NULL,
    creator jsonb NOT NULL,
    worker text NULL,
    heartbeat_at timestamp with time zone NULL,
    attempt integer NOT NULL DEFAULT 0,
    checkpoint jsonb NULL,
    CONSTRAINT pk_vfps_csv_job_runs PRIMARY KEY (job_id),
    CONSTRAINT fk_vfps_csv_job_runs_pseudonymization_jobs_job_id FOREIGN KEY (job_id)
        REFERENCES pseudonymization_jobs (id) ON DELETE CASCADE
);

-- The output of the chunks processed since the last part of the output was uploaded: at most one
-- part's worth per running job, written in the transaction that moves the job's checkpoint.
CREATE TABLE IF NOT EXISTS vfps_csv_job_pending_output (
    job_id uuid NOT NULL,
    chunk bigint NOT NULL,
    content bytea NOT NULL,
    CONSTRAINT pk_vfps_csv_job_pending_output PRIMARY KEY (job_id, chunk),
    CONSTRAINT fk_vfps_csv_job_pending_output_vfps_csv_job_runs_job_id FOREIGN KEY (job_id)
        REFERENCES vfps_csv_job_runs (job_id) ON DELETE CASCADE
);
