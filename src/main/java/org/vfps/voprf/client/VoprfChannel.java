package org.vfps.voprf.client;

import com.google.protobuf.ByteString;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.grpc.client.GrpcClient;
import io.vertx.grpc.client.GrpcClientOptions;
import io.vertx.grpc.client.GrpcClientResponse;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.common.ServiceMethod;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.vfps.api.voprf.v1.VoprfServiceBlindEvaluateRequest;
import org.vfps.api.voprf.v1.VoprfServiceBlindEvaluateResponse;
import org.vfps.api.voprf.v1.VoprfServiceGetPublicKeyRequest;
import org.vfps.api.voprf.v1.VoprfServiceGetPublicKeyResponse;
import org.vfps.api.voprf.v1.VoprfServiceGrpcClient;
import org.vfps.config.VoprfConfig;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/**
 * The calls to the VOPRF server, each with the configured deadline, TLS and bearer token. Futures
 * fail with {@link ServiceException}: {@code UNAVAILABLE} when the server cannot be reached or does
 * not answer in time, {@code OVERLOADED} when its rate limit refuses the call, {@code INTERNAL}
 * when it refuses vfps's credentials or the request (a misconfiguration, e.g. {@code
 * Voprf__MaxBatchSize} above the server's cap). Thread-safe.
 */
final class VoprfChannel {

  private final Vertx vertx;
  private final GrpcClient client;
  private final SocketAddress server;
  private final long timeoutMillis;
  private final VoprfConfig config;

  private VoprfChannel(Vertx vertx, GrpcClient client, SocketAddress server, VoprfConfig config) {
    this.vertx = vertx;
    this.client = client;
    this.server = server;
    this.timeoutMillis = Math.max(1, config.timeout().toMillis());
    this.config = config;
  }

  /** A channel to the configured server; connects at the first call. */
  static VoprfChannel open(Vertx vertx, VoprfConfig config) {
    URI address = config.address().orElseThrow();
    boolean tls = config.tls();
    HttpClientOptions http =
        new HttpClientOptions()
            .setProtocolVersion(HttpVersion.HTTP_2)
            .setHttp2ClearTextUpgrade(false)
            .setSsl(tls)
            .setConnectTimeout((int) Math.min(Integer.MAX_VALUE, config.timeout().toMillis()));
    if (tls) {
      http.setUseAlpn(true);
      config
          .trustedCertificatesPath()
          .ifPresent(path -> http.setTrustOptions(new PemTrustOptions().addCertPath(text(path))));
      config
          .clientCertificatePath()
          .ifPresent(
              certificate ->
                  http.setKeyCertOptions(
                      new PemKeyCertOptions()
                          .setCertPath(text(certificate))
                          .setKeyPath(text(config.clientKeyPath().orElseThrow()))));
    }
    int port = address.getPort() > 0 ? address.getPort() : (tls ? 443 : 80);
    GrpcClient client =
        GrpcClient.client(
            vertx, new GrpcClientOptions().setScheduleDeadlineAutomatically(true), http);
    return new VoprfChannel(
        vertx, client, SocketAddress.inetSocketAddress(port, address.getHost()), config);
  }

  /** {@code BlindEvaluate} of the elements, in order. */
  Future<VoprfServiceBlindEvaluateResponse> blindEvaluate(List<byte[]> elements) {
    VoprfServiceBlindEvaluateRequest.Builder request =
        VoprfServiceBlindEvaluateRequest.newBuilder();
    for (byte[] element : elements) {
      request.addBlindedElements(ByteString.copyFrom(element));
    }
    return call(VoprfServiceGrpcClient.BlindEvaluate, request.build());
  }

  /** {@code GetPublicKey}. */
  Future<VoprfServiceGetPublicKeyResponse> getPublicKey() {
    return call(
        VoprfServiceGrpcClient.GetPublicKey, VoprfServiceGetPublicKeyRequest.getDefaultInstance());
  }

  Future<Void> close() {
    return client.close();
  }

  private <Q, R> Future<R> call(ServiceMethod<R, Q> method, Q request) {
    return bearerToken()
        .compose(
            token ->
                client
                    .request(server, method)
                    .compose(
                        call -> {
                          call.timeout(timeoutMillis, TimeUnit.MILLISECONDS);
                          if (token != null) {
                            call.headers().set("authorization", "Bearer " + token);
                          }
                          return call.send(request).compose(VoprfChannel::last);
                        }))
        .recover(failure -> Future.failedFuture(translate(failure)));
  }

  /** The single answer of a unary call, or its status as a {@link ServiceException}. */
  private static <Q, R> Future<R> last(GrpcClientResponse<Q, R> response) {
    return response
        .last()
        .recover(
            failure -> {
              GrpcStatus status = response.status();
              if (status == null || status == GrpcStatus.OK) {
                return Future.failedFuture(failure);
              }
              return Future.failedFuture(refused(status, response.statusMessage()));
            });
  }

  /** The server's refusal in vfps's terms; its message names no value (it never sees one). */
  private static ServiceException refused(GrpcStatus status, String message) {
    String said = message == null || message.isBlank() ? "" : ": " + message;
    return switch (status) {
      case UNAVAILABLE, DEADLINE_EXCEEDED, CANCELLED, ABORTED ->
          new ServiceException(
              ErrorCode.UNAVAILABLE,
              "The VOPRF server did not evaluate the values (" + status + ").");
      case RESOURCE_EXHAUSTED ->
          new ServiceException(
              ErrorCode.OVERLOADED,
              "The VOPRF server refused the call (RESOURCE_EXHAUSTED, its rate limit); retry"
                  + " later.");
      case UNAUTHENTICATED, PERMISSION_DENIED ->
          new ServiceException(
              ErrorCode.INTERNAL,
              "The VOPRF server refused vfps's credentials ("
                  + status
                  + said
                  + "): check Voprf__Tls__* or Voprf__BearerTokenPath against the server's"
                  + " authentication.");
      default ->
          new ServiceException(
              ErrorCode.INTERNAL, "The VOPRF server refused the call (" + status + said + ").");
    };
  }

  private static ServiceException translate(Throwable failure) {
    if (failure instanceof ServiceException service) {
      return service;
    }
    // a connection refused, reset or timed out: the cause's class is logged, never its message
    return new ServiceException(
        ErrorCode.UNAVAILABLE, "The VOPRF server cannot be reached.", Map.of(), failure);
  }

  /** The token file's content, read anew at each call (a projected token is renewed); or null. */
  private Future<String> bearerToken() {
    if (config.bearerTokenPath().isEmpty()) {
      return Future.succeededFuture(null);
    }
    String path = config.bearerTokenPath().get().toString();
    return vertx
        .fileSystem()
        .readFile(path)
        .map(buffer -> buffer.toString(StandardCharsets.UTF_8).strip())
        .recover(
            failure ->
                Future.failedFuture(
                    new ServiceException(
                        ErrorCode.INTERNAL,
                        "Voprf__BearerTokenPath cannot be read: "
                            + failure.getClass().getSimpleName())));
  }

  private static String text(Path path) {
    return path.toString();
  }
}
