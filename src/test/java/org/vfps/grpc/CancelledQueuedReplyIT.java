package org.vfps.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.netty.handler.codec.http2.Http2Error;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.Http2Settings;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.RequestOptions;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;
import org.vfps.LogCapture;
import org.vfps.TestService;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.log.ResetStreamTrailersFilter;
import org.vfps.server.VfpsServer;

/**
 * A client that cancels a call whose reply the server cannot send yet, because the client's HTTP/2
 * flow-control window is full, leaves no ERROR and no stack trace in the log, only one DEBUG line:
 * Vert.x 5.0.7 throws a {@code NullPointerException} when it drops the reply's queued trailers, and
 * Netty logs it (see {@link ResetStreamTrailersFilter}). The client's window is 0 from the start,
 * so the reply's message and trailers wait in the server's queue until the reset.
 */
class CancelledQueuedReplyIT {

  private static final String CREATE = "/vfps.api.v1.NamespaceService/Create";

  @RegisterExtension final LogCapture logs = LogCapture.of(Logger.ROOT_LOGGER_NAME);

  private final Logger filterLog =
      (Logger) LoggerFactory.getLogger(ResetStreamTrailersFilter.class);
  private Level filterLevel;

  @BeforeEach
  void showTheFiltersLine() {
    filterLevel = filterLog.getLevel();
    filterLog.setLevel(Level.DEBUG);
  }

  @AfterEach
  void restoreLevel() {
    filterLog.setLevel(filterLevel);
  }

  @Test
  void aCallCancelledWhileItsReplyWaitsForTheWindowLeavesNoErrorInTheLog() {
    Vertx vertx = Vertx.vertx();
    try (VfpsServer server = TestService.start()) {
      Promise<Context> connected = Promise.promise();
      HttpClient http =
          vertx
              .httpClientBuilder()
              .with(
                  new HttpClientOptions()
                      .setProtocolVersion(HttpVersion.HTTP_2)
                      .setHttp2ClearTextUpgrade(false)
                      // the server may send no DATA on any stream until the client says so
                      .setInitialSettings(new Http2Settings().setInitialWindowSize(0)))
              .withConnectHandler(connection -> connected.tryComplete(Vertx.currentContext()))
              .build();
      HttpClientRequest request =
          http.request(
                  new RequestOptions()
                      .setMethod(HttpMethod.POST)
                      .setHost("127.0.0.1")
                      .setPort(server.grpcPort())
                      .setURI(CREATE)
                      .putHeader("content-type", "application/grpc")
                      .putHeader("te", "trailers"))
              .await();
      byte[] message =
          NamespaceServiceCreateRequest.newBuilder()
              .setName("queued-reply-" + UUID.randomUUID())
              .setPseudonymLength(8)
              .build()
              .toByteArray();
      Buffer body =
          Buffer.buffer().appendByte((byte) 0).appendInt(message.length).appendBytes(message);
      Future<HttpClientResponse> answered = request.response();
      request.end(body);
      Context loop = connected.future().await();
      HttpConnection connection = request.connection();
      HttpClientResponse response =
          pingUntil(loop, connection, answered).timeout(30, TimeUnit.SECONDS).await();
      assertThat(response.statusCode()).isEqualTo(200);
      // the client's own reset fails its response, which is what this client wants
      response.exceptionHandler(reset -> {});

      Buffer last = Buffer.buffer("lastping");
      Buffer pong =
          request
              .reset(Http2Error.CANCEL.code())
              // answered once the server has read the RST_STREAM sent before it
              .compose(reset -> ping(loop, connection, last))
              .timeout(10, TimeUnit.SECONDS)
              .await();
      assertThat(pong).isEqualTo(last);

      List<ILoggingEvent> all = logs.atLeast(Level.TRACE);
      assertThat(all)
          .noneSatisfy(event -> assertThat(event.getLevel()).isEqualTo(Level.ERROR))
          .noneSatisfy(event -> assertThat(event.getThrowableProxy()).isNotNull());
      // the case did occur: the filter turned its ERROR into this line
      assertThat(all)
          .filteredOn(event -> event.getLoggerName().equals(filterLog.getName()))
          .singleElement()
          .satisfies(event -> assertThat(event.getLevel()).isEqualTo(Level.DEBUG));
    } finally {
      vertx.close().await();
    }
  }

  /**
   * Pings until the reply's headers are in. The server writes them (HEADERS frames are not
   * flow-controlled) but does not flush them, as the reply's message and trailers follow; these
   * wait in the stream's queue for the window. Reading a PING ends in a flush.
   */
  private static Future<HttpClientResponse> pingUntil(
      Context loop, HttpConnection connection, Future<HttpClientResponse> answered) {
    return ping(loop, connection, Buffer.buffer("8 bytes!"))
        .compose(pong -> answered.isComplete() ? answered : pingUntil(loop, connection, answered));
  }

  /**
   * A PING sent on the connection's event loop: Vert.x's client files a PING to be answered only
   * once its write is reported done, which for a PING sent from another thread can come after the
   * answer (the PING then waits for good).
   */
  private static Future<Buffer> ping(Context loop, HttpConnection connection, Buffer data) {
    Promise<Buffer> pong = Promise.promise();
    loop.runOnContext(on -> connection.ping(data).onComplete(pong));
    return pong.future();
  }
}
