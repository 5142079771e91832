package org.vfps.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.grpc.client.GrpcClientRequest;
import io.vertx.grpc.client.GrpcClientResponse;
import io.vertx.grpc.common.GrpcStatus;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.GrpcTestClient;
import org.vfps.GrpcTestClient.Reply;
import org.vfps.HttpTestClient;
import org.vfps.HttpTestClient.Response;
import org.vfps.LogCapture;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceCreateResponse;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.auth.SecretHashing;
import org.vfps.auth.TestOidcProvider;
import org.vfps.metrics.Scrape;
import org.vfps.server.VfpsServer;

/**
 * Fair share with authorization on, through real clients: a caller without any right is refused
 * before it takes a place, a caller with rights holds at most its share of idle {@code
 * CreateStream} calls, and a stream idle longer than {@code Admission__StreamIdleTimeout} is
 * closed. The idle streams are opened as an attacker opens them: an HTTP/2 stream with the gRPC
 * headers and no message at all. Whether the service holds a stream or answered it is read from its
 * gauge of requests in flight and from the answers, so no clock decides the outcome.
 */
class FairShareIT {

  /** Long enough never to decide a passing test; it only ends a failing one. */
  private static final Duration PATIENCE = Duration.ofSeconds(30);

  private static final String CREATE_STREAM = "/vfps.api.v1.PseudonymService/CreateStream";
  private static final String CLIENT_ID = "fhir-gateway";
  private static final String CLIENT_SECRET = "a gateway's secret, long enough";
  private static final int MAX_CONCURRENT_REQUESTS = 8;

  @RegisterExtension final LogCapture log = LogCapture.of("org.vfps");

  @Test
  void aCallerWithoutRightsIsRefusedBeforeItTakesAPlaceAndCannotShutOutAnAdmin() throws Exception {
    try (Fixture fixture = new Fixture(Map.of())) {
      String nobody = fixture.bearer("nora");
      List<Future<Answer>> streams = fixture.openIdleStreams(nobody, 3 * MAX_CONCURRENT_REQUESTS);
      fixture.awaitEachHeldOrAnswered(streams);

      Reply<PseudonymServiceCreateResponse> admin = fixture.create(fixture.admin, "by-the-admin");
      assertThat(admin.status()).as(admin.message()).isEqualTo(GrpcStatus.OK);
      Response adminRest = fixture.restCreate(fixture.admin, "by-the-admin-over-rest");
      assertThat(adminRest.status()).as(adminRest.body()).isEqualTo(200);
      // none held by the caller without rights
      fixture.awaitGauge("vfps_admission_requests_in_flight", 0);
      for (Future<Answer> stream : streams) {
        Answer answer = stream.await(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertThat(answer.status()).as(answer.message()).isEqualTo(GrpcStatus.PERMISSION_DENIED);
        assertThat(answer.message()).contains("no right");
      }
      Response nobodyRest = fixture.restCreate(nobody, "by-nobody");
      assertThat(nobodyRest.status()).as(nobodyRest.body()).isEqualTo(403);
      assertThat(fixture.scrape().sum("vfps_admission_refused_total"))
          .as("refused for their rights, not for a place")
          .isZero();
      assertThat(log.atLeast(Level.ERROR)).isEmpty();
    }
  }

  @Test
  void aCallerHoldingItsShareOfIdleStreamsLeavesRoomForOthers() throws Exception {
    try (Fixture fixture = new Fixture(Map.of())) {
      String walt = fixture.bearer("walt", "study-write");
      List<Future<Answer>> streams = fixture.openIdleStreams(walt, 2 * MAX_CONCURRENT_REQUESTS);
      fixture.awaitEachHeldOrAnswered(streams);

      Reply<PseudonymServiceCreateResponse> admin = fixture.create(fixture.admin, "by-the-admin");
      assertThat(admin.status()).as(admin.message()).isEqualTo(GrpcStatus.OK);
      Response gateway = fixture.restCreate(fixture.basic(), "by-the-gateway");
      assertThat(gateway.status()).as(gateway.body()).isEqualTo(200);
      Reply<PseudonymServiceCreateResponse> own =
          fixture.create(walt, "by-walt-beside-his-streams");
      assertThat(own.status()).as("the third of walt's three places").isEqualTo(GrpcStatus.OK);

      assertThat(fixture.requestsInFlight()).as("walt's streams held").isEqualTo(2);
      List<Answer> refused = new ArrayList<>();
      for (Future<Answer> stream : streams) {
        if (stream.isComplete()) {
          refused.add(stream.result());
        }
      }
      assertThat(refused).hasSize(2 * MAX_CONCURRENT_REQUESTS - 2);
      for (Answer answer : refused) {
        assertThat(answer.status()).as(answer.message()).isEqualTo(GrpcStatus.RESOURCE_EXHAUSTED);
        assertThat(answer.message()).contains("Admission__MaxOpenStreamsPerCaller");
      }
      assertThat(
              fixture
                  .scrape()
                  .value("vfps_admission_refused_total", Map.of("limit", "caller_streams")))
          .isEqualTo(refused.size());

      fixture.resetIdleStreams();
      fixture.awaitGauge("vfps_admission_requests_in_flight", 0);
      fixture.awaitGauge("vfps_admission_callers", 0);
      assertThat(log.atLeast(Level.ERROR)).isEmpty();
    }
  }

  @Test
  void aStreamIdleLongerThanTheSettingIsClosedAndGivesItsPlaceBack() throws Exception {
    try (Fixture fixture = new Fixture(Map.of("Admission__StreamIdleTimeout", "00:00:01"))) {
      String walt = fixture.bearer("walt", "study-write");
      // one that sent a request, read its reply and then sent nothing more
      GrpcClientRequest<PseudonymServiceCreateRequest, PseudonymServiceCreateResponse> call =
          fixture
              .grpc
              .client()
              .request(fixture.grpc.address(), PseudonymServiceGrpcClient.CreateStream)
              .await(PATIENCE.toSeconds(), TimeUnit.SECONDS);
      call.headers().set("authorization", walt);
      List<PseudonymServiceCreateResponse> replies = new CopyOnWriteArrayList<>();
      Future<GrpcClientResponse<PseudonymServiceCreateRequest, PseudonymServiceCreateResponse>>
          ended =
              call.response()
                  .compose(
                      response -> {
                        response.handler(replies::add);
                        return response.end().transform(end -> Future.succeededFuture(response));
                      });
      call.write(fixture.request("streamed-then-idle"));
      // and one that never sent a message at all
      List<Future<Answer>> silent = fixture.openIdleStreams(walt, 1);

      GrpcClientResponse<PseudonymServiceCreateRequest, PseudonymServiceCreateResponse> response =
          ended.await(PATIENCE.toSeconds(), TimeUnit.SECONDS);
      assertThat(replies).hasSize(1);
      assertThat(response.status()).isEqualTo(GrpcStatus.DEADLINE_EXCEEDED);
      assertThat(message(response.trailers().get("grpc-message")))
          .contains("Admission__StreamIdleTimeout");
      Answer answer = silent.getFirst().await(PATIENCE.toSeconds(), TimeUnit.SECONDS);
      assertThat(answer.status()).as(answer.message()).isEqualTo(GrpcStatus.DEADLINE_EXCEEDED);
      assertThat(answer.message()).contains("Admission__StreamIdleTimeout");
      fixture.awaitGauge("vfps_admission_requests_in_flight", 0);
      fixture.awaitGauge("vfps_admission_callers", 0);
      assertThat(log.atLeast(Level.WARN))
          .as("a client's idle stream is no warning")
          .noneMatch(event -> event.getLoggerName().startsWith("org.vfps.grpc"));
    }
  }

  /**
   * What the service answered a stream: its status and message; a stream that failed on the
   * client's side has no status and says why, so that an assertion on it names the cause.
   */
  record Answer(GrpcStatus status, String message) {
    static Answer failed(Throwable failure) {
      return new Answer(null, "no answer: " + failure);
    }
  }

  private static String message(String encoded) {
    return encoded == null
        ? null
        : URLDecoder.decode(encoded.replace("+", "%2B"), StandardCharsets.UTF_8);
  }

  /**
   * The service with authorization on, an OIDC provider, a Basic client account and metrics, at
   * {@value #MAX_CONCURRENT_REQUESTS} requests in flight, 3 a caller and 2 open streams a caller.
   */
  private static final class Fixture implements AutoCloseable {

    final TestOidcProvider provider = new TestOidcProvider().start();
    final String namespace = "fair-" + UUID.randomUUID();
    final VfpsServer server;
    final GrpcTestClient grpc;
    final HttpTestClient http;
    final HttpTestClient metrics;
    final String admin;
    private final Vertx vertx = Vertx.vertx();
    private final HttpClient streams;
    private final List<HttpClientRequest> opened = new ArrayList<>();

    Fixture(Map<String, String> settings) {
      int metricsPort = TestService.freePort();
      Map<String, String> env = new HashMap<>();
      env.put("ConnectionStrings__PostgreSQL", TestPostgres.uri());
      env.put("MetricsPort", Integer.toString(metricsPort));
      env.put("Authorization__IsEnabled", "true");
      env.put("Authorization__Authority", provider.issuer());
      env.put("Authorization__Audience", TestOidcProvider.AUDIENCE);
      env.put("Authorization__RequireHttpsMetadata", "false");
      env.put("Authorization__AdminRoles__0", "vfps-admin");
      env.put("Authorization__NamespaceRules__0__Namespace", namespace);
      env.put("Authorization__NamespaceRules__0__WriteRoles__0", "study-write");
      env.put("Authorization__Clients__0__Id", CLIENT_ID);
      env.put(
          "Authorization__Clients__0__SecretHash",
          SecretHashing.hash(CLIENT_SECRET.toCharArray()).toString());
      env.put("Authorization__Clients__0__Roles__0", "study-write");
      env.put("Admission__MaxConcurrentRequests", Integer.toString(MAX_CONCURRENT_REQUESTS));
      env.put("Admission__MaxConcurrentRequestsPerCaller", "3");
      env.put("Admission__MaxOpenStreamsPerCaller", "2");
      env.putAll(settings);
      server = TestService.start(env);
      grpc = new GrpcTestClient(server.grpcPort());
      http = new HttpTestClient(server.httpPort());
      metrics = new HttpTestClient(metricsPort);
      admin = bearer("alice", "vfps-admin");
      streams =
          vertx
              .httpClientBuilder()
              .with(
                  new HttpClientOptions()
                      .setProtocolVersion(HttpVersion.HTTP_2)
                      .setHttp2ClearTextUpgrade(false))
              .with(new PoolOptions().setHttp2MaxSize(1))
              .build();
      Reply<?> created =
          grpc.call(
              NamespaceServiceGrpcClient.Create,
              NamespaceServiceCreateRequest.newBuilder()
                  .setName(namespace)
                  .setPseudonymLength(16)
                  .build(),
              Map.of("authorization", admin));
      assertThat(created.status()).as(created.message()).isEqualTo(GrpcStatus.OK);
    }

    String bearer(String subject, String... roles) {
      return "Bearer " + provider.token(subject, roles);
    }

    String basic() {
      return "Basic "
          + Base64.getEncoder()
              .encodeToString((CLIENT_ID + ":" + CLIENT_SECRET).getBytes(StandardCharsets.UTF_8));
    }

    PseudonymServiceCreateRequest request(String originalValue) {
      return PseudonymServiceCreateRequest.newBuilder()
          .setNamespace(namespace)
          .setOriginalValue(originalValue)
          .build();
    }

    Reply<PseudonymServiceCreateResponse> create(String authorization, String originalValue)
        throws Exception {
      return grpc.callAsync(
              PseudonymServiceGrpcClient.Create,
              request(originalValue),
              Map.of("authorization", authorization))
          .await(PATIENCE.toSeconds(), TimeUnit.SECONDS);
    }

    Response restCreate(String authorization, String originalValue) {
      return http.send(
          "POST",
          "/v1/namespaces/" + namespace + "/pseudonyms",
          Map.of("Authorization", authorization),
          new JsonObject().put("originalValue", originalValue).encode());
    }

    /**
     * Opens {@code count} {@code CreateStream} calls of the caller, all on one connection, each
     * with its headers sent and no message; each future completes when the service answers it.
     */
    List<Future<Answer>> openIdleStreams(String authorization, int count) throws Exception {
      RequestOptions options =
          new RequestOptions()
              .setMethod(HttpMethod.POST)
              .setHost("127.0.0.1")
              .setPort(server.grpcPort())
              .setURI(CREATE_STREAM)
              .putHeader("content-type", "application/grpc")
              .putHeader("te", "trailers")
              .putHeader("authorization", authorization);
      List<Future<Answer>> answers = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        HttpClientRequest request =
            streams.request(options).await(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        // a reset of the test's own fails the request on its side, as it should
        request.exceptionHandler(reset -> {});
        request.setChunked(true);
        // the answer is listened for before the head goes out: the service may answer at once
        answers.add(
            request
                .response()
                .compose(response -> response.end().map(response))
                .map(FairShareIT.Fixture::answer)
                .recover(failure -> Future.succeededFuture(Answer.failed(failure))));
        opened.add(request);
        request.sendHead().await(PATIENCE.toSeconds(), TimeUnit.SECONDS);
      }
      return answers;
    }

    private static Answer answer(HttpClientResponse response) {
      String status = response.getHeader("grpc-status");
      String message = response.getHeader("grpc-message");
      if (status == null) {
        status = response.getTrailer("grpc-status");
        message = response.getTrailer("grpc-message");
      }
      if (status == null) {
        return new Answer(null, "HTTP " + response.statusCode() + " without a gRPC status");
      }
      return new Answer(GrpcStatus.valueOf(Integer.parseInt(status)), message(message));
    }

    /** Resets every idle stream the test opened: the client leaves them. */
    void resetIdleStreams() {
      opened.forEach(request -> request.reset());
    }

    /** Waits until the service has either answered each stream or holds a place for it. */
    void awaitEachHeldOrAnswered(List<Future<Answer>> streams) {
      await("each stream held or answered")
          .atMost(PATIENCE)
          .until(
              () ->
                  streams.stream().filter(Future::isComplete).count() + requestsInFlight()
                      == streams.size());
    }

    int requestsInFlight() {
      return (int) scrape().value("vfps_admission_requests_in_flight");
    }

    void awaitGauge(String gauge, double value) {
      await(gauge + " at " + value).atMost(PATIENCE).until(() -> scrape().value(gauge) == value);
    }

    Scrape scrape() {
      Response response = metrics.get("/metrics");
      assertThat(response.status()).isEqualTo(200);
      return Scrape.parse(response.body());
    }

    @Override
    public void close() {
      try {
        vertx.close().await();
        grpc.close();
        http.close();
        metrics.close();
        server.close();
      } finally {
        provider.close();
      }
    }
  }
}
