package org.vfps.server;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.SocketAddress;
import io.vertx.grpc.client.GrpcClient;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.common.ServiceMethod;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceGetRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceCreateResponse;
import org.vfps.api.v1.PseudonymServiceGetRequest;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.api.v1.PseudonymServiceListRequest;
import org.vfps.config.ConfigLoader;

/**
 * The training run behind {@code vfps train}: starts the service, with metrics, on a {@link
 * TrainingDatabase} (embedded, in a scratch directory and a JVM of its own, migrated, reached over
 * TLS with a password, so that the service starts as it does against a production database), makes
 * the calls clients make first over new connections (gRPC: create a namespace, create, repeat, look
 * up and list pseudonyms, a call that fails; REST the same; a FHIR {@code $create-pseudonym}; the
 * probes and a scrape), and stops. Run under {@code -XX:AOTCacheOutput=vfps.aot}, it records the
 * AOT cache that makes later starts and first requests fast; the build does this for the jar it
 * makes. A call that does not answer as it should fails the run, so the cache is never trained on a
 * broken path.
 */
public final class AotTraining {

  /** Each round opens new connections, as the first clients of a fresh replica do. */
  private static final int ROUNDS = 4;

  private static final int CREATES_PER_ROUND = 50;

  private AotTraining() {}

  public static void run() throws Exception {
    Path scratch = Files.createTempDirectory("vfps-aot-training");
    try (TrainingDatabase.Launched database = TrainingDatabase.launch(scratch)) {
      VfpsServer server =
          VfpsServer.start(
              ConfigLoader.load(
                  Map.of(
                      "ConnectionStrings__PostgreSQL",
                      database.connectionString(),
                      "Grpc__Port",
                      "0",
                      "Http__Port",
                      "0",
                      "MetricsPort",
                      Integer.toString(freePort()))));
      Vertx vertx = Vertx.vertx();
      try {
        for (int round = 0; round < ROUNDS; round++) {
          grpcRound(vertx, server.grpcPort(), round);
          httpRound(vertx, server, round);
        }
      } finally {
        vertx.close().await();
        server.close();
      }
    } finally {
      // empty by now: closing the database removed its data directory
      Files.deleteIfExists(scratch);
    }
  }

  private static void grpcRound(Vertx vertx, int port, int round) {
    GrpcClient client = GrpcClient.client(vertx);
    SocketAddress address = SocketAddress.inetSocketAddress(port, "127.0.0.1");
    try {
      String namespace = "grpc-" + round;
      call(
          client,
          address,
          NamespaceServiceGrpcClient.Create,
          NamespaceServiceCreateRequest.newBuilder()
              .setName(namespace)
              .setPseudonymLength(32)
              .build());
      call(
          client,
          address,
          NamespaceServiceGrpcClient.Get,
          NamespaceServiceGetRequest.newBuilder().setName(namespace).build());
      PseudonymServiceCreateResponse created = null;
      for (int i = 0; i < CREATES_PER_ROUND; i++) {
        created =
            call(
                client,
                address,
                PseudonymServiceGrpcClient.Create,
                PseudonymServiceCreateRequest.newBuilder()
                    .setNamespace(namespace)
                    .setOriginalValue("value-" + (i % (CREATES_PER_ROUND / 2)))
                    .build());
      }
      call(
          client,
          address,
          PseudonymServiceGrpcClient.Get,
          PseudonymServiceGetRequest.newBuilder()
              .setNamespace(namespace)
              .setPseudonymValue(created.getPseudonym().getPseudonymValue())
              .build());
      call(
          client,
          address,
          PseudonymServiceGrpcClient.List,
          PseudonymServiceListRequest.newBuilder()
              .setNamespace(namespace)
              .setPageSize(10)
              .setIncludeTotalSize(true)
              .build());
      GrpcStatus missing =
          client
              .request(address, PseudonymServiceGrpcClient.Create)
              .compose(
                  request -> {
                    request.end(
                        PseudonymServiceCreateRequest.newBuilder()
                            .setNamespace("missing")
                            .setOriginalValue("x")
                            .build());
                    return request.response();
                  })
              .compose(
                  response ->
                      response.last().transform(done -> Future.succeededFuture(response.status())))
              .await();
      expect(missing == GrpcStatus.NOT_FOUND, "gRPC Create in a missing namespace: " + missing);
    } finally {
      client.close().await();
    }
  }

  private static <Req, Resp> Resp call(
      GrpcClient client, SocketAddress address, ServiceMethod<Resp, Req> method, Req request) {
    return client
        .request(address, method)
        .compose(
            call -> {
              call.end(request);
              return call.response();
            })
        .compose(response -> response.last())
        .await();
  }

  private static void httpRound(Vertx vertx, VfpsServer server, int round) {
    // no keep-alive: every request on a new connection
    HttpClient http = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(false));
    try {
      int port = server.httpPort();
      String namespace = "rest-" + round;
      exchange(http, port, HttpMethod.GET, "/livez", null, 200);
      exchange(http, port, HttpMethod.GET, "/readyz", null, 200);
      exchange(
          http,
          port,
          HttpMethod.POST,
          "/v1/namespaces",
          new JsonObject().put("name", namespace).put("pseudonymLength", 32),
          200);
      String pseudonym = null;
      for (int i = 0; i < CREATES_PER_ROUND / 5; i++) {
        pseudonym =
            exchange(
                    http,
                    port,
                    HttpMethod.POST,
                    "/v1/namespaces/" + namespace + "/pseudonyms",
                    new JsonObject().put("originalValue", "value-" + (i % 5)),
                    200)
                .toJsonObject()
                .getJsonObject("pseudonym")
                .getString("pseudonymValue");
      }
      exchange(
          http,
          port,
          HttpMethod.GET,
          "/v1/namespaces/" + namespace + "/pseudonyms/" + pseudonym,
          null,
          200);
      exchange(
          http,
          port,
          HttpMethod.GET,
          "/v1/namespaces/" + namespace + "/pseudonyms?pageSize=5&includeTotalSize=true",
          null,
          200);
      exchange(http, port, HttpMethod.GET, "/v1/namespaces/missing", null, 404);
      for (int i = 0; i < CREATES_PER_ROUND / 5; i++) {
        exchange(
            http,
            port,
            HttpMethod.POST,
            "/v1/fhir/$create-pseudonym",
            new JsonObject()
                .put("resourceType", "Parameters")
                .put(
                    "parameter",
                    new JsonArray()
                        .add(
                            new JsonObject().put("name", "namespace").put("valueString", namespace))
                        .add(
                            new JsonObject()
                                .put("name", "originalValue")
                                .put("valueString", "fhir-" + (i % 5)))),
            200);
      }
      exchange(http, port, HttpMethod.GET, "/v1/fhir/metadata", null, 200);
      exchange(http, server.metricsPort(), HttpMethod.GET, "/metrics", null, 200);
    } finally {
      http.close().await();
    }
  }

  /** Sends the request (a JSON body when not null) and yields the body of the expected answer. */
  private static Buffer exchange(
      HttpClient http, int port, HttpMethod method, String path, JsonObject body, int status) {
    Buffer answer =
        http.request(method, port, "127.0.0.1", path)
            .compose(
                request -> {
                  if (body == null) {
                    return request.send();
                  }
                  return request
                      .putHeader("content-type", "application/json")
                      .send(body.toBuffer());
                })
            .compose(
                response ->
                    response
                        .body()
                        .map(
                            received -> {
                              expect(
                                  response.statusCode() == status,
                                  method + " " + path + ": " + response.statusCode());
                              return received;
                            }))
            .await();
    return answer;
  }

  private static void expect(boolean condition, String what) {
    if (!condition) {
      throw new IllegalStateException("The training run got an unexpected answer: " + what);
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
