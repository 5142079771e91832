-- Sealed originals (docs/sealed-originals.md). A sealed row keeps in original_value the blind
-- index of its value (a keyed hash) and in x_sealed_original_value the value itself, encrypted
-- under a data key of the key file; a plain row leaves the column NULL. A nullable column without
-- a default is a change of the catalog alone, but adding it takes pseudonyms' ACCESS EXCLUSIVE
-- lock for a moment: each attempt waits at most lock_timeout, with pauses that hold no lock, as
-- migration 5 takes namespaces'. The .NET service names its columns and leaves this one NULL.
SET LOCAL lock_timeout = '200ms';

DO $$
DECLARE
    started timestamp with time zone := clock_timestamp();
    pause double precision := 0.1;
BEGIN
    LOOP
        BEGIN
            LOCK TABLE pseudonyms IN ACCESS EXCLUSIVE MODE;
            RETURN;
        EXCEPTION WHEN lock_not_available THEN
            IF clock_timestamp() - started > interval '5 minutes' THEN
                RAISE EXCEPTION 'vfps: pseudonyms stayed locked for 5 minutes; retry later';
            END IF;
        END;
        PERFORM pg_sleep(pause * (0.5 + random()));
        pause := least(pause * 2, 2.0);
    END LOOP;
END
$$;

ALTER TABLE pseudonyms ADD COLUMN IF NOT EXISTS x_sealed_original_value bytea NULL;

-- The namespaces whose rows are sealed, or being sealed or unsealed; a namespace without a row is
-- plain. writes_sealed: new rows are written sealed; reads_plain: rows may be plain as well as
-- sealed, so a value is looked for in both forms (while the sealing commands turn rows from one
-- form into the other); index_key_check: the check value of the index key the namespace's new
-- rows are indexed under (an HMAC of a fixed label, not the key), so that a replica given another
-- key file refuses the namespace rather than write keys of another index beside them;
-- other_index_key_check: while the namespace is moved to another index key, the other one, under
-- which a value is looked for too. A row goes with its namespace.
CREATE TABLE IF NOT EXISTS vfps_namespace_sealing (
    namespace_name text NOT NULL,
    writes_sealed boolean NOT NULL,
    reads_plain boolean NOT NULL,
    index_key_check bytea NOT NULL,
    other_index_key_check bytea NULL,
    changed_at timestamp with time zone NOT NULL DEFAULT now(),
    CONSTRAINT pk_vfps_namespace_sealing PRIMARY KEY (namespace_name),
    CONSTRAINT fk_vfps_namespace_sealing_namespaces_namespace_name FOREIGN KEY (namespace_name)
        REFERENCES namespaces (name) ON DELETE CASCADE
);

-- As for vfps_namespace_formats (migration 12): the roles that may insert namespaces may read and
-- change this table, which a namespace's creation and the sealing commands write.
DO $$
DECLARE
    role_name text;
BEGIN
    FOR role_name IN
        SELECT DISTINCT grantee FROM information_schema.role_table_grants
        WHERE table_schema = current_schema() AND table_name = 'namespaces'
          AND privilege_type = 'INSERT' AND grantee <> current_user
    LOOP
        EXECUTE format(
            'GRANT SELECT, INSERT, UPDATE, DELETE ON vfps_namespace_sealing TO %I', role_name);
    END LOOP;
END
$$;
