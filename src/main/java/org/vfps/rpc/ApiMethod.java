package org.vfps.rpc;

import io.vertx.grpc.common.ServiceMethod;
import org.vfps.access.Operation;

/**
 * A method of the API, of one of three kinds: a {@link UnaryMethod} (one request, one reply) is
 * served alike by both edges; a {@link PagedListMethod} hands its reply over page by page, which
 * each edge writes as it comes; a {@link ClientStreamMethod} is a gRPC stream, with no REST route.
 */
public sealed interface ApiMethod permits UnaryMethod, PagedListMethod, ClientStreamMethod {

  /** The gRPC method: its service and name, and its messages' codecs. */
  ServiceMethod<?, ?> method();

  /** What a caller must be allowed to do to call the method at all. */
  Operation permission();

  /** The id of the method's operation in the REST contract: {@code <Service>_<Method>}. */
  default String operationId() {
    return operationId(method());
  }

  /** The id of the method's operation in the REST contract: {@code <Service>_<Method>}. */
  static String operationId(ServiceMethod<?, ?> method) {
    return method.serviceName().name() + "_" + method.methodName();
  }
}
