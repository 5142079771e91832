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
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceGetRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceCreateResponse;
import org.vfps.api.v1.PseudonymServiceGetRequest;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.api.v1.PseudonymServiceListRequest;

/**
 * The clients of the AOT training run, in a {@link ChildJvm} that {@link AotTraining} starts, so
 * that the classes of Vert.x's gRPC and HTTP clients (about 280) are not recorded with the service.
 * {@code java -cp <class path> org.vfps.server.TrainingClients <gRPC port> <HTTP port> <metrics
 * port>} makes the calls clients make first over new connections (gRPC: create a namespace, create,
 * repeat, look up and list pseudonyms, a call that fails; REST the same; a FHIR {@code
 * $create-pseudonym}; the probes and a scrape), round after round, and exits with 0 when every call
 * answered as it should, else 1.
 */
public final class TrainingClients {

  /** Each round opens new connections, as the first clients of a fresh replica do. */
  private static final int ROUNDS = 4;

  private static final int CREATES_PER_ROUND = 50;

  private TrainingClients() {}

  public static void main(String[] args) {
    int exit = 1;
    try {
      run(Integer.parseInt(args[0]), Integer.parseInt(args[1]), Integer.parseInt(args[2]));
      exit = 0;
    } catch (RuntimeException e) {
      System.err.println(e.getMessage());
    }
    System.exit(exit);
  }

  /**
   * Makes the rounds of calls to the service on these ports of this host.
   *
   * @throws IllegalStateException when a call does not answer as it should
   */
  static void run(int grpcPort, int httpPort, int metricsPort) {
    Vertx vertx = Vertx.vertx();
    try {
      for (int round = 0; round < ROUNDS; round++) {
        grpcRound(vertx, grpcPort, round);
        httpRound(vertx, httpPort, metricsPort, round);
      }
    } finally {
      vertx.close().await();
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

  private static void httpRound(Vertx vertx, int port, int metricsPort, int round) {
    // no keep-alive: every request on a new connection
    HttpClient http = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(false));
    try {
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
      exchange(http, metricsPort, HttpMethod.GET, "/metrics", null, 200);
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
}
