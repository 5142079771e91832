package org.vfps.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.DecoderException;
import io.vertx.core.VertxException;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.ClosedConnectionException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.util.Map;
import java.util.stream.Stream;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.vfps.error.ErrorCode;

/**
 * Only failures to reach PostgreSQL become the retryable {@code UNAVAILABLE}; everything else, a
 * driver bug included, is {@code INTERNAL}.
 */
class PgFailuresTest {

  static Stream<Throwable> connectionFailures() {
    return Stream.of(
        new ConnectException("Connection refused"),
        new SocketTimeoutException("PostgreSQL did not answer"),
        new SSLHandshakeException("handshake timed out"),
        ClosedConnectionException.INSTANCE,
        new VertxException("Connection was closed", true),
        new VertxException("Connection is not active now, current status: CLOSED", true),
        new VertxException("Timeout waiting for connection", true),
        new VertxException("Pool closed", true),
        new PgException("terminating connection", "FATAL", "57P01", null),
        new PgException("the database system is starting up", "FATAL", "57P03", null),
        new PgException("connection failure", "FATAL", "08006", null),
        new PgException("sorry, too many clients already", "FATAL", "53300", null),
        new PgException(
            "cannot execute INSERT in a read-only transaction", "ERROR", "25006", null));
  }

  static Stream<Throwable> otherFailures() {
    return Stream.of(
        new VertxException(
            "The number of parameters (70000) exceeds the maximum of 65535. Use arrays or split"
                + " the query.",
            true),
        new DecoderException("unexpected message"),
        new IndexOutOfBoundsException("index 3"),
        new UnsupportedOperationException(),
        new IllegalStateException("bug"),
        new RuntimeException("bug"),
        new PgException("relation does not exist", "ERROR", "42P01", null),
        new PgException("invalid byte sequence", "ERROR", "22021", null));
  }

  @ParameterizedTest
  @MethodSource("connectionFailures")
  void connectionFailuresAreUnavailable(Throwable failure) {
    assertThat(PgFailures.translate(failure, Map.of()).code()).isEqualTo(ErrorCode.UNAVAILABLE);
  }

  @ParameterizedTest
  @MethodSource("otherFailures")
  void everythingElseIsInternal(Throwable failure) {
    assertThat(PgFailures.translate(failure, Map.of()).code()).isEqualTo(ErrorCode.INTERNAL);
  }
}
