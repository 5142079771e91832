package org.vfps.rpc;

import java.util.List;
import java.util.OptionalLong;
import org.vfps.access.AccessAdmin;
import org.vfps.access.Operation;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceCreateResponse;
import org.vfps.api.v1.NamespaceServiceDeleteRequest;
import org.vfps.api.v1.NamespaceServiceDeleteResponse;
import org.vfps.api.v1.NamespaceServiceGetRequest;
import org.vfps.api.v1.NamespaceServiceGetResponse;
import org.vfps.api.v1.NamespaceServiceGrpcService;
import org.vfps.api.v1.NamespaceServiceListChildrenRequest;
import org.vfps.api.v1.PseudonymServiceBatchCreateRequest;
import org.vfps.api.v1.PseudonymServiceBatchGetRequest;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceGetRequest;
import org.vfps.api.v1.PseudonymServiceGetResponse;
import org.vfps.api.v1.PseudonymServiceGrpcService;
import org.vfps.api.v1.PseudonymServiceListRequest;
import org.vfps.api.v1.PseudonymServiceResolveRequest;
import org.vfps.api.x.access.v1.AccessServiceGrpcService;
import org.vfps.api.x.access.v1.CreateAccessTokenRequest;
import org.vfps.api.x.access.v1.CreateGrantRequest;
import org.vfps.api.x.access.v1.CreateServiceAccountRequest;
import org.vfps.api.x.access.v1.DeleteAccessTokenRequest;
import org.vfps.api.x.access.v1.DeleteAccessTokenResponse;
import org.vfps.api.x.access.v1.DeleteGrantRequest;
import org.vfps.api.x.access.v1.DeleteGrantResponse;
import org.vfps.api.x.access.v1.DeleteServiceAccountRequest;
import org.vfps.api.x.access.v1.DeleteServiceAccountResponse;
import org.vfps.api.x.access.v1.ListAccessTokensRequest;
import org.vfps.api.x.access.v1.ListGrantsRequest;
import org.vfps.api.x.access.v1.ListServiceAccountsRequest;
import org.vfps.api.x.access.v1.RevokeAccessTokenRequest;
import org.vfps.api.x.access.v1.UpdateGrantRequest;
import org.vfps.api.x.csvjobs.v1.CancelCsvJobRequest;
import org.vfps.api.x.csvjobs.v1.CreateCsvJobRequest;
import org.vfps.api.x.csvjobs.v1.CsvJobServiceGrpcService;
import org.vfps.api.x.csvjobs.v1.GetCsvJobRequest;
import org.vfps.api.x.csvjobs.v1.ListCsvJobsRequest;
import org.vfps.api.x.csvjobs.v1.StartCsvJobRequest;
import org.vfps.api.x.withdrawal.v1.AnonymizeOriginalRequest;
import org.vfps.api.x.withdrawal.v1.BatchAnonymizeOriginalsRequest;
import org.vfps.api.x.withdrawal.v1.BatchDeletePseudonymsRequest;
import org.vfps.api.x.withdrawal.v1.DeletePseudonymsRequest;
import org.vfps.api.x.withdrawal.v1.WithdrawalServiceGrpcService;
import org.vfps.job.CsvJobService;
import org.vfps.namespace.NamespaceService;
import org.vfps.pseudonym.PseudonymService;
import org.vfps.pseudonym.Withdrawal;

/**
 * The table of the API's methods: the five gRPC services, each method once, with its request
 * message, its permission, its call into the domain service and the mapping of its result to the
 * reply. Both edges bind every entry, so a new method is one entry here (and, for REST, its
 * operation in the contract). The calls reach the services only when they run, so a table built on
 * no services ({@code null}s) still lists every method.
 */
public final class ApiMethods {

  private ApiMethods() {}

  /** The services of the API on the domain's services, in the order the gRPC edge adds them. */
  public static List<ApiService> of(
      NamespaceService namespaces,
      PseudonymService pseudonyms,
      AccessAdmin accessAdmin,
      CsvJobService csvJobs) {
    return List.of(
        namespaceService(namespaces, pseudonyms),
        pseudonymService(pseudonyms),
        withdrawalService(pseudonyms),
        accessService(accessAdmin),
        csvJobService(csvJobs));
  }

  private static ApiService namespaceService(
      NamespaceService namespaces, PseudonymService pseudonyms) {
    return new ApiService(
        NamespaceServiceGrpcService.SERVICE_NAME,
        NamespaceServiceGrpcService.SERVICE_DESCRIPTOR,
        List.of(
            new UnaryMethod<>(
                NamespaceServiceGrpcService.Create,
                NamespaceServiceCreateRequest.getDefaultInstance(),
                Operation.NAMESPACE_CREATE,
                (caller, request) ->
                    namespaces
                        .create(caller, ProtoMapping.toDraft(request))
                        .map(
                            created ->
                                NamespaceServiceCreateResponse.newBuilder()
                                    .setNamespace(ProtoMapping.toProto(created))
                                    .build())),
            new UnaryMethod<>(
                NamespaceServiceGrpcService.Get,
                NamespaceServiceGetRequest.getDefaultInstance(),
                Operation.NAMESPACE_GET,
                (caller, request) ->
                    namespaces
                        .get(caller, request.getName())
                        .compose(
                            found ->
                                pseudonyms
                                    .capacity(found)
                                    .map(
                                        capacity ->
                                            NamespaceServiceGetResponse.newBuilder()
                                                .setNamespace(ProtoMapping.toProto(found, capacity))
                                                .build()))),
            new PagedListMethod(
                NamespaceServiceGrpcService.GetAll,
                Operation.NAMESPACE_GET_ALL,
                (caller, writer) -> namespaces.getAll(caller, writer)),
            new UnaryMethod<>(
                NamespaceServiceGrpcService.Delete,
                NamespaceServiceDeleteRequest.getDefaultInstance(),
                Operation.NAMESPACE_DELETE,
                (caller, request) ->
                    namespaces
                        .delete(caller, request.getName())
                        .map(deleted -> NamespaceServiceDeleteResponse.getDefaultInstance())),
            new UnaryMethod<>(
                NamespaceServiceGrpcService.ListChildren,
                NamespaceServiceListChildrenRequest.getDefaultInstance(),
                Operation.NAMESPACE_LIST_CHILDREN,
                (caller, request) ->
                    namespaces
                        .listChildren(caller, request.getName())
                        .map(ProtoMapping::toListChildrenResponse))));
  }

  private static ApiService pseudonymService(PseudonymService pseudonyms) {
    return new ApiService(
        PseudonymServiceGrpcService.SERVICE_NAME,
        PseudonymServiceGrpcService.SERVICE_DESCRIPTOR,
        List.of(
            new UnaryMethod<>(
                PseudonymServiceGrpcService.Create,
                PseudonymServiceCreateRequest.getDefaultInstance(),
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
                        .map(ProtoMapping::toCreateResponse)),
            new UnaryMethod<>(
                PseudonymServiceGrpcService.Resolve,
                PseudonymServiceResolveRequest.getDefaultInstance(),
                Operation.PSEUDONYM_RESOLVE,
                (caller, request) ->
                    pseudonyms
                        .resolve(caller, request.getNamespace(), request.getOriginalValue())
                        .map(ProtoMapping::toResolveResponse)),
            new UnaryMethod<>(
                PseudonymServiceGrpcService.Get,
                PseudonymServiceGetRequest.getDefaultInstance(),
                Operation.PSEUDONYM_GET,
                (caller, request) ->
                    pseudonyms
                        .get(caller, request.getNamespace(), request.getPseudonymValue())
                        .map(
                            found ->
                                PseudonymServiceGetResponse.newBuilder()
                                    .setPseudonym(ProtoMapping.toProto(found))
                                    .build())),
            new UnaryMethod<>(
                PseudonymServiceGrpcService.BatchCreate,
                PseudonymServiceBatchCreateRequest.getDefaultInstance(),
                Operation.PSEUDONYM_BATCH_CREATE,
                (caller, request) ->
                    pseudonyms
                        .createAll(caller, request.getNamespace(), request.getOriginalValuesList())
                        .map(
                            created ->
                                ProtoMapping.toBatchCreateResponse(
                                    request.getNamespace(), created))),
            new UnaryMethod<>(
                PseudonymServiceGrpcService.BatchGet,
                PseudonymServiceBatchGetRequest.getDefaultInstance(),
                Operation.PSEUDONYM_BATCH_GET,
                (caller, request) ->
                    pseudonyms
                        .getAll(caller, request.getNamespace(), request.getPseudonymValuesList())
                        .map(
                            found ->
                                ProtoMapping.toBatchGetResponse(request.getNamespace(), found))),
            new ClientStreamMethod(
                PseudonymServiceGrpcService.CreateStream,
                Operation.PSEUDONYM_CREATE_STREAM,
                (caller, namespace, originalValue) ->
                    pseudonyms.createStreamed(caller, namespace, originalValue)),
            new UnaryMethod<>(
                PseudonymServiceGrpcService.List,
                PseudonymServiceListRequest.getDefaultInstance(),
                Operation.PSEUDONYM_LIST,
                (caller, request) ->
                    pseudonyms
                        .list(
                            caller,
                            request.getNamespace(),
                            request.getPageSize(),
                            request.getPageToken(),
                            request.getIncludeTotalSize())
                        .map(ProtoMapping::toListResponse))));
  }

  /** {@code vfps.x.withdrawal.v1.WithdrawalService}, on the withdrawals of the pseudonyms. */
  private static ApiService withdrawalService(PseudonymService pseudonyms) {
    return new ApiService(
        WithdrawalServiceGrpcService.SERVICE_NAME,
        WithdrawalServiceGrpcService.SERVICE_DESCRIPTOR,
        List.of(
            new UnaryMethod<>(
                WithdrawalServiceGrpcService.DeletePseudonyms,
                DeletePseudonymsRequest.getDefaultInstance(),
                Withdrawal.DELETE.single(),
                (caller, request) ->
                    pseudonyms
                        .withdraw(
                            caller,
                            Withdrawal.DELETE,
                            request.getNamespace(),
                            request.getOriginalValue())
                        .map(
                            deleted ->
                                WithdrawalMapping.toDeleteResponse(
                                    request.getNamespace(), deleted))),
            new UnaryMethod<>(
                WithdrawalServiceGrpcService.AnonymizeOriginal,
                AnonymizeOriginalRequest.getDefaultInstance(),
                Withdrawal.ANONYMIZE.single(),
                (caller, request) ->
                    pseudonyms
                        .withdraw(
                            caller,
                            Withdrawal.ANONYMIZE,
                            request.getNamespace(),
                            request.getOriginalValue())
                        .map(
                            kept ->
                                WithdrawalMapping.toAnonymizeResponse(
                                    request.getNamespace(), kept))),
            new UnaryMethod<>(
                WithdrawalServiceGrpcService.BatchDeletePseudonyms,
                BatchDeletePseudonymsRequest.getDefaultInstance(),
                Withdrawal.DELETE.batch(),
                (caller, request) ->
                    pseudonyms
                        .withdrawAll(
                            caller,
                            Withdrawal.DELETE,
                            request.getNamespace(),
                            request.getOriginalValuesList())
                        .map(
                            withdrawn ->
                                WithdrawalMapping.toBatchDeleteResponse(
                                    request.getNamespace(), withdrawn))),
            new UnaryMethod<>(
                WithdrawalServiceGrpcService.BatchAnonymizeOriginals,
                BatchAnonymizeOriginalsRequest.getDefaultInstance(),
                Withdrawal.ANONYMIZE.batch(),
                (caller, request) ->
                    pseudonyms
                        .withdrawAll(
                            caller,
                            Withdrawal.ANONYMIZE,
                            request.getNamespace(),
                            request.getOriginalValuesList())
                        .map(
                            withdrawn ->
                                WithdrawalMapping.toBatchAnonymizeResponse(
                                    request.getNamespace(), withdrawn)))));
  }

  private static ApiService accessService(AccessAdmin admin) {
    return new ApiService(
        AccessServiceGrpcService.SERVICE_NAME,
        AccessServiceGrpcService.SERVICE_DESCRIPTOR,
        List.of(
            new UnaryMethod<>(
                AccessServiceGrpcService.ListGrants,
                ListGrantsRequest.getDefaultInstance(),
                Operation.ACCESS_LIST_GRANTS,
                (caller, request) ->
                    admin
                        .listGrants(caller, request.getNamespace())
                        .map(AccessMapping::toListGrantsResponse)),
            new UnaryMethod<>(
                AccessServiceGrpcService.CreateGrant,
                CreateGrantRequest.getDefaultInstance(),
                Operation.ACCESS_CREATE_GRANT,
                (caller, request) ->
                    admin
                        .createGrant(caller, AccessMapping.toGrantRequest(request))
                        .map(AccessMapping::toCreateGrantResponse)),
            new UnaryMethod<>(
                AccessServiceGrpcService.UpdateGrant,
                UpdateGrantRequest.getDefaultInstance(),
                Operation.ACCESS_UPDATE_GRANT,
                (caller, request) ->
                    admin
                        .updateGrant(
                            caller,
                            request.getId(),
                            request.getCanRead(),
                            request.getCanWrite(),
                            request.getCanReverseLookup())
                        .map(AccessMapping::toUpdateGrantResponse)),
            new UnaryMethod<>(
                AccessServiceGrpcService.DeleteGrant,
                DeleteGrantRequest.getDefaultInstance(),
                Operation.ACCESS_DELETE_GRANT,
                (caller, request) ->
                    admin
                        .deleteGrant(caller, request.getId())
                        .map(deleted -> DeleteGrantResponse.getDefaultInstance())),
            new UnaryMethod<>(
                AccessServiceGrpcService.ListServiceAccounts,
                ListServiceAccountsRequest.getDefaultInstance(),
                Operation.ACCESS_LIST_SERVICE_ACCOUNTS,
                (caller, request) ->
                    admin
                        .listServiceAccounts(caller)
                        .map(AccessMapping::toListServiceAccountsResponse)),
            new UnaryMethod<>(
                AccessServiceGrpcService.CreateServiceAccount,
                CreateServiceAccountRequest.getDefaultInstance(),
                Operation.ACCESS_CREATE_SERVICE_ACCOUNT,
                (caller, request) ->
                    admin
                        .createServiceAccount(caller, request.getName(), request.getDescription())
                        .map(AccessMapping::toCreateServiceAccountResponse)),
            new UnaryMethod<>(
                AccessServiceGrpcService.DeleteServiceAccount,
                DeleteServiceAccountRequest.getDefaultInstance(),
                Operation.ACCESS_DELETE_SERVICE_ACCOUNT,
                (caller, request) ->
                    admin
                        .deleteServiceAccount(caller, request.getName())
                        .map(deleted -> DeleteServiceAccountResponse.getDefaultInstance())),
            new UnaryMethod<>(
                AccessServiceGrpcService.ListAccessTokens,
                ListAccessTokensRequest.getDefaultInstance(),
                Operation.ACCESS_LIST_TOKENS,
                (caller, request) ->
                    admin
                        .listTokens(caller, request.getAll(), request.getServiceAccount())
                        .map(tokens -> AccessMapping.toListAccessTokensResponse(admin, tokens))),
            new UnaryMethod<>(
                AccessServiceGrpcService.CreateAccessToken,
                CreateAccessTokenRequest.getDefaultInstance(),
                Operation.ACCESS_CREATE_TOKEN,
                (caller, request) ->
                    admin
                        .createToken(
                            caller,
                            request.getName(),
                            request.getServiceAccount(),
                            request.getLifetimeDays())
                        .map(created -> AccessMapping.toCreateAccessTokenResponse(admin, created))),
            new UnaryMethod<>(
                AccessServiceGrpcService.RevokeAccessToken,
                RevokeAccessTokenRequest.getDefaultInstance(),
                Operation.ACCESS_REVOKE_TOKEN,
                (caller, request) ->
                    admin
                        .revokeToken(caller, request.getId())
                        .map(token -> AccessMapping.toRevokeAccessTokenResponse(admin, token))),
            new UnaryMethod<>(
                AccessServiceGrpcService.DeleteAccessToken,
                DeleteAccessTokenRequest.getDefaultInstance(),
                Operation.ACCESS_DELETE_TOKEN,
                (caller, request) ->
                    admin
                        .deleteToken(caller, request.getId())
                        .map(deleted -> DeleteAccessTokenResponse.getDefaultInstance()))));
  }

  private static ApiService csvJobService(CsvJobService jobs) {
    return new ApiService(
        CsvJobServiceGrpcService.SERVICE_NAME,
        CsvJobServiceGrpcService.SERVICE_DESCRIPTOR,
        List.of(
            new UnaryMethod<>(
                CsvJobServiceGrpcService.CreateCsvJob,
                CreateCsvJobRequest.getDefaultInstance(),
                Operation.CSV_JOB_CREATE,
                (caller, request) ->
                    jobs.create(caller, CsvJobMapping.toNewJob(request))
                        .map(CsvJobMapping::toProto)),
            new UnaryMethod<>(
                CsvJobServiceGrpcService.StartCsvJob,
                StartCsvJobRequest.getDefaultInstance(),
                Operation.CSV_JOB_START,
                (caller, request) ->
                    jobs.start(caller, CsvJobMapping.toId(request.getId()))
                        .map(CsvJobMapping::toProto)),
            new UnaryMethod<>(
                CsvJobServiceGrpcService.CancelCsvJob,
                CancelCsvJobRequest.getDefaultInstance(),
                Operation.CSV_JOB_CANCEL,
                (caller, request) ->
                    jobs.cancel(caller, CsvJobMapping.toId(request.getId()))
                        .map(CsvJobMapping::toProto)),
            new UnaryMethod<>(
                CsvJobServiceGrpcService.GetCsvJob,
                GetCsvJobRequest.getDefaultInstance(),
                Operation.CSV_JOB_GET,
                (caller, request) ->
                    jobs.get(caller, CsvJobMapping.toId(request.getId()))
                        .map(CsvJobMapping::toProto)),
            new UnaryMethod<>(
                CsvJobServiceGrpcService.ListCsvJobs,
                ListCsvJobsRequest.getDefaultInstance(),
                Operation.CSV_JOB_LIST,
                (caller, request) -> jobs.list(caller).map(CsvJobMapping::toListResponse))));
  }
}
