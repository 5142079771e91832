-- How many cells of a de-pseudonymize job were kept as they were because their namespace's check
-- digit refuses them (CsvJob's x_mistyped_pseudonym_count): mistyped pseudonyms, which an unknown
-- pseudonym is not. A job created before this version counts from here on; a checkpoint written
-- before it resumes from 0.
ALTER TABLE vfps_csv_job_runs
    ADD COLUMN IF NOT EXISTS mistyped_pseudonyms bigint NOT NULL DEFAULT 0;
