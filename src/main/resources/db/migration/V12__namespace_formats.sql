-- The pseudonym format of each namespace of the alphabet method (pseudonym_generation_method 1000,
-- an extension of this service): the alphabet, the check digit (0 none, 1 Luhn mod N, 2 Damm,
-- 3 Verhoeff), the characters per group (0 none) and the group delimiter. A table of our own, so
-- that namespaces keeps the .NET service's columns and is not locked to add one; a row goes with
-- its namespace. Creating the foreign key locks namespaces in SHARE ROW EXCLUSIVE mode for a
-- moment, which lets pseudonyms be written meanwhile.
CREATE TABLE IF NOT EXISTS vfps_namespace_formats (
    namespace_name text NOT NULL,
    alphabet text NOT NULL,
    check_digit integer NOT NULL,
    group_size integer NOT NULL,
    group_delimiter text NOT NULL,
    CONSTRAINT pk_vfps_namespace_formats PRIMARY KEY (namespace_name),
    CONSTRAINT fk_vfps_namespace_formats_namespaces_namespace_name FOREIGN KEY (namespace_name)
        REFERENCES namespaces (name) ON DELETE CASCADE
);

-- Every namespace read joins this table, so a service role that was granted the data privileges
-- only (docs/deployment/production.md) would fail to read namespaces after this upgrade: the roles
-- that may insert namespaces get what the table needs.
DO $$
DECLARE
    role_name text;
BEGIN
    FOR role_name IN
        SELECT DISTINCT grantee FROM information_schema.role_table_grants
        WHERE table_schema = current_schema() AND table_name = 'namespaces'
          AND privilege_type = 'INSERT' AND grantee <> current_user
    LOOP
        EXECUTE format('GRANT SELECT, INSERT ON vfps_namespace_formats TO %I', role_name);
    END LOOP;
END
$$;
