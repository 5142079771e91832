package org.vfps.storage;

import io.vertx.core.Completable;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.SslMode;
import io.vertx.pgclient.spi.PgDriver;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.spi.ConnectionFactory;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.vfps.config.TimeSpans;

/**
 * The pg client's driver with three changes to how the pool opens connections, so that it recovers
 * in seconds when PostgreSQL restarts, stalls or fails over:
 *
 * <ul>
 *   <li>an attempt (TCP, TLS, start-up and authentication together) that has not completed within
 *       the connect timeout fails with a {@link SocketTimeoutException}, which frees its pool slot;
 *       should it complete later, the connection is closed at once. The pg client has no such limit
 *       of its own, and in 5.0.7 it ignores the TCP options it is given;
 *   <li>{@code SSL Mode=Prefer} asks the server whether it speaks TLS on a socket of its own, which
 *       it closes, and then connects with TLS or without. The pg client's own way leaves the
 *       attempt the server refused open, and PostgreSQL keeps such a connection, which never sends
 *       a start-up packet, until its {@code authentication_timeout} (a minute): one per pool
 *       connection, and a restart of the server waits for them. The answer is kept until an attempt
 *       fails, then asked again;
 *   <li>a server that accepts only reads is refused (see {@link Factory#refuseReadOnly}).
 * </ul>
 */
final class PgConnector extends PgDriver {

  /** The SSLRequest message: length 8, then the code 80877103. */
  private static final Buffer SSL_REQUEST = Buffer.buffer().appendInt(8).appendInt(80877103);

  private final Duration connectTimeout;

  /**
   * @param connectTimeout how long an attempt may take; zero means no limit
   */
  PgConnector(Duration connectTimeout) {
    this.connectTimeout = connectTimeout;
  }

  @Override
  public ConnectionFactory<PgConnectOptions> createConnectionFactory(
      Vertx vertx, NetClientOptions transportOptions) {
    NetClientOptions probe = new NetClientOptions();
    if (!connectTimeout.isZero()) {
      probe.setConnectTimeout((int) connectTimeout.toMillis());
    }
    return new Factory(
        super.createConnectionFactory(vertx, transportOptions), vertx.createNetClient(probe));
  }

  private final class Factory implements ConnectionFactory<PgConnectOptions> {

    private final ConnectionFactory<PgConnectOptions> delegate;
    private final NetClient probes;

    /** Whether the server speaks TLS, once asked; null until then and after a failed attempt. */
    private final AtomicReference<Future<Boolean>> speaksTls = new AtomicReference<>();

    Factory(ConnectionFactory<PgConnectOptions> delegate, NetClient probes) {
      this.delegate = delegate;
      this.probes = probes;
    }

    @Override
    public Future<SqlConnection> connect(Context context, PgConnectOptions options) {
      ContextInternal on = (ContextInternal) context;
      Future<SqlConnection> attempt =
          on.succeededFuture(options)
              .compose(this::resolveSslMode)
              .compose(resolved -> delegate.connect(context, resolved))
              .compose(connection -> refuseReadOnly(connection, options))
              .onFailure(failure -> speaksTls.set(null));
      if (connectTimeout.isZero()) {
        return attempt;
      }
      return attempt
          .timeout(connectTimeout.toMillis(), TimeUnit.MILLISECONDS)
          .recover(
              failure -> {
                if (!(failure instanceof TimeoutException)) {
                  return Future.failedFuture(failure);
                }
                // abandoned: a connection it may still bring is nobody's, so it is closed
                attempt.onSuccess(SqlConnection::close);
                return Future.failedFuture(
                    new SocketTimeoutException(
                        "PostgreSQL did not complete the connection within "
                            + TimeSpans.format(connectTimeout)));
              });
    }

    /**
     * The connection, unless its server only accepts reads: a standby, or a former primary fenced
     * off during a failover, which an address meant for the primary can still reach for a while.
     * Such a connection is closed and the attempt fails as unreachable, so that the pool keeps
     * trying until it reaches the primary instead of keeping connections no write can use.
     */
    private Future<SqlConnection> refuseReadOnly(
        SqlConnection connection, PgConnectOptions options) {
      return connection
          .query(ServerQueries.TRANSACTION_READ_ONLY)
          .execute()
          .compose(
              rows -> {
                if (!"on".equals(rows.iterator().next().getString(0))) {
                  return Future.succeededFuture(connection);
                }
                return connection
                    .close()
                    .transform(
                        closed ->
                            Future.failedFuture(
                                new ConnectException(
                                    "PostgreSQL at "
                                        + options.getHost()
                                        + ":"
                                        + options.getPort()
                                        + " accepts only reads (a standby, or a primary being"
                                        + " replaced); waiting for the primary")));
              },
              failure -> connection.close().transform(closed -> Future.failedFuture(failure)));
    }

    private Future<PgConnectOptions> resolveSslMode(PgConnectOptions options) {
      if (options.getSslMode() != SslMode.PREFER) {
        return Future.succeededFuture(options);
      }
      Future<Boolean> known = speaksTls.get();
      if (known == null) {
        Promise<Boolean> asking = Promise.promise();
        known = speaksTls.compareAndExchange(null, asking.future());
        if (known == null) {
          known = asking.future();
          askSpeaksTls(options).onComplete(asking);
        }
      }
      return known.map(
          tls -> new PgConnectOptions(options).setSslMode(tls ? SslMode.REQUIRE : SslMode.DISABLE));
    }

    /** Sends an SSLRequest and reads the one-byte answer: 'S' yes, 'N' no. */
    private Future<Boolean> askSpeaksTls(PgConnectOptions options) {
      return probes
          .connect(options.getPort(), options.getHost())
          .compose(
              socket -> {
                Promise<Boolean> answer = Promise.promise();
                socket.handler(
                    reply -> {
                      byte first = reply.getByte(0);
                      if (first == 'S' || first == 'N') {
                        answer.tryComplete(first == 'S');
                      } else {
                        answer.tryFail(new ConnectException("PostgreSQL refused the connection"));
                      }
                    });
                socket.closeHandler(
                    closed ->
                        answer.tryFail(new ConnectException("PostgreSQL closed the connection")));
                socket.write(SSL_REQUEST);
                return answer.future().eventually(socket::close);
              });
    }

    @Override
    public void close(Completable<Void> completion) {
      probes.close().onComplete(closed -> delegate.close(completion));
    }
  }
}
