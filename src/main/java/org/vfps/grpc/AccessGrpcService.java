package org.vfps.grpc;

import io.vertx.grpc.server.Service;
import org.vfps.access.AccessAdmin;
import org.vfps.access.Operation;
import org.vfps.admission.Admission;
import org.vfps.api.x.access.v1.AccessServiceGrpcService;
import org.vfps.api.x.access.v1.DeleteAccessTokenResponse;
import org.vfps.api.x.access.v1.DeleteGrantResponse;
import org.vfps.api.x.access.v1.DeleteServiceAccountResponse;
import org.vfps.auth.Authenticator;
import org.vfps.log.EdgeWarnings;

/** {@code vfps.x.access.v1.AccessService} on {@link AccessAdmin}. */
final class AccessGrpcService {

  private AccessGrpcService() {}

  static Service of(
      AccessAdmin admin,
      CallObserver observer,
      Authenticator authenticator,
      Admission admission,
      EdgeWarnings warnings) {
    return new UnaryService(
            AccessServiceGrpcService.SERVICE_NAME,
            AccessServiceGrpcService.SERVICE_DESCRIPTOR,
            observer,
            authenticator,
            admission,
            warnings)
        .method(
            AccessServiceGrpcService.ListGrants,
            Operation.ACCESS_LIST_GRANTS,
            (caller, request) ->
                admin
                    .listGrants(caller, request.getNamespace())
                    .map(AccessMapping::toListGrantsResponse))
        .method(
            AccessServiceGrpcService.CreateGrant,
            Operation.ACCESS_CREATE_GRANT,
            (caller, request) ->
                admin
                    .createGrant(caller, AccessMapping.toGrantRequest(request))
                    .map(AccessMapping::toCreateGrantResponse))
        .method(
            AccessServiceGrpcService.UpdateGrant,
            Operation.ACCESS_UPDATE_GRANT,
            (caller, request) ->
                admin
                    .updateGrant(
                        caller,
                        request.getId(),
                        request.getCanRead(),
                        request.getCanWrite(),
                        request.getCanReverseLookup())
                    .map(AccessMapping::toUpdateGrantResponse))
        .method(
            AccessServiceGrpcService.DeleteGrant,
            Operation.ACCESS_DELETE_GRANT,
            (caller, request) ->
                admin
                    .deleteGrant(caller, request.getId())
                    .map(deleted -> DeleteGrantResponse.getDefaultInstance()))
        .method(
            AccessServiceGrpcService.ListServiceAccounts,
            Operation.ACCESS_LIST_SERVICE_ACCOUNTS,
            (caller, request) ->
                admin.listServiceAccounts(caller).map(AccessMapping::toListServiceAccountsResponse))
        .method(
            AccessServiceGrpcService.CreateServiceAccount,
            Operation.ACCESS_CREATE_SERVICE_ACCOUNT,
            (caller, request) ->
                admin
                    .createServiceAccount(caller, request.getName(), request.getDescription())
                    .map(AccessMapping::toCreateServiceAccountResponse))
        .method(
            AccessServiceGrpcService.DeleteServiceAccount,
            Operation.ACCESS_DELETE_SERVICE_ACCOUNT,
            (caller, request) ->
                admin
                    .deleteServiceAccount(caller, request.getName())
                    .map(deleted -> DeleteServiceAccountResponse.getDefaultInstance()))
        .method(
            AccessServiceGrpcService.ListAccessTokens,
            Operation.ACCESS_LIST_TOKENS,
            (caller, request) ->
                admin
                    .listTokens(caller, request.getAll(), request.getServiceAccount())
                    .map(tokens -> AccessMapping.toListAccessTokensResponse(admin, tokens)))
        .method(
            AccessServiceGrpcService.CreateAccessToken,
            Operation.ACCESS_CREATE_TOKEN,
            (caller, request) ->
                admin
                    .createToken(
                        caller,
                        request.getName(),
                        request.getServiceAccount(),
                        request.getLifetimeDays())
                    .map(created -> AccessMapping.toCreateAccessTokenResponse(admin, created)))
        .method(
            AccessServiceGrpcService.RevokeAccessToken,
            Operation.ACCESS_REVOKE_TOKEN,
            (caller, request) ->
                admin
                    .revokeToken(caller, request.getId())
                    .map(token -> AccessMapping.toRevokeAccessTokenResponse(admin, token)))
        .method(
            AccessServiceGrpcService.DeleteAccessToken,
            Operation.ACCESS_DELETE_TOKEN,
            (caller, request) ->
                admin
                    .deleteToken(caller, request.getId())
                    .map(deleted -> DeleteAccessTokenResponse.getDefaultInstance()));
  }
}
