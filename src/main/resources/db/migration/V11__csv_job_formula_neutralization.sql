-- Whether a CSV job neutralizes the cells of its output that a spreadsheet would run as a formula
-- (CreateCsvJob's x_neutralize_formulas), and how many cells it has neutralized. A job created
-- before this version wrote its cells as they were, and a resumed one goes on doing so, so that
-- its output is the same file an uninterrupted run writes.
ALTER TABLE vfps_csv_job_runs
    ADD COLUMN IF NOT EXISTS neutralize_formulas boolean NOT NULL DEFAULT false,
    ADD COLUMN IF NOT EXISTS neutralized_cells bigint NOT NULL DEFAULT 0;
