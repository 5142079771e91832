package org.vfps.access;

import java.util.Objects;
import java.util.Set;

/**
 * Who makes a request, as the edge authenticated it: what the permission rules and the audit trail
 * need.
 *
 * @param id who the caller is: what ownership and shares compare (never the subject alone)
 * @param roles the caller's roles; unmodifiable
 * @param clientAddress the address the request came from, for the audit trail
 * @param credential what the caller authenticated with
 * @param email the caller's verified e-mail address, lower-cased; null when it has none
 * @param username the caller's user name ({@code preferred_username}); null when unknown
 * @param serviceAccount the service account of a service-account token; null otherwise
 * @param tokenId the id of the access token that authenticated the call; null otherwise
 */
public record Caller(
    CallerId id,
    Set<String> roles,
    String clientAddress,
    Credential credential,
    String email,
    String username,
    String serviceAccount,
    String tokenId) {

  /** The subject of every caller while authorization is off; with authorization on, no caller's. */
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
    Objects.requireNonNull(id, "id");
    roles = Set.copyOf(roles);
    Objects.requireNonNull(clientAddress, "clientAddress");
    Objects.requireNonNull(credential, "credential");
  }

  /** A caller of a provider's token with this {@code sub}, without e-mail address or user name. */
  public Caller(String sub, Set<String> roles, String clientAddress) {
    this(
        CallerId.sub(sub), roles, clientAddress, Credential.PROVIDER_TOKEN, null, null, null, null);
  }

  /** A caller without credentials or roles, as every caller is when authorization is off. */
  public static Caller anonymous(String clientAddress) {
    return new Caller(
        CallerId.ANONYMOUS, Set.of(), clientAddress, Credential.NONE, null, null, null, null);
  }

  /**
   * The caller's subject, as the audit trail writes it: a person's {@code sub}, {@code
   * azp:<client>} for a provider's token without {@code sub}, a client account's id, {@code
   * service-account:<name>}, or {@value #ANONYMOUS} while authorization is off. Not unique across
   * issuers: compare {@link #id()}.
   */
  public String subject() {
    return id.subject();
  }

  /**
   * The key admission control counts this caller's fair share of a replica by (see {@code
   * Admission}): its {@link #id()} when it authenticated (a personal access token counts as its
   * owner); its client address when authorization is off, where every caller is the same anonymous
   * one and its id would make one share of the whole service. The one place that says who "a
   * caller" is for the fair share.
   */
  public Object admissionKey() {
    return credential == Credential.NONE ? clientAddress : id;
  }

  /** Whether an access token authenticated the call (it may then create no token). */
  public boolean byAccessToken() {
    return credential == Credential.ACCESS_TOKEN;
  }
}
