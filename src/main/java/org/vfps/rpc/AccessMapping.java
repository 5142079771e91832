package org.vfps.rpc;

import com.google.protobuf.Timestamp;
import java.time.Instant;
import java.util.List;
import org.vfps.access.AccessAdmin;
import org.vfps.access.AccessToken;
import org.vfps.access.Grant;
import org.vfps.access.GranteeType;
import org.vfps.access.ServiceAccount;
import org.vfps.api.x.access.v1.AccessTokenType;
import org.vfps.api.x.access.v1.CreateAccessTokenResponse;
import org.vfps.api.x.access.v1.CreateGrantRequest;
import org.vfps.api.x.access.v1.CreateGrantResponse;
import org.vfps.api.x.access.v1.CreateServiceAccountResponse;
import org.vfps.api.x.access.v1.ListAccessTokensResponse;
import org.vfps.api.x.access.v1.ListGrantsResponse;
import org.vfps.api.x.access.v1.ListServiceAccountsResponse;
import org.vfps.api.x.access.v1.RevokeAccessTokenResponse;
import org.vfps.api.x.access.v1.UpdateGrantResponse;

/**
 * Between the messages of {@code vfps.x.access.v1} and the access model: the one place for both
 * edges (gRPC and its REST transcoding). A token's hash never reaches a message.
 */
public final class AccessMapping {

  private AccessMapping() {}

  /** The request's grant; an unspecified or unknown grantee type becomes null. */
  public static AccessAdmin.GrantRequest toGrantRequest(CreateGrantRequest request) {
    return new AccessAdmin.GrantRequest(
        request.getNamespace(),
        request.getAllNamespaces(),
        granteeType(request.getGranteeType()),
        request.getGrantee(),
        request.getCanRead(),
        request.getCanWrite(),
        request.getCanReverseLookup());
  }

  public static org.vfps.api.x.access.v1.Grant toProto(Grant grant) {
    return org.vfps.api.x.access.v1.Grant.newBuilder()
        .setId(grant.id().toString())
        .setNamespace(grant.allNamespaces() ? "" : grant.namespace())
        .setAllNamespaces(grant.allNamespaces())
        .setGranteeType(toProto(grant.granteeType()))
        .setGrantee(grant.grantee())
        .setCanRead(grant.canRead())
        .setCanWrite(grant.canWrite())
        .setCanReverseLookup(grant.canReverseLookup())
        .setCreatedAt(timestamp(grant.createdAt()))
        .setLastUpdatedAt(timestamp(grant.lastUpdatedAt()))
        .build();
  }

  public static CreateGrantResponse toCreateGrantResponse(Grant grant) {
    return CreateGrantResponse.newBuilder().setGrant(toProto(grant)).build();
  }

  public static UpdateGrantResponse toUpdateGrantResponse(Grant grant) {
    return UpdateGrantResponse.newBuilder().setGrant(toProto(grant)).build();
  }

  public static CreateServiceAccountResponse toCreateServiceAccountResponse(
      ServiceAccount account) {
    return CreateServiceAccountResponse.newBuilder().setServiceAccount(toProto(account)).build();
  }

  public static RevokeAccessTokenResponse toRevokeAccessTokenResponse(
      AccessAdmin admin, AccessToken token) {
    return RevokeAccessTokenResponse.newBuilder()
        .setAccessToken(toProto(token, admin.expiresSoon(token)))
        .build();
  }

  public static ListGrantsResponse toListGrantsResponse(List<Grant> grants) {
    ListGrantsResponse.Builder response = ListGrantsResponse.newBuilder();
    grants.forEach(grant -> response.addGrants(toProto(grant)));
    return response.build();
  }

  public static org.vfps.api.x.access.v1.ServiceAccount toProto(ServiceAccount account) {
    return org.vfps.api.x.access.v1.ServiceAccount.newBuilder()
        .setName(account.name())
        .setDescription(account.description() == null ? "" : account.description())
        .setCreatedBy(account.createdBy())
        .setCreatedAt(timestamp(account.createdAt()))
        .setLastUpdatedAt(timestamp(account.lastUpdatedAt()))
        .build();
  }

  public static ListServiceAccountsResponse toListServiceAccountsResponse(
      List<ServiceAccount> accounts) {
    ListServiceAccountsResponse.Builder response = ListServiceAccountsResponse.newBuilder();
    accounts.forEach(account -> response.addServiceAccounts(toProto(account)));
    return response.build();
  }

  /** The token as stored, with its "expires soon" marker; never its hash. */
  public static org.vfps.api.x.access.v1.AccessToken toProto(
      AccessToken token, boolean expiresSoon) {
    org.vfps.api.x.access.v1.AccessToken.Builder message =
        org.vfps.api.x.access.v1.AccessToken.newBuilder()
            .setId(token.id().toString())
            .setTokenId(token.tokenId())
            .setType(
                token.type() == AccessToken.Type.PERSONAL
                    ? AccessTokenType.ACCESS_TOKEN_TYPE_PERSONAL
                    : AccessTokenType.ACCESS_TOKEN_TYPE_SERVICE_ACCOUNT)
            .setName(token.name())
            .setServiceAccount(orEmpty(token.serviceAccount()))
            .setSubject(orEmpty(token.subject()))
            .setUsername(orEmpty(token.username()))
            .addAllRoles(token.roles().stream().sorted().toList())
            .setExpiresAt(timestamp(token.expiresAt()))
            .setCreatedBy(token.createdBy())
            .setCreatedAt(timestamp(token.createdAt()))
            .setExpiresSoon(expiresSoon);
    if (token.revokedAt() != null) {
      message.setRevokedAt(timestamp(token.revokedAt()));
    }
    if (token.lastUsedAt() != null) {
      message.setLastUsedAt(timestamp(token.lastUsedAt()));
    }
    return message.build();
  }

  public static ListAccessTokensResponse toListAccessTokensResponse(
      AccessAdmin admin, List<AccessToken> tokens) {
    ListAccessTokensResponse.Builder response = ListAccessTokensResponse.newBuilder();
    tokens.forEach(token -> response.addAccessTokens(toProto(token, admin.expiresSoon(token))));
    return response.build();
  }

  public static CreateAccessTokenResponse toCreateAccessTokenResponse(
      AccessAdmin admin, AccessAdmin.CreatedToken created) {
    return CreateAccessTokenResponse.newBuilder()
        .setAccessToken(toProto(created.token(), admin.expiresSoon(created.token())))
        .setSecret(created.secret().text())
        .build();
  }

  private static GranteeType granteeType(org.vfps.api.x.access.v1.GranteeType type) {
    return switch (type) {
      case GRANTEE_TYPE_ROLE -> GranteeType.ROLE;
      case GRANTEE_TYPE_EMAIL -> GranteeType.EMAIL;
      case GRANTEE_TYPE_SERVICE_ACCOUNT -> GranteeType.SERVICE_ACCOUNT;
      case GRANTEE_TYPE_UNSPECIFIED, UNRECOGNIZED -> null;
    };
  }

  private static org.vfps.api.x.access.v1.GranteeType toProto(GranteeType type) {
    return switch (type) {
      case ROLE -> org.vfps.api.x.access.v1.GranteeType.GRANTEE_TYPE_ROLE;
      case EMAIL -> org.vfps.api.x.access.v1.GranteeType.GRANTEE_TYPE_EMAIL;
      case SERVICE_ACCOUNT -> org.vfps.api.x.access.v1.GranteeType.GRANTEE_TYPE_SERVICE_ACCOUNT;
    };
  }

  private static String orEmpty(String text) {
    return text == null ? "" : text;
  }

  private static Timestamp timestamp(Instant instant) {
    return Timestamp.newBuilder()
        .setSeconds(instant.getEpochSecond())
        .setNanos(instant.getNano())
        .build();
  }
}
