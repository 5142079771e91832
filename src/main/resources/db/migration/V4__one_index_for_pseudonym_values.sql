-- The .NET service's reverse-lookup index and V2's unique index cover the same columns in the same
-- order, so every new pseudonym was written into both. The unique one stays, under the .NET
-- service's name: the schema keeps that service's names, serves the same lookups, and each insert
-- updates one index fewer. Renaming rebuilds nothing; dropping takes the table's lock briefly.
DROP INDEX IF EXISTS ix_pseudonyms_namespace_name_pseudonym_value;
ALTER INDEX ux_pseudonyms_namespace_name_pseudonym_value
    RENAME TO ix_pseudonyms_namespace_name_pseudonym_value;
