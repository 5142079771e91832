package org.vfps.rpc;

import com.google.protobuf.Message;
import io.vertx.core.Future;
import io.vertx.grpc.common.ServiceMethod;
import org.vfps.access.Caller;
import org.vfps.access.Operation;

/**
 * A method with one request and one reply, served alike by both edges: the gRPC edge decodes the
 * request message, the REST edge builds it from the path, the query and the JSON body; both call
 * {@link #call} and write its reply.
 *
 * @param requestPrototype the request message's default instance, from which the REST edge builds a
 *     request
 * @param call the domain's work: may fail its future or throw, with a {@code ServiceException}
 */
public record UnaryMethod<Req extends Message, Resp extends Message>(
    ServiceMethod<Req, Resp> method,
    Req requestPrototype,
    Operation permission,
    Call<Req, Resp> call)
    implements ApiMethod {

  /** The call of a unary method into the domain, mapping its result to the reply. */
  @FunctionalInterface
  public interface Call<Req, Resp> {
    Future<Resp> apply(Caller caller, Req request);
  }
}
