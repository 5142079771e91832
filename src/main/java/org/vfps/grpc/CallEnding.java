package org.vfps.grpc;

import io.vertx.grpc.server.GrpcServerRequest;

/**
 * The end of one call, reported once: by the service with its reply, or by the client, which reset
 * the stream (it cancelled the call, or its deadline passed) or lost the connection first. A call
 * the client has left is not answered, since its stream is gone. Used on the call's context only.
 */
final class CallEnding {

  private boolean ended;

  /**
   * Watches the call; {@code whenClientLeaves} runs if the client leaves before the service ends
   * the call.
   */
  CallEnding(GrpcServerRequest<?, ?> call, Runnable whenClientLeaves) {
    Runnable left =
        () -> {
          if (!ended) {
            ended = true;
            whenClientLeaves.run();
          }
        };
    call.errorHandler(error -> left.run());
    call.exceptionHandler(failure -> left.run());
  }

  /** Ends the call on the service's side; false when the client has left it already. */
  boolean end() {
    if (ended) {
      return false;
    }
    ended = true;
    return true;
  }
}
