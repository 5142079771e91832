package org.vfps.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.vertx.core.Context;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.grpc.client.GrpcClientRequest;
import io.vertx.grpc.client.GrpcClientResponse;
import io.vertx.grpc.common.GrpcStatus;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;
import org.vfps.ClassResources;
import org.vfps.GrpcTestClient;
import org.vfps.GrpcTestClient.Reply;
import org.vfps.GrpcTestClient.StreamReply;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.access.Audit;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.Pseudonym;
import org.vfps.api.v1.PseudonymGenerationMethod;
import org.vfps.api.v1.PseudonymServiceBatchCreateRequest;
import org.vfps.api.v1.PseudonymServiceBatchCreateResponse;
import org.vfps.api.v1.PseudonymServiceBatchGetRequest;
import org.vfps.api.v1.PseudonymServiceBatchGetResponse;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceCreateResponse;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.metrics.Scrape;
import org.vfps.server.VfpsServer;

/** BatchCreate, BatchGet and CreateStream through a real gRPC client on generated stubs. */
class BatchCallsIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static VfpsServer server;
  private static GrpcTestClient client;

  private final ListAppender<ILoggingEvent> log = new ListAppender<>();
  private final Logger root = (Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);

  @BeforeAll
  static void start() {
    server =
        resources.own(
            TestService.start(
                Map.of(
                    "ConnectionStrings__PostgreSQL",
                    TestPostgres.uri(),
                    "MetricsPort",
                    Integer.toString(TestService.freePort()))));
    client = resources.own(new GrpcTestClient(server.grpcPort()));
  }

  @BeforeEach
  void captureLog() {
    log.start();
    root.addAppender(log);
  }

  @AfterEach
  void releaseLog() {
    root.detachAppender(log);
    log.stop();
  }

  private static String namespace(PseudonymGenerationMethod method, int length) {
    String name = "batch-calls-" + UUID.randomUUID();
    client.ok(
        NamespaceServiceGrpcClient.Create,
        NamespaceServiceCreateRequest.newBuilder()
            .setName(name)
            .setPseudonymGenerationMethod(method)
            .setPseudonymLength(length)
            .build());
    return name;
  }

  private static String namespace() {
    return namespace(
        PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_SECURE_RANDOM_BASE64URL_ENCODED, 16);
  }

  private static Reply<PseudonymServiceBatchCreateResponse> batchCreate(
      String namespace, List<String> values) {
    return client.call(
        PseudonymServiceGrpcClient.BatchCreate,
        PseudonymServiceBatchCreateRequest.newBuilder()
            .setNamespace(namespace)
            .addAllOriginalValues(values)
            .build());
  }

  private static Reply<PseudonymServiceBatchGetResponse> batchGet(
      String namespace, List<String> values) {
    return client.call(
        PseudonymServiceGrpcClient.BatchGet,
        PseudonymServiceBatchGetRequest.newBuilder()
            .setNamespace(namespace)
            .addAllPseudonymValues(values)
            .build());
  }

  private static PseudonymServiceCreateRequest create(String namespace, String value) {
    return PseudonymServiceCreateRequest.newBuilder()
        .setNamespace(namespace)
        .setOriginalValue(value)
        .build();
  }

  private static StreamReply<PseudonymServiceCreateResponse> createStream(
      List<PseudonymServiceCreateRequest> requests) {
    return client.stream(PseudonymServiceGrpcClient.CreateStream, requests, Map.of());
  }

  private static List<String> pseudonymValues(List<Pseudonym> pseudonyms) {
    return pseudonyms.stream().map(Pseudonym::getPseudonymValue).toList();
  }

  private static List<String> streamed(StreamReply<PseudonymServiceCreateResponse> reply) {
    return reply.bodies().stream().map(r -> r.getPseudonym().getPseudonymValue()).toList();
  }

  @Test
  void aValueGetsOnePseudonymThroughCreateBatchCreateAndCreateStream() {
    String namespace = namespace();
    String single =
        client
            .ok(PseudonymServiceGrpcClient.Create, create(namespace, "a"))
            .getPseudonym()
            .getPseudonymValue();

    PseudonymServiceBatchCreateResponse batch =
        batchCreate(namespace, List.of("b", "a", "b", "c")).body();
    StreamReply<PseudonymServiceCreateResponse> stream =
        createStream(
            List.of(
                create(namespace, "c"),
                create(namespace, "d"),
                create(namespace, "a"),
                create(namespace, "d")));

    assertThat(batch.getNamespace()).isEqualTo(namespace);
    assertThat(batch.getPseudonymsList())
        .extracting(Pseudonym::getOriginalValue)
        .containsExactly("b", "a", "b", "c");
    assertThat(batch.getPseudonymsList()).allMatch(p -> p.getNamespace().equals(namespace));
    List<String> fromBatch = pseudonymValues(batch.getPseudonymsList());
    assertThat(fromBatch.get(1)).isEqualTo(single);
    assertThat(fromBatch.get(2)).isEqualTo(fromBatch.get(0));
    assertThat(new HashSet<>(fromBatch)).hasSize(3);
    assertThat(stream.status()).isEqualTo(GrpcStatus.OK);
    assertThat(stream.bodies())
        .extracting(r -> r.getPseudonym().getOriginalValue())
        .containsExactly("c", "d", "a", "d");
    List<String> fromStream = streamed(stream);
    assertThat(fromStream.get(0)).isEqualTo(fromBatch.get(3));
    assertThat(fromStream.get(2)).isEqualTo(single);
    assertThat(fromStream.get(3)).isEqualTo(fromStream.get(1));
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(4);
  }

  @Test
  void oneBadValueRejectsTheBatchNamingItsIndexAndStoresNothing() {
    String namespace = namespace();

    Reply<PseudonymServiceBatchCreateResponse> reply =
        batchCreate(namespace, List.of("fine-0", "fine-1", " ", "fine-3"));

    assertThat(reply.status()).isEqualTo(GrpcStatus.INVALID_ARGUMENT);
    assertThat(reply.message()).isEqualTo("The original value 3 of 4 must not be blank.");
    assertThat(reply.trailers().get("index")).isEqualTo("2");
    assertThat(reply.trailers().get("namespace")).isEqualTo(namespace);
    assertThat(TestPostgres.pseudonymCount(namespace)).isZero();
  }

  @Test
  void tenThousandValuesFitInOneCallAndOneMoreIsRejected() {
    String namespace = namespace();
    // 36 characters each: over Vert.x's default message limit of 256 KiB in all
    List<String> values =
        IntStream.range(0, 10_000).mapToObj(i -> UUID.randomUUID().toString()).toList();

    Reply<PseudonymServiceBatchCreateResponse> reply = batchCreate(namespace, values);
    List<String> moreValues = new ArrayList<>(values);
    moreValues.add("one-more");
    Reply<PseudonymServiceBatchCreateResponse> over = batchCreate(namespace, moreValues);

    assertThat(reply.status()).as(reply.message()).isEqualTo(GrpcStatus.OK);
    assertThat(reply.body().getPseudonymsList())
        .extracting(Pseudonym::getOriginalValue)
        .containsExactlyElementsOf(values);
    assertThat(over.status()).isEqualTo(GrpcStatus.INVALID_ARGUMENT);
    assertThat(over.message())
        .isEqualTo(
            "A batch holds at most 10000 values (Pseudonymization__Batch__MaxSize), not 10001.");
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(values.size());
  }

  @Test
  void aMessageOverTheSizeLimitIsResourceExhausted() {
    String namespace = namespace();
    String large = "x".repeat(2_000);
    List<String> values = Collections.nCopies(2_200, large);

    Reply<PseudonymServiceBatchCreateResponse> reply = batchCreate(namespace, values);

    assertThat(reply.status()).isEqualTo(GrpcStatus.RESOURCE_EXHAUSTED);
    assertThat(reply.message()).isEqualTo("The request message is larger than 4194304 bytes.");
    assertThat(log.list)
        .noneMatch(event -> event.getLevel().isGreaterOrEqual(Level.ERROR))
        .allMatch(event -> event.getThrowableProxy() == null);
    assertThat(batchCreate(namespace, List.of("after")).status()).isEqualTo(GrpcStatus.OK);
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(1);
  }

  @Test
  void anUnknownNamespaceIsNotFound() {
    String missing = "missing-" + UUID.randomUUID();

    assertThat(batchCreate(missing, List.of("a")).status()).isEqualTo(GrpcStatus.NOT_FOUND);
    assertThat(batchGet(missing, List.of("a")).status()).isEqualTo(GrpcStatus.NOT_FOUND);
    StreamReply<PseudonymServiceCreateResponse> stream =
        createStream(List.of(create(namespace(), "a"), create(missing, "b")));
    assertThat(stream.status()).isEqualTo(GrpcStatus.NOT_FOUND);
    assertThat(stream.message())
        .isEqualTo(
            "Message 2 of the stream: The requested pseudonym namespace '"
                + missing
                + "' does not exist.");
    assertThat(stream.trailers().get("index")).isEqualTo("1");
    assertThat(stream.trailers().get("namespace")).isEqualTo(missing);
    assertThat(stream.bodies()).hasSize(1);
  }

  @Test
  void batchGetAnswersInOrderNamesTheFirstMissAndAuditsEveryValue() {
    String namespace = namespace();
    List<Pseudonym> created =
        batchCreate(namespace, List.of("original-one", "original-two")).body().getPseudonymsList();
    String one = created.get(0).getPseudonymValue();
    String two = created.get(1).getPseudonymValue();

    Reply<PseudonymServiceBatchGetResponse> hits = batchGet(namespace, List.of(two, one, two));
    Reply<PseudonymServiceBatchGetResponse> miss =
        batchGet(namespace, List.of(one, "no-such-1", "no-such-2"));

    assertThat(hits.status()).isEqualTo(GrpcStatus.OK);
    assertThat(hits.body().getNamespace()).isEqualTo(namespace);
    assertThat(hits.body().getPseudonymsList())
        .extracting(Pseudonym::getOriginalValue)
        .containsExactly("original-two", "original-one", "original-two");
    assertThat(miss.status()).isEqualTo(GrpcStatus.NOT_FOUND);
    assertThat(miss.message())
        .isEqualTo("The pseudonym 2 of 3 does not exist in the namespace '" + namespace + "'.");
    assertThat(miss.trailers().get("pseudonym")).isEqualTo("no-such-1");
    assertThat(miss.trailers().get("index")).isEqualTo("1");
    assertThat(miss.trailers().get("namespace")).isEqualTo(namespace);
    List<String> audited =
        log.list.stream()
            .filter(event -> event.getLoggerName().equals(Audit.LOGGER))
            .map(ILoggingEvent::getFormattedMessage)
            .filter(line -> line.startsWith("PseudonymService/"))
            .toList();
    assertThat(audited)
        .containsExactly(
            "PseudonymService/BatchGet OK",
            "PseudonymService/BatchGet OK",
            "PseudonymService/BatchGet OK",
            "PseudonymService/BatchGet OK",
            "PseudonymService/BatchGet NOT_FOUND",
            "PseudonymService/BatchGet NOT_FOUND");
    assertThat(log.list)
        .filteredOn(event -> event.getLoggerName().equals(Audit.LOGGER))
        .allSatisfy(
            event ->
                assertThat(event.getFormattedMessage() + event.getKeyValuePairs())
                    .doesNotContain("original-one")
                    .doesNotContain("original-two"));
  }

  @Test
  void aStreamAnswersInOrderAcrossNamespacesUntilTheFirstFailingRequest() {
    String first = namespace();
    String second = namespace(PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_UUID4, 36);

    StreamReply<PseudonymServiceCreateResponse> reply =
        createStream(
            List.of(
                create(first, "a"),
                create(second, "a"),
                create(first, "b"),
                create(second, ""),
                create(first, "never")));

    assertThat(reply.status()).isEqualTo(GrpcStatus.INVALID_ARGUMENT);
    assertThat(reply.message())
        .isEqualTo("Message 4 of the stream: The original value must not be blank.");
    assertThat(reply.trailers().get("index")).isEqualTo("3");
    assertThat(reply.bodies())
        .extracting(
            r -> r.getPseudonym().getNamespace() + "/" + r.getPseudonym().getOriginalValue())
        .containsExactly(first + "/a", second + "/a", first + "/b");
    assertThat(reply.bodies().get(1).getPseudonym().getPseudonymValue()).matches("[0-9a-f-]{36}");
    assertThat(createStream(List.of()).status()).isEqualTo(GrpcStatus.OK);
  }

  @Test
  void collidingPseudonymsStayUniqueThroughBatchCreateAndCreateStream() {
    // 256 possible pseudonyms: candidates collide with each other and with stored ones
    String namespace =
        namespace(PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_FULL_RANDOM_HEX_ENCODED, 2);
    List<String> batchValues = IntStream.range(0, 12).mapToObj(i -> "batch-" + i).toList();
    List<PseudonymServiceCreateRequest> streamed =
        IntStream.range(0, 12).mapToObj(i -> create(namespace, "stream-" + i)).toList();

    Reply<PseudonymServiceBatchCreateResponse> batch = batchCreate(namespace, batchValues);
    StreamReply<PseudonymServiceCreateResponse> stream = createStream(streamed);

    assertThat(batch.status()).as(batch.message()).isEqualTo(GrpcStatus.OK);
    assertThat(stream.status()).as(stream.message()).isEqualTo(GrpcStatus.OK);
    List<String> all = new ArrayList<>(pseudonymValues(batch.body().getPseudonymsList()));
    all.addAll(streamed(stream));
    assertThat(all).doesNotHaveDuplicates().hasSize(24).allMatch(p -> p.matches("[0-9a-f]{2}"));
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(24);
  }

  /**
   * A CreateStream call on a connection of its own, whose responses are not read at first; closing
   * it closes the connection, which the unread replies hold up.
   */
  private static final class UnreadStream implements AutoCloseable {

    final AtomicLong written = new AtomicLong();
    final List<PseudonymServiceCreateResponse> replies =
        Collections.synchronizedList(new ArrayList<>());
    final Promise<GrpcStatus> ended = Promise.promise();
    private final GrpcTestClient connection = new GrpcTestClient(server.grpcPort());
    private final String namespace;
    private final int total;
    private Context context;
    private GrpcClientRequest<PseudonymServiceCreateRequest, PseudonymServiceCreateResponse> call;
    private GrpcClientResponse<PseudonymServiceCreateRequest, PseudonymServiceCreateResponse>
        response;

    UnreadStream(String namespace, int total) {
      this.namespace = namespace;
      this.total = total;
    }

    UnreadStream start() {
      connection
          .client()
          .request(connection.address(), PseudonymServiceGrpcClient.CreateStream)
          .compose(
              request -> {
                context = Vertx.currentContext();
                call = request;
                pump();
                return request.response();
              })
          .onSuccess(
              answer -> {
                response = answer;
                answer.pause();
                answer.handler(replies::add);
                answer.end().onComplete(done -> ended.complete(answer.status()));
              })
          .onFailure(ended::fail);
      return this;
    }

    /** Writes while the client's own write queue takes more; the drain handler goes on. */
    private void pump() {
      while (written.get() < total && !call.writeQueueFull()) {
        call.write(create(namespace, "streamed-" + written.getAndIncrement()));
      }
      if (written.get() < total) {
        call.drainHandler(drained -> pump());
      } else {
        call.end();
      }
    }

    void read() {
      context.runOnContext(ignored -> response.resume());
    }

    void cancel() {
      context.runOnContext(ignored -> call.cancel());
    }

    @Override
    public void close() {
      connection.close();
    }
  }

  private static Scrape scrape() {
    try (HttpClient http = HttpClient.newHttpClient()) {
      HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(
                      URI.create("http://127.0.0.1:" + server.metricsPort() + "/metrics"))
                  .timeout(Duration.ofSeconds(30))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      return Scrape.parse(response.body());
    } catch (IOException e) {
      throw new AssertionError(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** Messages CreateStream has read and written so far, over all its calls. */
  private record Messages(long received, long sent) {

    static Messages now() {
      Scrape scrape = scrape();
      Map<String, String> createStream = Map.of("grpc_method", "CreateStream");
      return new Messages(
          (long) scrape.value("grpc_server_msg_received_total", createStream),
          (long) scrape.value("grpc_server_msg_sent_total", createStream));
    }

    Messages since(Messages before) {
      return new Messages(received - before.received, sent - before.sent);
    }

    long unanswered() {
      return received - sent;
    }
  }

  /**
   * Waits until the server holds a full window of unanswered requests, checking the bound. The
   * window counts as full once two scrapes a quarter second apart agree and every request read is
   * stored: one scrape alone can fall between a statement's commit and its replies.
   */
  private static Messages awaitFullWindow(String namespace, Messages before) {
    AtomicReference<Messages> previous = new AtomicReference<>();
    return await("a full window of unanswered requests")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(250))
        .until(
            () -> {
              Messages messages = Messages.now().since(before);
              assertThat(messages.unanswered())
                  .as("requests read and not answered")
                  .isLessThanOrEqualTo(CreateStreamCall.WINDOW);
              return messages;
            },
            messages ->
                messages.equals(previous.getAndSet(messages))
                    && messages.unanswered() == CreateStreamCall.WINDOW
                    && TestPostgres.pseudonymCount(namespace) == messages.received());
  }

  @Test
  void aClientThatDoesNotReadHoldsTheServerToItsWindowThenGetsEveryReplyInOrder() {
    String namespace = namespace();
    int total = 10_000;
    Messages before = Messages.now();

    try (UnreadStream stream = new UnreadStream(namespace, total).start()) {
      Messages stalled = awaitFullWindow(namespace, before);

      assertThat(stalled.received()).as("requests the server read").isLessThan(total / 2);
      assertThat(stream.written.get()).as("requests the client could write").isLessThan(total);
      stream.read();
      assertThat(stream.ended.future().await()).isEqualTo(GrpcStatus.OK);
      assertThat(stream.replies)
          .extracting(reply -> reply.getPseudonym().getOriginalValue())
          .containsExactlyElementsOf(
              IntStream.range(0, total).mapToObj(i -> "streamed-" + i).toList());
    }
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(total);
  }

  @Test
  void aCancelledStreamStopsTheWorkWithoutAnError() {
    String namespace = namespace();
    Messages before = Messages.now();
    Map<String, String> cancelled = Map.of("grpc_method", "CreateStream", "grpc_code", "CANCELLED");
    double cancelledBefore = scrape().value("grpc_server_handled_total", cancelled);

    Messages stalled;
    try (UnreadStream stream = new UnreadStream(namespace, 10_000).start()) {
      stalled = awaitFullWindow(namespace, before);
      stream.cancel();
      await("the server sees the cancellation")
          .atMost(Duration.ofSeconds(30))
          .until(
              () -> scrape().value("grpc_server_handled_total", cancelled),
              count -> count == cancelledBefore + 1);
    }

    assertThat(Messages.now().since(before).received())
        .as("no request read after the cancellation")
        .isEqualTo(stalled.received());
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(stalled.received());
    assertThat(log.list).noneMatch(event -> event.getLevel().isGreaterOrEqual(Level.WARN));
    assertThat(batchCreate(namespace, List.of("after")).status()).isEqualTo(GrpcStatus.OK);
  }

  @Test
  void theStreamIsCountedAsABidiStreamInTheGrpcMeters() {
    String namespace = namespace();
    createStream(List.of(create(namespace, "counted")));
    batchCreate(namespace, List.of("counted"));

    Scrape scrape = scrape();
    assertThat(
            scrape.value(
                "grpc_server_handled_total",
                Map.of(
                    "grpc_method", "CreateStream", "grpc_type", "bidi_stream", "grpc_code", "OK")))
        .isPositive();
    assertThat(
            scrape.value(
                "grpc_server_handled_total",
                Map.of("grpc_method", "BatchCreate", "grpc_type", "unary")))
        .isPositive();
  }
}
