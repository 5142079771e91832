package org.vfps.access;

import java.util.Objects;
import java.util.Set;

/**
 * Who makes a request, as the edge authenticated it: what the permission rules and the audit trail
 * need.
 *
 * @param subject the token's {@code sub}, a client account's id, {@code service-account:<name>} for
 *     a service-account token, or {@value #ANONYMOUS}
 * @param roles the caller's roles; unmodifiable
 * @param clientAddress the address the request came from, for the audit trail
 * @param credential what the caller authenticated with
 * @param email the caller's verified e-mail address, lower-cased; null when it has none
 * @param username the caller's user name ({@code preferred_username}); null when unknown
 * @param serviceAccount the service account of a service-account token; null otherwise
 * @param tokenId the id of the access token that authenticated the call; null otherwise
 */
public record Caller(
    String subject,
    Set<String> roles,
    String clientAddress,
    Credential credential,
    String email,
    String username,
    String serviceAccount,
    String tokenId) {

  /** The subject of a caller that did not authenticate (authorization off) or has no subject. */
  public static final String ANONYMOUS = "anonymous";

  /** What a caller authenticated with. */
  public enum Credential {
    /** Nothing: authorization is off. */
    NONE,
    /** A JWT of the OIDC provider, or the admin UI's session of one. */
    PROVIDER_TOKEN,
    /** {@code Authorization: Basic} of a configured client account. */
    CLIENT_ACCOUNT,
    /** A vfps access token, personal or of a service account. */
    ACCESS_TOKEN
  }

  public Caller {
    Objects.requireNonNull(subject, "subject");
    roles = Set.copyOf(roles);
    Objects.requireNonNull(clientAddress, "clientAddress");
    Objects.requireNonNull(credential, "credential");
  }

  /** A caller of the OIDC provider's token, without an e-mail address or user name. */
  public Caller(String subject, Set<String> roles, String clientAddress) {
    this(subject, roles, clientAddress, Credential.PROVIDER_TOKEN, null, null, null, null);
  }

  /** A caller without credentials or roles, as every caller is when authorization is off. */
  public static Caller anonymous(String clientAddress) {
    return new Caller(ANONYMOUS, Set.of(), clientAddress, Credential.NONE, null, null, null, null);
  }

  /**
   * The key admission control counts this caller's fair share of a replica by (see {@code
   * Admission}): its subject when it authenticated; its client address when authorization is off,
   * where every caller is the same anonymous one and the subject would make one share of the whole
   * service. The one place that says who "a caller" is for the fair share; admission control takes
   * any key with value equality, so a stable identity (issuer and subject) may take its place.
   */
  public String admissionKey() {
    return credential == Credential.NONE ? clientAddress : subject;
  }

  /** Whether an access token authenticated the call (it may then create no token). */
  public boolean byAccessToken() {
    return credential == Credential.ACCESS_TOKEN;
  }
}
