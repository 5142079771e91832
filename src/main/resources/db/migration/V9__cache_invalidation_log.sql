-- The changes every replica must apply to its caches, in the order they were committed: a
-- namespace deleted, pseudonyms withdrawn, grants or tokens changed. The transaction that makes
-- such a change appends its entry last, taking the next generation from vfps_cache_generation,
-- whose one row it holds locked until it commits: generations grow in commit order, without gaps.
-- Every replica reads the entries after the last generation it applied, twice a second, so that a
-- change reaches it even when the cluster's event bus did not deliver it. Tables of our own: the
-- .NET service ignores them.
CREATE TABLE IF NOT EXISTS vfps_cache_generation (
    id boolean NOT NULL DEFAULT true,
    generation bigint NOT NULL,
    CONSTRAINT pk_vfps_cache_generation PRIMARY KEY (id),
    CONSTRAINT ck_vfps_cache_generation_one_row CHECK (id)
);

INSERT INTO vfps_cache_generation (id, generation) VALUES (true, 0) ON CONFLICT DO NOTHING;

-- kind: 'namespace' (namespace_name deleted: its pseudonyms and grants with it), 'pseudonyms'
-- (pseudonym_values of namespace_name withdrawn) or 'access' (grants, service accounts or tokens
-- changed). Pseudonyms only, never an original value. Entries older than an hour are pruned by
-- the next change.
CREATE TABLE IF NOT EXISTS vfps_cache_invalidations (
    generation bigint NOT NULL,
    kind text NOT NULL,
    namespace_name text NULL,
    pseudonym_values text[] NULL,
    created_at timestamp with time zone NOT NULL DEFAULT now(),
    CONSTRAINT pk_vfps_cache_invalidations PRIMARY KEY (generation)
);
