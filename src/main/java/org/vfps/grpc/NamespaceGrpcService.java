package org.vfps.grpc;

import io.vertx.grpc.server.Service;
import org.vfps.api.v1.NamespaceServiceCreateResponse;
import org.vfps.api.v1.NamespaceServiceDeleteResponse;
import org.vfps.api.v1.NamespaceServiceGetResponse;
import org.vfps.api.v1.NamespaceServiceGrpcService;
import org.vfps.namespace.NamespaceService;

/** {@code vfps.api.v1.NamespaceService} on {@link NamespaceService}. */
final class NamespaceGrpcService {

  private NamespaceGrpcService() {}

  static Service of(NamespaceService namespaces, CallObserver observer) {
    return new UnaryService(
            NamespaceServiceGrpcService.SERVICE_NAME,
            NamespaceServiceGrpcService.SERVICE_DESCRIPTOR,
            observer)
        .method(
            NamespaceServiceGrpcService.Create,
            request ->
                namespaces
                    .create(ProtoMapping.toDraft(request))
                    .map(
                        created ->
                            NamespaceServiceCreateResponse.newBuilder()
                                .setNamespace(ProtoMapping.toProto(created))
                                .build()))
        .method(
            NamespaceServiceGrpcService.Get,
            request ->
                namespaces
                    .get(request.getName())
                    .map(
                        found ->
                            NamespaceServiceGetResponse.newBuilder()
                                .setNamespace(ProtoMapping.toProto(found))
                                .build()))
        .method(
            NamespaceServiceGrpcService.GetAll,
            request -> namespaces.getAll().map(ProtoMapping::toGetAllResponse))
        .method(
            NamespaceServiceGrpcService.Delete,
            request ->
                namespaces
                    .delete(request.getName())
                    .map(deleted -> NamespaceServiceDeleteResponse.getDefaultInstance()));
  }
}
