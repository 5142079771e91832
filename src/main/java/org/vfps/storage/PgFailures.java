package org.vfps.storage;

import io.vertx.core.VertxException;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.ClosedConnectionException;
import java.io.IOException;
import java.util.Map;
import java.util.Set;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/** Translates pg client failures into {@link ServiceException}s: the one place for SQLSTATEs. */
final class PgFailures {

  static final String UNIQUE_VIOLATION = "23505";
  static final String FOREIGN_KEY_VIOLATION = "23503";
  static final String DEADLOCK_DETECTED = "40P01";
  static final String READ_ONLY_TRANSACTION = "25006";

  /** The messages of the pg client's and Vert.x's VertxExceptions about a lost connection. */
  private static final Set<String> CONNECTION_MESSAGES =
      Set.of(
          "Connection was closed",
          "Pending requests failed to be sent due to connection has been closed.",
          "Timeout waiting for connection",
          "Pool closed",
          "SSL handshake failed");

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

  /**
   * Whether the failure is about reaching PostgreSQL, an allow-list: connection exceptions and
   * server states that a later attempt may find gone. Anything else (a driver or vfps bug, a
   * rejected statement) is not, so that it is logged as an error instead of being retried.
   */
  static boolean isUnavailable(Throwable failure) {
    if (failure instanceof PgException pg) {
      String state = pg.getSqlState();
      // 08: connection exception; 57P01-57P03: shutting down, crashed or starting; 53300: too
      // many connections; 25006: a read-only transaction, as on a primary fenced off for a
      // failover
      return state != null
          && (state.startsWith("08")
              || state.startsWith("57P")
              || state.equals("53300")
              || state.equals(READ_ONLY_TRANSACTION));
    }
    // refused, reset, timed out, TLS failed, unknown host: the JDK's and Netty's socket failures
    // (and the pool's stalled-attempt timeout) are IOExceptions
    if (failure instanceof IOException || failure instanceof ClosedConnectionException) {
      return true;
    }
    // the pool and the socket layer report these as plain VertxExceptions, told apart only by
    // their fixed messages; other VertxExceptions (a parameter count or type mismatch) are bugs
    if (!(failure instanceof VertxException)) {
      return false;
    }
    String message = String.valueOf(failure.getMessage());
    // a statement sent on a connection that closed meanwhile: "..., current status: CLOSED"
    return CONNECTION_MESSAGES.contains(message)
        || message.startsWith("Connection is not active now, current status: ");
  }
}
