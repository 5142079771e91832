package org.vfps.grpc;

import io.vertx.grpc.server.Service;
import org.vfps.api.v1.PseudonymServiceCreateResponse;
import org.vfps.api.v1.PseudonymServiceGetResponse;
import org.vfps.api.v1.PseudonymServiceGrpcService;
import org.vfps.pseudonym.PseudonymService;

/** {@code vfps.api.v1.PseudonymService} on {@link PseudonymService}. */
final class PseudonymGrpcService {

  private PseudonymGrpcService() {}

  static Service of(PseudonymService pseudonyms, CallObserver observer) {
    return new UnaryService(
            PseudonymServiceGrpcService.SERVICE_NAME,
            PseudonymServiceGrpcService.SERVICE_DESCRIPTOR,
            observer)
        .method(
            PseudonymServiceGrpcService.Create,
            request ->
                pseudonyms
                    .create(request.getNamespace(), request.getOriginalValue())
                    .map(
                        created ->
                            PseudonymServiceCreateResponse.newBuilder()
                                .setPseudonym(ProtoMapping.toProto(created))
                                .build()))
        .method(
            PseudonymServiceGrpcService.Get,
            request ->
                pseudonyms
                    .get(request.getNamespace(), request.getPseudonymValue())
                    .map(
                        found ->
                            PseudonymServiceGetResponse.newBuilder()
                                .setPseudonym(ProtoMapping.toProto(found))
                                .build()))
        .method(
            PseudonymServiceGrpcService.List,
            request ->
                pseudonyms
                    .list(
                        request.getNamespace(),
                        request.getPageSize(),
                        request.getPageToken(),
                        request.getIncludeTotalSize())
                    .map(ProtoMapping::toListResponse));
  }
}
