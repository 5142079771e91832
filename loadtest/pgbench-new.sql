-- The .NET vfps's single-row upsert (reference §2.4) for a new original value each time.
\set r random(1, 2000000000)
WITH inserted AS (
  INSERT INTO pseudonyms (namespace_name, original_value, pseudonym_value, created_at, last_updated_at)
  VALUES ('pgbench', 'new-' || :client_id || '-' || :r, md5(random()::text), now(), now())
  ON CONFLICT (namespace_name, original_value) DO NOTHING
  RETURNING *
)
SELECT * FROM inserted
UNION
SELECT * FROM pseudonyms WHERE namespace_name = 'pgbench' AND original_value = 'new-' || :client_id || '-' || :r;
