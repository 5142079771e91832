-- The schema of the .NET vfps (tables, columns, constraint and index names), so that a database it
-- created is adopted in place: every statement leaves existing objects as they are.

CREATE TABLE IF NOT EXISTS namespaces (
    name text NOT NULL,
    description text NULL,
    pseudonym_generation_method integer NOT NULL,
    pseudonym_length bigint NOT NULL,
    pseudonym_prefix text NULL,
    pseudonym_suffix text NULL,
    created_at timestamp with time zone NOT NULL,
    last_updated_at timestamp with time zone NOT NULL,
    CONSTRAINT pk_namespaces PRIMARY KEY (name)
);

CREATE TABLE IF NOT EXISTS pseudonyms (
    original_value text NOT NULL,
    namespace_name text NOT NULL,
    pseudonym_value text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    last_updated_at timestamp with time zone NOT NULL,
    CONSTRAINT pk_pseudonyms PRIMARY KEY (namespace_name, original_value),
    CONSTRAINT fk_pseudonyms_namespaces_namespace_name FOREIGN KEY (namespace_name)
        REFERENCES namespaces (name) ON DELETE CASCADE
);

-- keyset pagination of List: created_at DESC, original_value DESC within a namespace
CREATE INDEX IF NOT EXISTS ix_pseudonyms_namespace_name_created_at_original_value
    ON pseudonyms (namespace_name, created_at, original_value);

-- reverse lookup (Get)
CREATE INDEX IF NOT EXISTS ix_pseudonyms_namespace_name_pseudonym_value
    ON pseudonyms (namespace_name, pseudonym_value);
