package org.vfps.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.vfps.TestService;
import org.vfps.server.VfpsServer;

/**
 * A client whose calls are cancelled, each an HTTP/2 stream reset, keeps its connection: a client
 * that enforces deadlines sends hundreds of resets while the database is away, and the rapid-reset
 * guard is there for floods of them, not for those.
 */
class StreamResetsIT {

  private static final String HEALTH_CHECK = "/grpc.health.v1.Health/Check";

  @Test
  void hundredsOfCancelledCallsKeepTheConnection() {
    Vertx vertx = Vertx.vertx();
    try (VfpsServer server = TestService.start()) {
      AtomicInteger connections = new AtomicInteger();
      AtomicInteger closed = new AtomicInteger();
      HttpClient http =
          vertx
              .httpClientBuilder()
              .with(
                  new HttpClientOptions()
                      .setProtocolVersion(HttpVersion.HTTP_2)
                      .setHttp2ClearTextUpgrade(false))
              .with(new PoolOptions().setHttp2MaxSize(1))
              .withConnectHandler(
                  connection -> {
                    connections.incrementAndGet();
                    connection.closeHandler(ignored -> closed.incrementAndGet());
                  })
              .build();
      RequestOptions call =
          new RequestOptions()
              .setMethod(HttpMethod.POST)
              .setHost("127.0.0.1")
              .setPort(server.grpcPort())
              .setURI(HEALTH_CHECK)
              .putHeader("content-type", "application/grpc")
              .putHeader("te", "trailers");

      // Vert.x's own default closes a connection after 200 resets in 30 s
      for (int i = 0; i < 500; i++) {
        HttpClientRequest request = http.request(call).await();
        // the reset fails the request on the client's side, as it should; without a handler the
        // client logs that as an ERROR
        request.exceptionHandler(ownReset -> {});
        request.setChunked(true);
        request.sendHead().await();
        request.reset().await();
      }
      HttpClientRequest request = http.request(call).await();
      // waits for the end from the moment the headers arrive, which may carry the trailers too
      Future<HttpClientResponse> answered =
          request.response().compose(response -> response.end().map(response));
      // an empty HealthCheckRequest: not compressed, length 0
      request.end(Buffer.buffer(new byte[5]));
      HttpClientResponse response = answered.timeout(10, TimeUnit.SECONDS).await();

      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(response.trailers().get("grpc-status")).isEqualTo("0");
      assertThat(connections).hasValue(1);
      assertThat(closed).hasValue(0);
    } finally {
      vertx.close().await();
    }
  }
}
