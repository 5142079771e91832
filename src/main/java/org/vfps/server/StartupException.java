package org.vfps.server;

import io.vertx.pgclient.PgException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.sql.SQLException;
import java.util.Set;

/** The service cannot start; the message says why in words meant for the operator. */
public final class StartupException extends RuntimeException {

  /**
   * The classes of SQL states, beside those a hint names, of refusals that PostgreSQL explains and
   * the operator mends: {@code 08} (connection), {@code 28} (authorization), {@code 3D} (no such
   * database), {@code 53} (resources) and {@code 57} (operator intervention).
   */
  private static final Set<String> REFUSAL_CLASSES = Set.of("08", "28", "3D", "53", "57");

  /** No such table ({@code 42P01}) or schema ({@code 3F000}): the schema is not migrated. */
  private static final Set<String> MISSING_STATES = Set.of("42P01", "3F000");

  private static final String INSUFFICIENT_PRIVILEGE = "42501";

  public StartupException(String message, Throwable cause) {
    super(message, cause);
  }

  /**
   * The database refused what the start needs: {@code failed} says what, the message adds the
   * database's words and, where they say what to mend, a hint. Such a refusal (PostgreSQL down, a
   * wrong password, a missing privilege or table) is the operator's matter and is logged without a
   * stack trace; any other failure keeps its cause, since it may be a fault of vfps.
   *
   * @param unmigratedHint what to do when a table or the schema is missing
   */
  static StartupException database(String failed, Throwable failure, String unmigratedHint) {
    String state = sqlState(failure);
    String hint;
    boolean unreachable =
        causedBy(
            failure,
            ConnectException.class,
            UnknownHostException.class,
            NoRouteToHostException.class,
            SocketTimeoutException.class);
    if (unreachable || state.startsWith("08")) {
      hint =
          " Is PostgreSQL running, and do the host and port of ConnectionStrings__PostgreSQL name"
              + " it?";
    } else if (state.startsWith("28")) {
      hint = " Check the user and password of ConnectionStrings__PostgreSQL.";
    } else if (state.equals("3D000")) {
      hint = " Does the database ConnectionStrings__PostgreSQL names exist?";
    } else if (state.equals(INSUFFICIENT_PRIVILEGE)) {
      hint =
          " Does the role of ConnectionStrings__PostgreSQL have the privileges the service needs"
              + " (see the roles of a production deployment)?";
    } else if (MISSING_STATES.contains(state)) {
      hint = " " + unmigratedHint;
    } else {
      hint = "";
    }
    boolean refusal =
        !hint.isEmpty() || (state.length() >= 2 && REFUSAL_CLASSES.contains(state.substring(0, 2)));
    // no stack trace for a refusal: it is the operator's matter, not a bug
    String words = rootMessage(failure);
    if (causedBy(failure, UnknownHostException.class)) {
      // JDBC's message is the bare host name
      words = "unknown host (" + words + ")";
    }
    if (words.endsWith(".")) {
      words = words.substring(0, words.length() - 1);
    }
    return new StartupException(failed + ": " + words + "." + hint, refusal ? null : failure);
  }

  /** The SQL state the database gave somewhere in the failure's causes; empty when none. */
  private static String sqlState(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = next(cause)) {
      String state =
          switch (cause) {
            case PgException pg -> pg.getSqlState();
            case SQLException sql -> sql.getSQLState();
            default -> null;
          };
      if (state != null) {
        return state;
      }
    }
    return "";
  }

  /** Whether the failure or one of its causes is of one of these types. */
  private static boolean causedBy(Throwable failure, Class<?>... types) {
    for (Throwable cause = failure; cause != null; cause = next(cause)) {
      for (Class<?> type : types) {
        if (type.isInstance(cause)) {
          return true;
        }
      }
    }
    return false;
  }

  private static Throwable next(Throwable cause) {
    return cause.getCause() == cause ? null : cause.getCause();
  }

  /** The message of the failure's root cause, else its root's class name. */
  static String rootMessage(Throwable failure) {
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
  }
}
