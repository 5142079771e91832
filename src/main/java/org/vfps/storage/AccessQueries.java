package org.vfps.storage;

/** The SQL of {@link PgAccessStore}, on the .NET vfps 1.22's tables and constraint names. */
final class AccessQueries {

  static final String GRANT_COLUMNS =
      "id, namespace_name, grantee_type, grantee, can_read, can_write, can_reverse_lookup,"
          + " created_at, last_updated_at";

  static final String TOKEN_COLUMNS =
      "id, token_type, token_id, token_hash, name, expires_at, revoked_at, last_used_at,"
          + " created_by, subject, username, email, roles, service_account_name, created_at,"
          + " last_updated_at";

  static final String GRANTS = "SELECT " + GRANT_COLUMNS + " FROM namespace_access_grants";

  static final String ALL_GRANTS = GRANTS + " ORDER BY created_at, id";

  static final String GRANTS_OF_NAMESPACE =
      GRANTS + " WHERE namespace_name = $1 ORDER BY created_at, id";

  static final String INSERT_GRANT =
      "INSERT INTO namespace_access_grants ("
          + GRANT_COLUMNS
          + ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)";

  static final String UPDATE_GRANT =
      "UPDATE namespace_access_grants SET can_read = $2, can_write = $3, can_reverse_lookup = $4,"
          + " last_updated_at = $5 WHERE id = $1 RETURNING "
          + GRANT_COLUMNS;

  static final String DELETE_GRANT =
      "DELETE FROM namespace_access_grants WHERE id = $1 RETURNING " + GRANT_COLUMNS;

  /** Both unique indexes: one grant per grantee and namespace, one per grantee for all. */
  static final String GLOBAL_GRANTEE_INDEX = "ix_namespace_access_grants_global_grantee";

  static final String NAMESPACE_GRANTEE_INDEX = "ix_namespace_access_grants_namespace_grantee";

  static final String GRANT_NAMESPACE_FOREIGN_KEY =
      "fk_namespace_access_grants_namespaces_namespace_name";

  static final String SERVICE_ACCOUNTS =
      "SELECT name, description, created_by, created_at, last_updated_at FROM service_accounts"
          + " ORDER BY name";

  static final String INSERT_SERVICE_ACCOUNT =
      "INSERT INTO service_accounts (name, description, created_by, created_at, last_updated_at)"
          + " VALUES ($1, $2, $3, $4, $5)";

  static final String SERVICE_ACCOUNT_KEY = "pk_service_accounts";

  /** The account's grants, as the .NET vfps deletes them: there is no foreign key. */
  static final String DELETE_SERVICE_ACCOUNT_GRANTS =
      "DELETE FROM namespace_access_grants WHERE grantee_type = $1 AND grantee = $2";

  /** Its tokens go by the foreign key's cascade. */
  static final String DELETE_SERVICE_ACCOUNT = "DELETE FROM service_accounts WHERE name = $1";

  static final String ACTIVE_TOKENS =
      "SELECT " + TOKEN_COLUMNS + " FROM access_tokens WHERE revoked_at IS NULL";

  static final String ALL_TOKENS =
      "SELECT " + TOKEN_COLUMNS + " FROM access_tokens ORDER BY created_at DESC, id";

  static final String TOKENS_OF_SUBJECT =
      "SELECT "
          + TOKEN_COLUMNS
          + " FROM access_tokens WHERE subject = $1 AND token_type = 0"
          + " ORDER BY created_at DESC, id";

  static final String TOKENS_OF_SERVICE_ACCOUNT =
      "SELECT "
          + TOKEN_COLUMNS
          + " FROM access_tokens WHERE service_account_name = $1 ORDER BY created_at DESC, id";

  static final String SERVICE_ACCOUNT_TOKENS =
      "SELECT "
          + TOKEN_COLUMNS
          + " FROM access_tokens WHERE service_account_name IS NOT NULL AND revoked_at IS NULL";

  static final String TOKEN = "SELECT " + TOKEN_COLUMNS + " FROM access_tokens WHERE id = $1";

  static final String INSERT_TOKEN =
      "INSERT INTO access_tokens ("
          + TOKEN_COLUMNS
          + ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)";

  static final String TOKEN_SERVICE_ACCOUNT_FOREIGN_KEY =
      "fk_access_tokens_service_accounts_service_account_name";

  /** As the .NET vfps revokes: once; the row stays. */
  static final String REVOKE_TOKEN =
      "UPDATE access_tokens SET revoked_at = $2, last_updated_at = $2"
          + " WHERE id = $1 AND revoked_at IS NULL";

  static final String DELETE_TOKEN = "DELETE FROM access_tokens WHERE id = $1";

  /** As the .NET vfps writes a use back: only a later one, {@code last_updated_at} untouched. */
  static final String RECORD_USE =
      "UPDATE access_tokens SET last_used_at = $2"
          + " WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2)";

  private AccessQueries() {}
}
