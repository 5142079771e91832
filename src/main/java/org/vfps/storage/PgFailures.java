package org.vfps.storage;

import io.vertx.pgclient.PgException;
import java.util.Map;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/** Translates pg client failures into {@link ServiceException}s: the one place for SQLSTATEs. */
final class PgFailures {

  static final String UNIQUE_VIOLATION = "23505";
  static final String FOREIGN_KEY_VIOLATION = "23503";
  static final String DEADLOCK_DETECTED = "40P01";

  private PgFailures() {}

  /** Whether the failure is the database rejecting a row for the named constraint. */
  static boolean violates(Throwable failure, String sqlState, String constraint) {
    return failure instanceof PgException pg
        && sqlState.equals(pg.getSqlState())
        && (constraint == null || constraint.equals(pg.getConstraint()));
  }

  /** Whether the database refused the rows (a constraint), as opposed to failing to run. */
  static boolean isRejection(Throwable failure) {
    return failure instanceof PgException pg
        && pg.getSqlState() != null
        && pg.getSqlState().startsWith("23");
  }

  /**
   * The service failure for a failed statement: {@code UNAVAILABLE} when the database cannot be
   * reached or is shutting down, {@code INTERNAL} (keeping the cause for the log) otherwise.
   */
  static ServiceException translate(Throwable failure, Map<String, String> metadata) {
    if (failure instanceof ServiceException service) {
      return service;
    }
    if (isUnavailable(failure)) {
      return new ServiceException(
          ErrorCode.UNAVAILABLE, "The database is not available.", metadata, loggable(failure));
    }
    return new ServiceException(
        ErrorCode.INTERNAL,
        "The database failed to process the request.",
        metadata,
        loggable(failure));
  }

  /**
   * What of a failure may reach the log. A server error's message or detail can quote the row it
   * rejected, original value included, so only its SQLSTATE and constraint are kept.
   */
  static Throwable loggable(Throwable failure) {
    if (failure instanceof PgException pg) {
      return new SanitizedDatabaseError(
          "PostgreSQL error "
              + pg.getSqlState()
              + (pg.getConstraint() == null ? "" : " on " + pg.getConstraint()));
    }
    return failure;
  }

  /** A database error with every value removed. */
  static final class SanitizedDatabaseError extends RuntimeException {
    SanitizedDatabaseError(String message) {
      super(message, null, false, true);
    }
  }

  private static boolean isUnavailable(Throwable failure) {
    if (failure instanceof PgException pg) {
      String state = pg.getSqlState();
      // 08: connection exception; 57P01-57P03: shutting down or starting; 53300: too many
      // connections
      return state != null
          && (state.startsWith("08") || state.startsWith("57P") || state.equals("53300"));
    }
    // everything else the client reports (closed connection, refused connect, pool timeout) is
    // about reaching the server; programming errors surface as these JDK types instead
    return !(failure instanceof IllegalArgumentException
        || failure instanceof IllegalStateException
        || failure instanceof ClassCastException
        || failure instanceof NullPointerException);
  }
}
