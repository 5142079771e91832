package org.vfps.grpc;

import io.vertx.grpc.common.GrpcStatus;

/**
 * A request message the server cannot read (too large, not a valid frame, undecodable); its message
 * completes "the message ...". {@link GrpcErrors} answers it with its status, as a client's
 * mistake.
 */
final class RejectedMessage extends RuntimeException {

  private final GrpcStatus status;

  RejectedMessage(GrpcStatus status, String problem) {
    super(problem, null, false, false);
    this.status = status;
  }

  /** The rejection of a message the server's deframer refused: over the size limit, or invalid. */
  static RejectedMessage of(Throwable invalid) {
    return invalid instanceof io.vertx.grpc.common.MessageSizeOverflowException
        ? new RejectedMessage(
            GrpcStatus.RESOURCE_EXHAUSTED,
            "is larger than " + GrpcApiVerticle.MAX_MESSAGE_BYTES + " bytes")
        : new RejectedMessage(GrpcStatus.INVALID_ARGUMENT, "is not a valid message frame");
  }

  GrpcStatus status() {
    return status;
  }
}
