package org.vfps.grpc;

import io.vertx.grpc.server.Service;
import org.vfps.access.Operation;
import org.vfps.admission.Admission;
import org.vfps.api.v1.NamespaceServiceCreateResponse;
import org.vfps.api.v1.NamespaceServiceDeleteResponse;
import org.vfps.api.v1.NamespaceServiceGetResponse;
import org.vfps.api.v1.NamespaceServiceGrpcService;
import org.vfps.auth.Authenticator;
import org.vfps.log.EdgeWarnings;
import org.vfps.namespace.NamespaceService;

/** {@code vfps.api.v1.NamespaceService} on {@link NamespaceService}. */
final class NamespaceGrpcService {

  private NamespaceGrpcService() {}

  static Service of(
      NamespaceService namespaces,
      CallObserver observer,
      Authenticator authenticator,
      Admission admission,
      EdgeWarnings warnings) {
    return new UnaryService(
            NamespaceServiceGrpcService.SERVICE_NAME,
            NamespaceServiceGrpcService.SERVICE_DESCRIPTOR,
            observer,
            authenticator,
            admission,
            warnings)
        .method(
            NamespaceServiceGrpcService.Create,
            Operation.NAMESPACE_CREATE,
            (caller, request) ->
                namespaces
                    .create(caller, ProtoMapping.toDraft(request))
                    .map(
                        created ->
                            NamespaceServiceCreateResponse.newBuilder()
                                .setNamespace(ProtoMapping.toProto(created))
                                .build()))
        .method(
            NamespaceServiceGrpcService.Get,
            Operation.NAMESPACE_GET,
            (caller, request) ->
                namespaces
                    .get(caller, request.getName())
                    .map(
                        found ->
                            NamespaceServiceGetResponse.newBuilder()
                                .setNamespace(ProtoMapping.toProto(found))
                                .build()))
        .encodedMethod(
            NamespaceServiceGrpcService.GetAll,
            Operation.NAMESPACE_GET_ALL,
            (format, caller, request, bytes) -> {
              NamespaceListPayload payload = new NamespaceListPayload(format);
              return namespaces
                  .getAll(caller, page -> bytes.reserve(payload.append(page)))
                  .map(done -> payload.finish());
            })
        .method(
            NamespaceServiceGrpcService.Delete,
            Operation.NAMESPACE_DELETE,
            (caller, request) ->
                namespaces
                    .delete(caller, request.getName())
                    .map(deleted -> NamespaceServiceDeleteResponse.getDefaultInstance()))
        .method(
            NamespaceServiceGrpcService.ListChildren,
            Operation.NAMESPACE_LIST_CHILDREN,
            (caller, request) ->
                namespaces
                    .listChildren(caller, request.getName())
                    .map(ProtoMapping::toListChildrenResponse));
  }
}
