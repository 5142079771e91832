-- vfps keeps pseudonyms unique within a namespace (the .NET service does not). A database adopted
-- from the .NET service could hold duplicates; stop with a clear message instead of losing rows.
DO $$
DECLARE
    duplicates bigint;
BEGIN
    SELECT count(*) INTO duplicates FROM (
        SELECT 1 FROM pseudonyms
        GROUP BY namespace_name, pseudonym_value
        HAVING count(*) > 1
    ) AS shared;
    IF duplicates > 0 THEN
        RAISE EXCEPTION 'vfps: % pseudonym values are shared by more than one original value in their namespace; resolve them before migrating (SELECT namespace_name, pseudonym_value FROM pseudonyms GROUP BY 1, 2 HAVING count(*) > 1)', duplicates;
    END IF;
END
$$;

CREATE UNIQUE INDEX IF NOT EXISTS ux_pseudonyms_namespace_name_pseudonym_value
    ON pseudonyms (namespace_name, pseudonym_value);
