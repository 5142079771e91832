package org.vfps.voprf.server;

import io.vertx.grpc.common.GrpcStatus;

/** A call refused with a status and a message meant for the caller; never logged as an error. */
final class RefusedVoprfCall extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final transient GrpcStatus status;

  RefusedVoprfCall(GrpcStatus status, String message) {
    super(message, null, false, false);
    this.status = status;
  }

  GrpcStatus status() {
    return status;
  }
}
