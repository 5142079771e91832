-- The .NET vfps 1.22's single-row upsert (reference 1.22 §1.3) for an original value that exists already.
\set k random(0, 999)
WITH inserted AS (
  INSERT INTO pseudonyms (namespace_name, original_value, pseudonym_value, sequence_number, created_at, last_updated_at)
  VALUES ('pgbench', 'known-' || :k, md5(random()::text), 0, now(), now())
  ON CONFLICT (namespace_name, original_value, sequence_number) DO NOTHING
  RETURNING *
)
SELECT * FROM inserted
UNION
SELECT * FROM pseudonyms WHERE namespace_name = 'pgbench' AND original_value = 'known-' || :k;
