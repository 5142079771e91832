package org.vfps.rpc;

import io.vertx.grpc.common.GrpcStatus;
import org.vfps.error.ServiceException;

/**
 * The one mapping from {@code ErrorCode} to a gRPC status code: the gRPC edge answers a failure
 * with it, the REST edge with it and the HTTP status the .NET transcoding gives it.
 */
public final class FailureStatus {

  private FailureStatus() {}

  /** The gRPC status of a domain failure. */
  public static GrpcStatus of(ServiceException failure) {
    return switch (failure.code()) {
      case INVALID_ARGUMENT, PATTERN_MISMATCH -> GrpcStatus.INVALID_ARGUMENT;
      case OUT_OF_RANGE -> GrpcStatus.OUT_OF_RANGE;
      case NOT_FOUND, WITHDRAWN -> GrpcStatus.NOT_FOUND;
      case ALREADY_EXISTS -> GrpcStatus.ALREADY_EXISTS;
      case FAILED_PRECONDITION -> GrpcStatus.FAILED_PRECONDITION;
      case UNAUTHENTICATED -> GrpcStatus.UNAUTHENTICATED;
      case PERMISSION_DENIED -> GrpcStatus.PERMISSION_DENIED;
      case RESOURCE_EXHAUSTED, OVERLOADED -> GrpcStatus.RESOURCE_EXHAUSTED;
      case DEADLINE_EXCEEDED -> GrpcStatus.DEADLINE_EXCEEDED;
      case UNAVAILABLE -> GrpcStatus.UNAVAILABLE;
      case INTERNAL -> GrpcStatus.INTERNAL;
    };
  }
}
