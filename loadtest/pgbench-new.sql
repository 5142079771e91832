-- The .NET vfps 1.22's single-row upsert (reference 1.22 §1.3) for a new original value each time.
\set r random(1, 2000000000)
WITH inserted AS (
  INSERT INTO pseudonyms (namespace_name, original_value, pseudonym_value, sequence_number, created_at, last_updated_at)
  VALUES ('pgbench', 'new-' || :client_id || '-' || :r, md5(random()::text), 0, now(), now())
  ON CONFLICT (namespace_name, original_value, sequence_number) DO NOTHING
  RETURNING *
)
SELECT * FROM inserted
UNION
SELECT * FROM pseudonyms WHERE namespace_name = 'pgbench' AND original_value = 'new-' || :client_id || '-' || :r;
