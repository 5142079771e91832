-- The batch upsert of vfps (PseudonymQueries.UPSERT_BATCH) for :batch new original values, as
-- loadtest/batch-benchmark.sh runs it alone: the same statement, its input rows made by PostgreSQL
-- instead of bound as three arrays, random as the benchmark's own (UUIDs for the original values,
-- 32 random characters for the pseudonyms), so that the B-trees see the same scattered inserts.
WITH input (namespace_name, original_value, pseudonym_value) AS (
  SELECT 'bench', gen_random_uuid()::text, md5(random()::text)
  FROM generate_series(1, :batch) i
),
inserted AS (
  INSERT INTO pseudonyms
    (namespace_name, original_value, sequence_number, pseudonym_value, created_at, last_updated_at)
  SELECT namespace_name, original_value, 0, pseudonym_value, now(), now() FROM input
  ON CONFLICT (namespace_name, original_value, sequence_number) DO NOTHING
  RETURNING namespace_name, original_value, pseudonym_value, created_at, last_updated_at
)
SELECT namespace_name, original_value, pseudonym_value, created_at, last_updated_at, true AS inserted
FROM inserted
UNION ALL
SELECT p.namespace_name, p.original_value, p.pseudonym_value, p.created_at, p.last_updated_at, false
FROM pseudonyms p
JOIN input i
  ON p.namespace_name = i.namespace_name AND p.original_value = i.original_value
    AND p.sequence_number = 0
WHERE NOT EXISTS (
  SELECT FROM inserted n
  WHERE n.namespace_name = i.namespace_name AND n.original_value = i.original_value
);
