package org.vfps.rpc;

import io.vertx.core.Future;
import io.vertx.grpc.common.ServiceMethod;
import java.util.List;
import java.util.function.Function;
import org.vfps.access.Caller;
import org.vfps.access.Operation;
import org.vfps.api.v1.NamespaceServiceGetAllRequest;
import org.vfps.api.v1.NamespaceServiceGetAllResponse;
import org.vfps.namespace.Namespace;

/**
 * The namespace list ({@code NamespaceService.GetAll}), whose request is empty and whose reply the
 * domain hands over a page at a time: each edge writes the pages as they come (the gRPC edge into
 * one encoded message, the REST edge as a chunked JSON body), so that a reply never holds the whole
 * list as objects.
 *
 * @param list reads the list, handing each page to the writer and waiting for the future the writer
 *     returns before it reads the next
 */
public record PagedListMethod(
    ServiceMethod<NamespaceServiceGetAllRequest, NamespaceServiceGetAllResponse> method,
    Operation permission,
    PagedCall list)
    implements ApiMethod {

  /** The domain's paged read. */
  @FunctionalInterface
  public interface PagedCall {
    Future<Void> apply(Caller caller, Function<List<Namespace>, Future<?>> writer);
  }
}
