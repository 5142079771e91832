package org.vfps.grpc;

import io.vertx.core.Handler;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.grpc.common.GrpcHeaderNames;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.server.GrpcServer;
import org.vfps.log.EdgeWarnings;

/**
 * The message encodings of the gRPC listener, checked before a call reaches the gRPC server: a call
 * whose {@code grpc-encoding} is neither {@code identity} nor {@code gzip} is answered {@code
 * UNIMPLEMENTED} with {@code grpc-accept-encoding}, as the gRPC compression spec says. A call
 * without one (or with {@code identity}) gets {@link #UNDECLARED} instead, so that a message with
 * the compressed flag set arrives labelled with it, which {@link UnaryRequests} rejects at once.
 * Vert.x's own reader throws on such a message and never answers the call.
 */
final class MessageEncodings implements Handler<HttpServerRequest> {

  /** The encoding a compressed message of a call that declares none arrives with. */
  static final String UNDECLARED = "x-vfps-undeclared";

  static final String ACCEPTED = "gzip,identity";

  private final GrpcServer grpc;
  private final EdgeWarnings warnings;

  MessageEncodings(GrpcServer grpc, EdgeWarnings warnings) {
    this.grpc = grpc;
    this.warnings = warnings;
  }

  @Override
  public void handle(HttpServerRequest request) {
    String contentType = request.getHeader(HttpHeaders.CONTENT_TYPE);
    if (contentType == null || !contentType.startsWith("application/grpc")) {
      // not gRPC: the gRPC server answers it (415)
      grpc.handle(request);
      return;
    }
    String encoding = request.getHeader(GrpcHeaderNames.GRPC_ENCODING);
    if (encoding == null || encoding.trim().equalsIgnoreCase("identity")) {
      request.headers().set(GrpcHeaderNames.GRPC_ENCODING, UNDECLARED);
    } else if (!encoding.trim().equalsIgnoreCase("gzip")) {
      warnings.malformed(
          "gRPC call of " + request.path(), "a grpc-encoding other than gzip and identity");
      request
          .response()
          .putHeader(HttpHeaders.CONTENT_TYPE, contentType)
          .putHeader(GrpcHeaderNames.GRPC_ACCEPT_ENCODING, ACCEPTED)
          .putHeader(GrpcHeaderNames.GRPC_STATUS, GrpcStatus.UNIMPLEMENTED.toString())
          .putHeader(
              GrpcHeaderNames.GRPC_MESSAGE,
              "The grpc-encoding of the call is not supported; use gzip or identity.")
          .end();
      return;
    }
    grpc.handle(request);
  }
}
