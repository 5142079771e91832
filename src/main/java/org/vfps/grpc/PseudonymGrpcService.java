package org.vfps.grpc;

import io.vertx.grpc.server.Service;
import java.util.OptionalLong;
import org.vfps.access.Operation;
import org.vfps.admission.Admission;
import org.vfps.api.v1.PseudonymServiceGetResponse;
import org.vfps.api.v1.PseudonymServiceGrpcService;
import org.vfps.auth.Authenticator;
import org.vfps.log.EdgeWarnings;
import org.vfps.pseudonym.PseudonymService;

/** {@code vfps.api.v1.PseudonymService} on {@link PseudonymService}. */
final class PseudonymGrpcService {

  private PseudonymGrpcService() {}

  static Service of(
      PseudonymService pseudonyms,
      CallObserver observer,
      Authenticator authenticator,
      Admission admission,
      EdgeWarnings warnings) {
    return new UnaryService(
            PseudonymServiceGrpcService.SERVICE_NAME,
            PseudonymServiceGrpcService.SERVICE_DESCRIPTOR,
            observer,
            authenticator,
            admission,
            warnings)
        .method(
            PseudonymServiceGrpcService.Create,
            Operation.PSEUDONYM_CREATE,
            (caller, request) ->
                pseudonyms
                    .createCounted(
                        caller,
                        request.getNamespace(),
                        request.getOriginalValue(),
                        request.hasCount()
                            ? OptionalLong.of(request.getCount())
                            : OptionalLong.empty())
                    .map(ProtoMapping::toCreateResponse))
        .method(
            PseudonymServiceGrpcService.Resolve,
            Operation.PSEUDONYM_RESOLVE,
            (caller, request) ->
                pseudonyms
                    .resolve(caller, request.getNamespace(), request.getOriginalValue())
                    .map(ProtoMapping::toResolveResponse))
        .method(
            PseudonymServiceGrpcService.Get,
            Operation.PSEUDONYM_GET,
            (caller, request) ->
                pseudonyms
                    .get(caller, request.getNamespace(), request.getPseudonymValue())
                    .map(
                        found ->
                            PseudonymServiceGetResponse.newBuilder()
                                .setPseudonym(ProtoMapping.toProto(found))
                                .build()))
        .method(
            PseudonymServiceGrpcService.BatchCreate,
            Operation.PSEUDONYM_BATCH_CREATE,
            (caller, request) ->
                pseudonyms
                    .createAll(caller, request.getNamespace(), request.getOriginalValuesList())
                    .map(
                        created ->
                            ProtoMapping.toBatchCreateResponse(request.getNamespace(), created)))
        .method(
            PseudonymServiceGrpcService.BatchGet,
            Operation.PSEUDONYM_BATCH_GET,
            (caller, request) ->
                pseudonyms
                    .getAll(caller, request.getNamespace(), request.getPseudonymValuesList())
                    .map(found -> ProtoMapping.toBatchGetResponse(request.getNamespace(), found)))
        .streaming(
            PseudonymServiceGrpcService.CreateStream,
            Operation.PSEUDONYM_CREATE_STREAM,
            (caller, call, deadline) ->
                new CreateStreamCall(
                        call,
                        PseudonymServiceGrpcService.CreateStream.decoder(),
                        caller,
                        pseudonyms,
                        observer,
                        deadline,
                        admission.streamIdleTimeout(),
                        warnings)
                    .serve())
        .method(
            PseudonymServiceGrpcService.List,
            Operation.PSEUDONYM_LIST,
            (caller, request) ->
                pseudonyms
                    .list(
                        caller,
                        request.getNamespace(),
                        request.getPageSize(),
                        request.getPageToken(),
                        request.getIncludeTotalSize())
                    .map(ProtoMapping::toListResponse));
  }
}
