package org.vfps.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.pgclient.PgException;
import java.net.UnknownHostException;
import java.sql.SQLException;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/**
 * Which refusals of the database stop the start without a stack trace, and what each asks the
 * operator to check. (StartupIT and DatabasePrivilegesIT meet the common ones on a real server.)
 */
class StartupExceptionTest {

  private static final String UNMIGRATED = "Run the migrations.";

  private static StartupException refused(Throwable failure) {
    return StartupException.database("The database is not ready", failure, UNMIGRATED);
  }

  private static PgException pg(String message, String state) {
    return new PgException(message, "FATAL", state, null);
  }

  @Test
  void aRefusalThePoolReportsNamesWhatToCheckWithoutItsCause() {
    StartupException tooMany =
        refused(new CompletionException(pg("sorry, too many clients already", "53300")));
    StartupException missing = refused(pg("relation \"vfps_secrets\" does not exist", "42P01"));

    assertThat(tooMany.getMessage())
        .isEqualTo("The database is not ready: FATAL: sorry, too many clients already (53300).");
    assertThat(tooMany.getCause()).isNull();
    assertThat(missing.getMessage())
        .isEqualTo(
            "The database is not ready: FATAL: relation \"vfps_secrets\" does not exist (42P01). "
                + UNMIGRATED);
    assertThat(missing.getCause()).isNull();
  }

  @Test
  void aRefusalJdbcReportsIsReadFromItsSqlState() {
    StartupException shuttingDown =
        refused(
            new IllegalStateException(
                "wrapped", new SQLException("the database system is shutting down", "57P03")));
    StartupException unknownHost =
        refused(new IllegalStateException(new UnknownHostException("db.invalid")));

    assertThat(shuttingDown.getCause()).isNull();
    assertThat(unknownHost.getMessage())
        .isEqualTo(
            "The database is not ready: unknown host (db.invalid). Is PostgreSQL running, and do"
                + " the host and port of ConnectionStrings__PostgreSQL name it?");
    assertThat(unknownHost.getCause()).isNull();
  }

  @Test
  void anyOtherFailureKeepsItsCauseForItsStackTrace() {
    // a statement PostgreSQL cannot parse is a fault of vfps, not of the operator
    PgException syntax = pg("syntax error at or near \"SELEC\"", "42601");
    NullPointerException bug = new NullPointerException("a bug");

    assertThat(refused(syntax).getCause()).isSameAs(syntax);
    assertThat(refused(syntax).getMessage())
        .isEqualTo("The database is not ready: FATAL: syntax error at or near \"SELEC\" (42601).");
    assertThat(refused(bug).getCause()).isSameAs(bug);
  }
}
