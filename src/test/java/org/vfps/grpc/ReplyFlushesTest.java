package org.vfps.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An HTTP/2 server of Vert.x that writes a reply of many frames outside the connection's own read,
 * as the service writes its replies when PostgreSQL answers: with {@link ReplyFlushes} the frames
 * leave in a few socket writes, without it in one write each. Counted on the server's event loop
 * thread from {@code /proc/thread-self/io} (Linux).
 */
class ReplyFlushesTest {

  private static final int FRAMES = 200;
  private static final Path THREAD_IO = Path.of("/proc/thread-self/io");

  private final Vertx serverVertx = Vertx.vertx();
  private final Vertx clientVertx = Vertx.vertx();

  @BeforeEach
  void onLinux() {
    assumeTrue(Files.isReadable(THREAD_IO), "needs /proc/thread-self/io");
  }

  @AfterEach
  void close() {
    clientVertx.close().await();
    serverVertx.close().await();
  }

  @Test
  void framesWrittenTogetherOutsideTheReadLeaveInAFewWrites() throws Exception {
    long writes = serverWritesForOneReply(ReplyFlushes::consolidate);

    assertThat(writes).isLessThanOrEqualTo(5);
  }

  /** The control: what the service's replies cost before, so the test above can fail. */
  @Test
  void withoutItEveryFrameIsAWriteOfItsOwn() throws Exception {
    long writes = serverWritesForOneReply(connection -> {});

    assertThat(writes).isGreaterThanOrEqualTo(FRAMES);
  }

  /**
   * Serves one request whose reply is {@link #FRAMES} chunks written in one task after the request
   * was read, checks that the client got them all in order, and returns the server thread's write
   * system calls from before the chunks until the client has the whole reply.
   */
  private long serverWritesForOneReply(Consumer<io.vertx.core.http.HttpConnection> onConnection)
      throws Exception {
    Context context = serverVertx.getOrCreateContext();
    Promise<Long> before = Promise.promise();
    HttpServer server =
        Future.<HttpServer>future(
                listening ->
                    context.runOnContext(
                        started -> {
                          HttpServer created = serverVertx.createHttpServer();
                          created.connectionHandler(onConnection::accept);
                          created.requestHandler(
                              request ->
                                  request.endHandler(
                                      end ->
                                          // a task of its own, as a database reply is
                                          context.runOnContext(
                                              later -> {
                                                before.complete(threadWrites());
                                                writeFrames(request.response());
                                              })));
                          created.listen(0, "127.0.0.1").onComplete(listening);
                        }))
            .await(30, TimeUnit.SECONDS);

    HttpClient client =
        clientVertx.createHttpClient(
            new HttpClientOptions()
                .setProtocolVersion(HttpVersion.HTTP_2)
                .setHttp2ClearTextUpgrade(false));
    Buffer body =
        client
            .request(HttpMethod.POST, server.actualPort(), "127.0.0.1", "/")
            .compose(request -> request.send(Buffer.buffer("go")))
            .compose(response -> response.body())
            .await(30, TimeUnit.SECONDS);

    assertThat(body.toString())
        .isEqualTo(
            IntStream.range(0, FRAMES)
                .mapToObj(i -> "frame " + i + ";")
                .collect(Collectors.joining()));
    long after =
        Future.<Long>future(read -> context.runOnContext(now -> read.complete(threadWrites())))
            .await(30, TimeUnit.SECONDS);
    return after - before.future().await(30, TimeUnit.SECONDS);
  }

  private static void writeFrames(HttpServerResponse response) {
    response.setChunked(true);
    for (int i = 0; i < FRAMES; i++) {
      response.write("frame " + i + ";");
    }
    response.end();
  }

  /** The write system calls of the calling thread so far. */
  private static long threadWrites() {
    try {
      return Files.readAllLines(THREAD_IO).stream()
          .filter(line -> line.startsWith("syscw:"))
          .mapToLong(line -> Long.parseLong(line.substring("syscw:".length()).trim()))
          .findFirst()
          .orElseThrow();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
