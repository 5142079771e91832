package org.vfps.storage;

/** The SQL of the keys the replicas share through the database ({@link Database}). */
final class SecretQueries {

  private SecretQueries() {}

  /** Stores a candidate key under a name unless one is there: the first replica's wins. */
  static final String INSERT_IF_ABSENT =
      """
      INSERT INTO vfps_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING""";

  static final String FIND = "SELECT value FROM vfps_secrets WHERE name = $1";
}
