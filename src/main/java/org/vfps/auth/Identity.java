package org.vfps.auth;

import java.util.Set;
import org.vfps.access.Caller;
import org.vfps.access.CallerId;

/**
 * Who valid credentials belong to, whatever the request: a token's subject and roles, a client
 * account's id and roles, or the person or service account of a vfps access token.
 *
 * @param id who it is
 * @param email verified and lower-cased; null when none
 * @param username null when unknown
 * @param serviceAccount the account of a service-account token; null otherwise
 * @param tokenId the id of the access token; null for other credentials
 */
record Identity(
    CallerId id,
    Set<String> roles,
    Caller.Credential credential,
    String email,
    String username,
    String serviceAccount,
    String tokenId) {

  Identity {
    roles = Set.copyOf(roles);
  }

  /** A client account's. */
  static Identity clientAccount(String id, Set<String> roles) {
    return new Identity(
        CallerId.clientAccount(id),
        roles,
        Caller.Credential.CLIENT_ACCOUNT,
        null,
        null,
        null,
        null);
  }

  /** The caller of a request from {@code clientAddress}. */
  Caller caller(String clientAddress) {
    return new Caller(
        id, roles, clientAddress, credential, email, username, serviceAccount, tokenId);
  }
}
