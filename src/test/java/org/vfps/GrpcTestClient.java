package org.vfps;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.grpc.client.GrpcClient;
import io.vertx.grpc.client.GrpcClientOptions;
import io.vertx.grpc.client.GrpcClientResponse;
import io.vertx.grpc.common.GrpcMessageDecoder;
import io.vertx.grpc.common.GrpcMessageEncoder;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.common.ServiceMethod;
import io.vertx.grpc.common.ServiceName;
import io.vertx.grpc.health.v1.HealthCheckRequest;
import io.vertx.grpc.health.v1.HealthCheckResponse;
import java.net.URLDecoder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;

/**
 * A real gRPC client (Vert.x, HTTP/2) for the tests, with a blocking call that returns status,
 * message, trailers and body together.
 */
public final class GrpcTestClient implements AutoCloseable {

  private final Vertx vertx = Vertx.vertx();
  private final GrpcClient client;
  private final SocketAddress address;

  /** {@code grpc.health.v1.Health/Check}, which the service answers without admission control. */
  public static final ServiceMethod<HealthCheckResponse, HealthCheckRequest> HEALTH_CHECK =
      ServiceMethod.client(
          ServiceName.create("grpc.health.v1", "Health"),
          "Check",
          GrpcMessageEncoder.encoder(),
          GrpcMessageDecoder.decoder(HealthCheckResponse.newBuilder()));

  /**
   * The largest response message read: 4 MiB, the receive limit of grpc-java, .NET and grpcurl
   * (Vert.x's own default is 256 KiB, too small for a reply to a large batch).
   */
  public static final long MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

  public GrpcTestClient(int port) {
    this.address = SocketAddress.inetSocketAddress(port, "127.0.0.1");
    this.client =
        GrpcClient.client(vertx, new GrpcClientOptions().setMaxMessageSize(MAX_MESSAGE_BYTES));
  }

  /**
   * A client over TLS (h2 by ALPN) that trusts only the PEM certificate {@code authority} and
   * checks the server's name.
   */
  public GrpcTestClient(int port, Path authority) {
    this(port, tls(authority));
  }

  /**
   * As {@link #GrpcTestClient(int, Path)}, presenting the PEM client {@code certificate} with its
   * {@code key}.
   */
  public GrpcTestClient(int port, Path authority, Path certificate, Path key) {
    this(
        port,
        tls(authority)
            .setKeyCertOptions(
                new PemKeyCertOptions()
                    .setCertPath(certificate.toString())
                    .setKeyPath(key.toString())));
  }

  private GrpcTestClient(int port, HttpClientOptions options) {
    this.address = SocketAddress.inetSocketAddress(port, "127.0.0.1");
    this.client =
        GrpcClient.client(
            vertx, new GrpcClientOptions().setMaxMessageSize(MAX_MESSAGE_BYTES), options);
  }

  private static HttpClientOptions tls(Path authority) {
    return new HttpClientOptions()
        .setProtocolVersion(HttpVersion.HTTP_2)
        .setSsl(true)
        .setUseAlpn(true)
        .setVerifyHost(true)
        .setTrustOptions(new PemTrustOptions().addCertPath(authority.toString()));
  }

  /**
   * What a unary call answered; {@code trailers} also holds the headers, since a failed call
   * answers with headers only ("trailers-only").
   */
  public record Reply<Resp>(GrpcStatus status, String message, MultiMap trailers, Resp body) {}

  /** Calls the method; never throws for a non-OK status. */
  public <Req, Resp> Reply<Resp> call(ServiceMethod<Resp, Req> method, Req request) {
    return callAsync(method, request).await();
  }

  /** Calls the method with these request headers (e.g. a {@code traceparent}). */
  public <Req, Resp> Reply<Resp> call(
      ServiceMethod<Resp, Req> method, Req request, Map<String, String> headers) {
    return callAsync(method, request, headers).await();
  }

  /** Calls the method without blocking, for concurrent calls. */
  public <Req, Resp> Future<Reply<Resp>> callAsync(ServiceMethod<Resp, Req> method, Req request) {
    return callAsync(method, request, Map.of());
  }

  /** Calls the method with these request headers without blocking. */
  public <Req, Resp> Future<Reply<Resp>> callAsync(
      ServiceMethod<Resp, Req> method, Req request, Map<String, String> headers) {
    return client
        .request(address, method)
        .compose(
            call -> {
              headers.forEach(call.headers()::set);
              call.end(request);
              return call.response();
            })
        .compose(
            response ->
                response
                    .last()
                    .transform(
                        last ->
                            Future.succeededFuture(
                                new Reply<>(
                                    response.status(),
                                    response.statusMessage(),
                                    MultiMap.caseInsensitiveMultiMap()
                                        .addAll(response.headers())
                                        .addAll(response.trailers()),
                                    last.succeeded() ? last.result() : null))));
  }

  /** What a streaming call answered: status, message, trailers and every response message. */
  public record StreamReply<Resp>(
      GrpcStatus status, String message, MultiMap trailers, List<Resp> bodies) {}

  /** Sends the requests as one stream, half-closes it and collects every response. */
  public <Req, Resp> StreamReply<Resp> stream(
      ServiceMethod<Resp, Req> method, List<Req> requests, Map<String, String> headers) {
    return client
        .request(address, method)
        .compose(
            call -> {
              headers.forEach(call.headers()::set);
              requests.forEach(call::write);
              call.end();
              return call.response();
            })
        .compose(
            response -> {
              List<Resp> bodies = new ArrayList<>();
              response.handler(bodies::add);
              return response
                  .end()
                  .transform(
                      end ->
                          Future.succeededFuture(
                              new StreamReply<>(
                                  response.status(),
                                  statusMessage(response),
                                  MultiMap.caseInsensitiveMultiMap()
                                      .addAll(response.headers())
                                      .addAll(response.trailers()),
                                  List.copyOf(bodies))));
            })
        .await();
  }

  /**
   * The status message, also when it comes in the trailers after response messages, where Vert.x's
   * client does not look.
   */
  private static String statusMessage(GrpcClientResponse<?, ?> response) {
    if (response.statusMessage() != null) {
      return response.statusMessage();
    }
    String trailer = response.trailers().get("grpc-message");
    return trailer == null ? null : URLDecoder.decode(trailer.replace("+", "%2B"), UTF_8);
  }

  /** The underlying client, for calls the helpers do not cover (flow control, cancellation). */
  public GrpcClient client() {
    return client;
  }

  /** The server's address. */
  public SocketAddress address() {
    return address;
  }

  /** Calls the method and returns the body, failing the test unless the status is OK. */
  public <Req, Resp> Resp ok(ServiceMethod<Resp, Req> method, Req request) {
    return ok(method, request, Map.of());
  }

  /** As {@link #ok(ServiceMethod, Object)}, with these request headers (an authorization). */
  public <Req, Resp> Resp ok(
      ServiceMethod<Resp, Req> method, Req request, Map<String, String> headers) {
    Reply<Resp> reply = call(method, request, headers);
    if (reply.status() != GrpcStatus.OK) {
      throw new AssertionError(
          method.methodName() + " answered " + reply.status() + ": " + reply.message());
    }
    return reply.body();
  }

  /**
   * Creates a namespace with pseudonyms of length 8 and a name of {@code prefix} and a random UUID,
   * and returns the name.
   */
  public String createNamespace(String prefix) {
    String namespace = prefix + UUID.randomUUID();
    ok(
        NamespaceServiceGrpcClient.Create,
        NamespaceServiceCreateRequest.newBuilder()
            .setName(namespace)
            .setPseudonymLength(8)
            .build());
    return namespace;
  }

  @Override
  public void close() {
    vertx.close().await();
  }
}
