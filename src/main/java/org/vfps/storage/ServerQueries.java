package org.vfps.storage;

/** The SQL that asks about the PostgreSQL server itself rather than about vfps's data. */
final class ServerQueries {

  private ServerQueries() {}

  /** A trivial statement: the server answers it when it is up and takes statements. */
  static final String PING = "SELECT 1";

  /** {@code on} on a standby or a primary fenced off for a failover, {@code off} otherwise. */
  static final String TRANSACTION_READ_ONLY = "SHOW transaction_read_only";
}
