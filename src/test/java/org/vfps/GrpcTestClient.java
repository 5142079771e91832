package org.vfps;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.grpc.client.GrpcClient;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.common.ServiceMethod;
import java.nio.file.Path;
import java.util.Map;

/**
 * A real gRPC client (Vert.x, HTTP/2) for the tests, with a blocking call that returns status,
 * message, trailers and body together.
 */
public final class GrpcTestClient implements AutoCloseable {

  private final Vertx vertx = Vertx.vertx();
  private final GrpcClient client;
  private final SocketAddress address;

  public GrpcTestClient(int port) {
    this.address = SocketAddress.inetSocketAddress(port, "127.0.0.1");
    this.client = GrpcClient.client(vertx);
  }

  /**
   * A client over TLS (h2 by ALPN) that trusts only the PEM certificate {@code authority} and
   * checks the server's name.
   */
  public GrpcTestClient(int port, Path authority) {
    this.address = SocketAddress.inetSocketAddress(port, "127.0.0.1");
    this.client =
        GrpcClient.client(
            vertx,
            new HttpClientOptions()
                .setProtocolVersion(HttpVersion.HTTP_2)
                .setSsl(true)
                .setUseAlpn(true)
                .setVerifyHost(true)
                .setTrustOptions(new PemTrustOptions().addCertPath(authority.toString())));
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

  private <Req, Resp> Future<Reply<Resp>> callAsync(
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

  /** Calls the method and returns the body, failing the test unless the status is OK. */
  public <Req, Resp> Resp ok(ServiceMethod<Resp, Req> method, Req request) {
    Reply<Resp> reply = call(method, request);
    if (reply.status() != GrpcStatus.OK) {
      throw new AssertionError(
          method.methodName() + " answered " + reply.status() + ": " + reply.message());
    }
    return reply.body();
  }

  @Override
  public void close() {
    vertx.close().await();
  }
}
