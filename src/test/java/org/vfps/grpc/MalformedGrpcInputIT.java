package org.vfps.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.RequestOptions;
import io.vertx.grpc.common.GrpcStatus;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;
import org.vfps.ClassResources;
import org.vfps.GrpcTestClient;
import org.vfps.TcpProxy;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.config.ConnectionSettings;
import org.vfps.log.EdgeWarnings;
import org.vfps.server.VfpsServer;

/**
 * gRPC input no client library would send, written frame by frame with a raw HTTP/2 client
 * (cleartext, prior knowledge): every call is answered, at once, with a client error, and the log
 * has no error and no stack trace.
 */
class MalformedGrpcInputIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static final String CREATE = "/vfps.api.v1.PseudonymService/Create";

  private static VfpsServer server;
  private static Vertx vertx;
  private static HttpClient http;
  private static String namespace;

  private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
  private final Logger root = (Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);
  private final Logger vfps = (Logger) LoggerFactory.getLogger("org.vfps");
  private Level vfpsLevel;

  /** What a call was answered with: its gRPC status and message, and the response headers. */
  record Answer(GrpcStatus status, String message, MultiMap headers) {}

  @BeforeAll
  static void start() {
    server = resources.own(TestService.start());
    vertx = resources.own(Vertx.vertx(), v -> v.close().await());
    http =
        vertx.createHttpClient(
            new HttpClientOptions()
                .setProtocolVersion(HttpVersion.HTTP_2)
                .setHttp2ClearTextUpgrade(false));
    try (GrpcTestClient client = new GrpcTestClient(server.grpcPort())) {
      namespace = client.createNamespace("malformed-");
    }
  }

  @BeforeEach
  void captureLogs() {
    vfpsLevel = vfps.getLevel();
    vfps.setLevel(Level.DEBUG);
    logs.start();
    root.addAppender(logs);
  }

  @AfterEach
  void restoreLogs() {
    root.detachAppender(logs);
    logs.stop();
    vfps.setLevel(vfpsLevel);
  }

  @Test
  void randomBytesAreAClientError() {
    Random random = new Random(20261130);
    for (int i = 0; i < 40; i++) {
      byte[] body = new byte[1 + random.nextInt(64)];
      random.nextBytes(body);
      Answer answer = call(server.grpcPort(), Map.of(), Buffer.buffer(body), true);
      assertThat(answer.status())
          .as("random body %d", i)
          .isIn(GrpcStatus.INVALID_ARGUMENT, GrpcStatus.RESOURCE_EXHAUSTED, GrpcStatus.NOT_FOUND);
    }
    assertCleanLog();
  }

  @Test
  void aWellFramedMessageOfRandomBytesIsInvalidArgument() {
    Random random = new Random(42);
    for (int i = 0; i < 20; i++) {
      byte[] payload = new byte[8 + random.nextInt(64)];
      random.nextBytes(payload);
      // a field number 0 or a wrong wire type makes it no protobuf message
      payload[0] = 0x07;
      Answer answer = call(server.grpcPort(), Map.of(), frame(0, payload), true);
      assertThat(answer.status()).as("random message %d", i).isEqualTo(GrpcStatus.INVALID_ARGUMENT);
    }
    assertCleanLog();
  }

  @Test
  void malformedFramingIsInvalidArgument() {
    byte[] valid = createRequest("framing").toByteArray();
    Buffer truncated = frame(0, valid).slice(0, 5 + valid.length / 2);
    Buffer twoMessages = frame(0, valid).appendBuffer(frame(0, valid));

    for (Buffer body : List.of(Buffer.buffer(), Buffer.buffer(new byte[] {0, 0}), truncated)) {
      assertThat(call(server.grpcPort(), Map.of(), body, true).status())
          .isEqualTo(GrpcStatus.INVALID_ARGUMENT);
    }
    assertThat(call(server.grpcPort(), Map.of(), twoMessages, true).status())
        .isEqualTo(GrpcStatus.INVALID_ARGUMENT);
    assertCleanLog();
  }

  @Test
  void aCompressedFlagWithoutAnEncodingIsAnsweredAtOnce() {
    byte[] valid = createRequest("flagged").toByteArray();
    // the stream stays open: the answer must not wait for its end
    Answer undeclared = call(server.grpcPort(), Map.of(), frame(1, valid), false);
    Answer identity =
        call(server.grpcPort(), Map.of("grpc-encoding", "identity"), frame(1, valid), false);

    assertThat(undeclared.status()).isEqualTo(GrpcStatus.INVALID_ARGUMENT);
    assertThat(undeclared.message()).contains("compressed");
    assertThat(identity.status()).isEqualTo(GrpcStatus.INVALID_ARGUMENT);
    assertCleanLog();
  }

  @Test
  void anUnsupportedEncodingIsUnimplemented() {
    byte[] valid = createRequest("snappy").toByteArray();
    Answer answer =
        call(server.grpcPort(), Map.of("grpc-encoding", "snappy"), frame(1, valid), true);

    assertThat(answer.status()).isEqualTo(GrpcStatus.UNIMPLEMENTED);
    assertThat(answer.headers().get("grpc-accept-encoding")).contains("gzip");
    assertCleanLog();
  }

  @Test
  void gzipIsReadAndAGzipBombIsRefused() {
    byte[] valid = createRequest("gzipped").toByteArray();
    Answer gzipped =
        call(server.grpcPort(), Map.of("grpc-encoding", "gzip"), frame(1, gzip(valid)), true);
    Answer plainInAGzipCall =
        call(server.grpcPort(), Map.of("grpc-encoding", "gzip"), frame(0, valid), true);
    Answer bomb =
        call(
            server.grpcPort(),
            Map.of("grpc-encoding", "gzip"),
            frame(1, gzip(new byte[16 * 1024 * 1024])),
            true);
    Answer notGzip =
        call(server.grpcPort(), Map.of("grpc-encoding", "gzip"), frame(1, valid), true);

    assertThat(gzipped.status()).isEqualTo(GrpcStatus.OK);
    assertThat(plainInAGzipCall.status()).isEqualTo(GrpcStatus.OK);
    assertThat(bomb.status()).isEqualTo(GrpcStatus.RESOURCE_EXHAUSTED);
    assertThat(notGzip.status()).isEqualTo(GrpcStatus.INVALID_ARGUMENT);
    assertCleanLog();
  }

  @Test
  void malformedCallsAreLoggedAsRateLimitedWarningsWithoutStackTraces() {
    long started = System.nanoTime();
    for (int i = 0; i < 30; i++) {
      call(server.grpcPort(), Map.of(), frame(0, new byte[] {0x07, 0x01}), true);
    }
    long intervals = 1 + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started) / 10;

    List<ILoggingEvent> warnings =
        logs.list.stream()
            .filter(event -> event.getLoggerName().equals(EdgeWarnings.class.getName()))
            .toList();
    assertThat(warnings)
        .hasSizeLessThanOrEqualTo((int) intervals + 1)
        .allSatisfy(
            event -> {
              assertThat(event.getLevel()).isEqualTo(Level.WARN);
              assertThat(event.getThrowableProxy()).isNull();
            });
    assertCleanLog();
  }

  @Test
  void aCallTheClientCancelsIsLoggedAtDebugOnly() {
    ConnectionSettings database = TestPostgres.database();
    try (TcpProxy proxy = new TcpProxy(database.host(), database.port())) {
      try (VfpsServer stalled =
          TestService.start(
              Map.of(
                  "ConnectionStrings__PostgreSQL",
                  proxy.connectionString(database, "Timeout=3;SSL Mode=Disable")))) {
        proxy.stall();
        HttpClientRequest request = open(stalled.grpcPort(), Map.of()).await();
        request.end(frame(0, createRequest("cancelled").toByteArray())).await();
        // the call waits for a database connection; the client gives up on it
        request.reset().await();
        proxy.unstall();

        await("the service's note that the client left")
            .atMost(Duration.ofSeconds(30))
            .until(
                () ->
                    logs.list.stream()
                        .anyMatch(
                            event ->
                                event.getLevel() == Level.DEBUG
                                    && event.getFormattedMessage().contains("left by the client")),
                seen -> seen);
      }
    }
    assertCleanLog();
  }

  /** No ERROR line and no stack trace from anywhere while the test ran. */
  private void assertCleanLog() {
    assertThat(logs.list)
        .noneSatisfy(event -> assertThat(event.getLevel()).isEqualTo(Level.ERROR))
        .noneSatisfy(event -> assertThat(event.getThrowableProxy()).isNotNull());
  }

  private static PseudonymServiceCreateRequest createRequest(String value) {
    return PseudonymServiceCreateRequest.newBuilder()
        .setNamespace(namespace)
        .setOriginalValue(value)
        .build();
  }

  /** A length-prefixed message: the compressed flag, the length, the payload. */
  private static Buffer frame(int flag, byte[] payload) {
    return Buffer.buffer().appendByte((byte) flag).appendInt(payload.length).appendBytes(payload);
  }

  private static byte[] gzip(byte[] data) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
      gzip.write(data);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  private static Future<HttpClientRequest> open(int port, Map<String, String> headers) {
    return http.request(
            new RequestOptions()
                .setMethod(HttpMethod.POST)
                .setHost("127.0.0.1")
                .setPort(port)
                .setURI(CREATE))
        .map(
            request -> {
              request.putHeader("content-type", "application/grpc");
              request.putHeader("te", "trailers");
              request.setChunked(true);
              headers.forEach(request::putHeader);
              // the answer's future carries a failure (a GOAWAY the input provoked); without a
              // handler the client would also log it as an ERROR
              request.exceptionHandler(failure -> {});
              return request;
            });
  }

  /**
   * Sends the body, ending the stream or leaving it open, and waits (at most 30 s) for the answer.
   */
  private static Answer call(int port, Map<String, String> headers, Buffer body, boolean end) {
    return open(port, headers)
        .compose(
            request -> {
              // Wait for the end of the answer from the moment its headers arrive: a trailers-only
              // answer can be complete before the request's own write has been acknowledged.
              Future<Answer> answer =
                  request
                      .response()
                      .compose(
                          response ->
                              response
                                  .end()
                                  .map(
                                      ignored -> {
                                        MultiMap all =
                                            MultiMap.caseInsensitiveMultiMap()
                                                .addAll(response.headers())
                                                .addAll(response.trailers());
                                        return new Answer(
                                            GrpcStatus.valueOf(
                                                Integer.parseInt(all.get("grpc-status"))),
                                            all.get("grpc-message"),
                                            all);
                                      }));
              Future<?> sent = end ? request.end(body) : request.write(body);
              return sent.transform(ignored -> answer);
            })
        .timeout(30, TimeUnit.SECONDS)
        .await();
  }
}
