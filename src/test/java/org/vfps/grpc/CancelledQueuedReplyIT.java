package org.vfps.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.netty.handler.codec.http2.Http2Error;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.Http2Settings;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.RequestOptions;
import java.time.Duration;
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
import org.vfps.VfpsServer;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.log.ResetStreamTrailersFilter;

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
      HttpClient http =
          vertx.createHttpClient(
              new HttpClientOptions()
                  .setProtocolVersion(HttpVersion.HTTP_2)
                  .setHttp2ClearTextUpgrade(false)
                  // the server may send no DATA on any stream until the client says so
                  .setInitialSettings(new Http2Settings().setInitialWindowSize(0)));
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
      request.end(
          Buffer.buffer().appendByte((byte) 0).appendInt(message.length).appendBytes(message));
      // The server writes the reply's headers (HEADERS frames are not flow-controlled) but does
      // not flush them, as its message and trailers follow; these wait in the stream's queue for
      // the window. The answer to a PING flushes them.
      Future<HttpClientResponse> answered = request.response();
      await("the reply's headers")
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(10))
          .until(
              () -> {
                request.connection().ping(Buffer.buffer("8 bytes!")).await();
                return answered.isComplete();
              });
      HttpClientResponse response = answered.await();
      assertThat(response.statusCode()).isEqualTo(200);
      // the client's own reset fails its response, which is what this client wants
      response.exceptionHandler(reset -> {});

      request.reset(Http2Error.CANCEL.code()).await();
      // the server answers the PING after it has read the RST_STREAM sent before it
      request.connection().ping(Buffer.buffer("8 bytes!")).timeout(10, TimeUnit.SECONDS).await();

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
}
