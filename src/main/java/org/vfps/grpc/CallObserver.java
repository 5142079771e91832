package org.vfps.grpc;

import io.vertx.grpc.common.GrpcStatus;

/**
 * Sees each call of the vfps services (not health or reflection) start and complete, for metrics
 * and tracing. Both methods run on the call's Vert.x context, the second one just before the reply
 * is sent; implementations must be thread-safe and must not block or throw.
 */
public interface CallObserver {

  /** Observes nothing. */
  CallObserver NONE =
      new CallObserver() {
        @Override
        public void started(String service, String method) {}

        @Override
        public void completed(String service, String method, GrpcStatus status, long nanos) {}
      };

  /**
   * A call arrived.
   *
   * @param service the fully qualified service name, e.g. {@code vfps.api.v1.PseudonymService}
   * @param method the method name, e.g. {@code Create}
   */
  void started(String service, String method);

  /** The call is answered with {@code status}, {@code nanos} after it started. */
  void completed(String service, String method, GrpcStatus status, long nanos);

  /** A streaming call read one request message. */
  default void received(String service, String method) {}

  /** A streaming call wrote one response message. */
  default void sent(String service, String method) {}

  /** An observer that tells this one, then {@code next}. */
  default CallObserver andThen(CallObserver next) {
    CallObserver first = this;
    return new CallObserver() {
      @Override
      public void started(String service, String method) {
        first.started(service, method);
        next.started(service, method);
      }

      @Override
      public void completed(String service, String method, GrpcStatus status, long nanos) {
        first.completed(service, method, status, nanos);
        next.completed(service, method, status, nanos);
      }

      @Override
      public void received(String service, String method) {
        first.received(service, method);
        next.received(service, method);
      }

      @Override
      public void sent(String service, String method) {
        first.sent(service, method);
        next.sent(service, method);
      }
    };
  }
}
