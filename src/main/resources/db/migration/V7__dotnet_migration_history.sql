-- The hand-back: EF Core's migration history as the .NET vfps 1.22.3 would have written it, so
-- that this database starts under that service without it migrating anything. Once V5 and V6 ran,
-- the database holds the objects of all 18 of its migrations (both EF contexts share this table),
-- so all 18 are listed; rows the .NET service wrote itself (a database it made, e.g. one of 1.10
-- with the first nine) are left as they are.
--
-- The table as EF Core creates it, with the naming-convention plugin's snake_case columns. The
-- primary key's name is inferred, not read from a .NET database: the plugin's snake case of EF's
-- PK___EFMigrationsHistory.
CREATE TABLE IF NOT EXISTS "__EFMigrationsHistory" (
    migration_id character varying(150) NOT NULL,
    product_version character varying(32) NOT NULL,
    CONSTRAINT pk___ef_migrations_history PRIMARY KEY (migration_id)
);

-- product_version holds the EF Core version that applied a migration; 10.0.0 is the major
-- version the .NET service 1.22 runs on.
INSERT INTO "__EFMigrationsHistory" (migration_id, product_version) VALUES
    ('20221207170557_InitialCreate', '10.0.0'),
    ('20260708162100_AddPseudonymCreatedAtOriginalValueIndex', '10.0.0'),
    ('20260708162101_AddPseudonymNamespaceValueIndex', '10.0.0'),
    ('20260709063027_CreatePseudonymizationJobsTable', '10.0.0'),
    ('20260711085708_InitialCreate', '10.0.0'),
    ('20260712235525_AddPseudonymizationJobDirection', '10.0.0'),
    ('20260721224124_AddBadDataRowCountToPseudonymizationJobs', '10.0.0'),
    ('20260722172339_AddOriginalFileNameToPseudonymizationJobs', '10.0.0'),
    ('20260803221001_AddMissingValueCountToPseudonymizationJobs', '10.0.0'),
    ('20260825190634_AddOriginalValueValidationRegexToNamespaces', '10.0.0'),
    ('20260826124015_AddSequenceNumberToPseudonyms', '10.0.0'),
    ('20260908191615_AddParentToNamespaces', '10.0.0'),
    ('20260908221433_AddMetricSnapshots', '10.0.0'),
    ('20260909080810_AddNamespaceAccessGrants', '10.0.0'),
    ('20260910133817_ReplaceMetricSnapshotsWithPseudonymCounts', '10.0.0'),
    ('20260915134801_MakePseudonymizationJobInputObjectKeyNullable', '10.0.0'),
    ('20260918142406_AddPseudonymizeModeAndUnresolvedValueCount', '10.0.0'),
    ('20260919104634_AddServiceAccountsAndAccessTokens', '10.0.0')
ON CONFLICT DO NOTHING;
