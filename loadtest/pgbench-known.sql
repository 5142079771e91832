-- The .NET vfps's single-row upsert (reference §2.4) for an original value that exists already.
\set k random(0, 999)
WITH inserted AS (
  INSERT INTO pseudonyms (namespace_name, original_value, pseudonym_value, created_at, last_updated_at)
  VALUES ('pgbench', 'known-' || :k, md5(random()::text), now(), now())
  ON CONFLICT (namespace_name, original_value) DO NOTHING
  RETURNING *
)
SELECT * FROM inserted
UNION
SELECT * FROM pseudonyms WHERE namespace_name = 'pgbench' AND original_value = 'known-' || :k;
