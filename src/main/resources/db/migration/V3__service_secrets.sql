-- Secrets every replica must share, such as the key that seals List page tokens. They live in the
-- database so that tokens stay valid across replicas and restarts.
CREATE TABLE IF NOT EXISTS vfps_secrets (
    name text NOT NULL,
    value bytea NOT NULL,
    created_at timestamp with time zone NOT NULL DEFAULT now(),
    CONSTRAINT pk_vfps_secrets PRIMARY KEY (name)
);
