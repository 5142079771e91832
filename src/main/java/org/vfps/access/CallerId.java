package org.vfps.access;

import java.util.Objects;

/**
 * Who a caller is, wherever callers are told apart: the owner of a CSV job or of a personal access
 * token, and the caller a share of the service is counted against. Two calls come from the same
 * caller exactly when their ids are equal. A subject alone proves nothing: a client account may be
 * named like a person's {@code sub}, a client of the provider like either.
 *
 * @param issuer who names the subject
 * @param subject the name, as the audit trail writes it and the .NET vfps's {@code created_by} and
 *     {@code subject} columns hold it
 */
public record CallerId(Issuer issuer, String subject) {

  /** Every caller while authorization is off; never an authenticated caller. */
  public static final CallerId ANONYMOUS = new CallerId(Issuer.NONE, Caller.ANONYMOUS);

  /** The prefix of the subject of a client of the provider, named by {@code azp}. */
  public static final String AZP_PREFIX = "azp:";

  /** The prefix of the subject of a service account, as the .NET vfps names it. */
  public static final String SERVICE_ACCOUNT_PREFIX = "service-account:";

  /** Who names a subject. */
  public enum Issuer {
    /** Nobody: authorization is off. */
    NONE,
    /**
     * The OIDC provider ({@code Authorization__Authority}) by a token's {@code sub}: a person, or a
     * client the provider gives a subject. The owner of a personal access token is one, and the
     * token acts as them.
     */
    PROVIDER_SUB,
    /**
     * The OIDC provider by the {@code azp} of a token without {@code sub} (a client by client
     * credentials); the subject is {@value #AZP_PREFIX} and the client's id.
     */
    PROVIDER_AZP,
    /** vfps's configuration: a client account ({@code Authorization: Basic}) by its id. */
    CLIENT_ACCOUNT,
    /**
     * vfps's table {@code service_accounts}: a service account by one of its tokens; the subject is
     * {@value #SERVICE_ACCOUNT_PREFIX} and its name.
     */
    SERVICE_ACCOUNT
  }

  public CallerId {
    Objects.requireNonNull(issuer, "issuer");
    Objects.requireNonNull(subject, "subject");
  }

  /** The caller a provider's token names by its {@code sub}. */
  public static CallerId sub(String sub) {
    return new CallerId(Issuer.PROVIDER_SUB, sub);
  }

  /** The client a provider's token without {@code sub} names by its {@code azp}. */
  public static CallerId azp(String clientId) {
    return new CallerId(Issuer.PROVIDER_AZP, AZP_PREFIX + clientId);
  }

  /** A configured client account. */
  public static CallerId clientAccount(String id) {
    return new CallerId(Issuer.CLIENT_ACCOUNT, id);
  }

  /** A service account, by one of its tokens. */
  public static CallerId serviceAccount(String name) {
    return new CallerId(Issuer.SERVICE_ACCOUNT, SERVICE_ACCOUNT_PREFIX + name);
  }
}
