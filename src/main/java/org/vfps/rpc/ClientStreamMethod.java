package org.vfps.rpc;

import io.vertx.core.Future;
import io.vertx.grpc.common.ServiceMethod;
import org.vfps.access.Caller;
import org.vfps.access.Operation;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceCreateResponse;
import org.vfps.pseudonym.Pseudonym;

/**
 * {@code PseudonymService.CreateStream}: a bidirectional gRPC stream of creates, gRPC only (its
 * HTTP rule has no REST route), served by the gRPC edge, which calls {@link #create} once per
 * request message.
 */
public record ClientStreamMethod(
    ServiceMethod<PseudonymServiceCreateRequest, PseudonymServiceCreateResponse> method,
    Operation permission,
    StreamedCreate create)
    implements ApiMethod {

  /** The pseudonym of one original value of the stream, created when it is new. */
  @FunctionalInterface
  public interface StreamedCreate {
    Future<Pseudonym> apply(Caller caller, String namespace, String originalValue);
  }
}
