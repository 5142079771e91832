package org.vfps.config;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Who may call what ({@code Authorization__*}): the .NET service's role model (admin roles and
 * per-namespace rules, roles taken from a claim of OIDC bearer tokens) plus client accounts for
 * callers that send {@code Authorization: Basic}. Validated at load: when enabled, at least one way
 * to authenticate is configured, and an authority is https unless {@code RequireHttpsMetadata} is
 * false.
 *
 * @param enabled the master switch ({@code IsEnabled}); off means every caller is an admin
 * @param authority the OIDC issuer whose discovery document names the token signing keys ({@code
 *     Authority}); empty when only client accounts authenticate
 * @param audience the audience bearer tokens must name ({@code Audience}); not blank when there is
 *     an authority and authorization is on
 * @param roleClaimType the claim whose values are the caller's roles ({@code RoleClaimType})
 * @param requireHttpsMetadata whether an {@code http://} authority is refused ({@code
 *     RequireHttpsMetadata})
 * @param adminRoles roles that may do everything ({@code AdminRoles__N}); unmodifiable
 * @param namespaceRules the per-namespace grants ({@code NamespaceRules__N__*}); unmodifiable
 * @param clients the client accounts ({@code Clients__N__*}), ids unique; unmodifiable
 * @param signIn the admin UI's sign-in client
 * @param grantCacheDuration how long a replica may use its copy of the database grants and tokens
 *     ({@code GrantCacheDuration}); zero reads them on every check
 * @param accessTokens the personal and service-account tokens ({@code AccessTokens__*})
 */
public record AuthorizationConfig(
    boolean enabled,
    Optional<URI> authority,
    String audience,
    String roleClaimType,
    boolean requireHttpsMetadata,
    List<String> adminRoles,
    List<NamespaceRule> namespaceRules,
    List<ClientAccount> clients,
    SignIn signIn,
    Duration grantCacheDuration,
    AccessTokens accessTokens) {

  /** The role claim type when none is configured, as in the .NET service. */
  public static final String DEFAULT_ROLE_CLAIM_TYPE = "roles";

  /** The rule namespace that matches every namespace. */
  public static final String ANY_NAMESPACE = "*";

  public AuthorizationConfig {
    Objects.requireNonNull(authority, "authority");
    Objects.requireNonNull(audience, "audience");
    Objects.requireNonNull(roleClaimType, "roleClaimType");
    adminRoles = List.copyOf(adminRoles);
    namespaceRules = List.copyOf(namespaceRules);
    clients = List.copyOf(clients);
    Objects.requireNonNull(signIn, "signIn");
    Objects.requireNonNull(grantCacheDuration, "grantCacheDuration");
    Objects.requireNonNull(accessTokens, "accessTokens");
  }

  /** Authorization off: everyone is an admin. */
  public static AuthorizationConfig disabled() {
    return new AuthorizationConfig(
        false,
        Optional.empty(),
        "",
        DEFAULT_ROLE_CLAIM_TYPE,
        true,
        List.of(),
        List.of(),
        List.of(),
        new SignIn("", "", true),
        Duration.ofSeconds(30),
        AccessTokens.DISABLED);
  }

  /**
   * The vfps access tokens ({@code AccessTokens__*}), as the .NET vfps 1.22 configures them.
   * Validated at load: enabled only with authorization on; lifetimes not negative; the default
   * within the maximum.
   *
   * @param enabled whether personal and service-account tokens authenticate and can be created
   *     ({@code IsEnabled})
   * @param defaultLifetime the lifetime of a token created without one ({@code DefaultLifetime})
   * @param maximumLifetime the longest lifetime; zero for no cap ({@code MaximumLifetime})
   * @param expiryWarningPeriod how long before its expiry a token is marked "expires soon"; zero
   *     for never ({@code ExpiryWarningPeriod})
   * @param usageFlushInterval how often the tokens' last use is written back ({@code
   *     UsageFlushInterval}); positive
   */
  public record AccessTokens(
      boolean enabled,
      Duration defaultLifetime,
      Duration maximumLifetime,
      Duration expiryWarningPeriod,
      Duration usageFlushInterval) {

    /** Off, with the .NET service's defaults. */
    public static final AccessTokens DISABLED =
        new AccessTokens(
            false,
            Duration.ofDays(90),
            Duration.ofDays(365),
            Duration.ofDays(14),
            Duration.ofMinutes(1));

    public AccessTokens {
      Objects.requireNonNull(defaultLifetime, "defaultLifetime");
      Objects.requireNonNull(maximumLifetime, "maximumLifetime");
      Objects.requireNonNull(expiryWarningPeriod, "expiryWarningPeriod");
      Objects.requireNonNull(usageFlushInterval, "usageFlushInterval");
    }
  }

  /**
   * Grants on a namespace ({@code NamespaceRules__N__*}); the three grants are independent.
   *
   * @param namespace the exact, case-sensitive namespace name, or {@link #ANY_NAMESPACE}
   * @param readRoles may read the namespace and list its pseudonyms ({@code ReadRoles__M})
   * @param writeRoles may create pseudonyms ({@code WriteRoles__M})
   * @param reverseLookupRoles may look original values up by pseudonym ({@code
   *     ReverseLookupRoles__M})
   */
  public record NamespaceRule(
      String namespace,
      List<String> readRoles,
      List<String> writeRoles,
      List<String> reverseLookupRoles) {

    public NamespaceRule {
      Objects.requireNonNull(namespace, "namespace");
      readRoles = List.copyOf(readRoles);
      writeRoles = List.copyOf(writeRoles);
      reverseLookupRoles = List.copyOf(reverseLookupRoles);
    }
  }

  /**
   * A caller that authenticates with {@code Authorization: Basic} ({@code Clients__N__*}).
   *
   * @param id the user name it sends ({@code Id}); not blank, no colon
   * @param secretHash its secret, salted and slow ({@code SecretHash})
   * @param roles its roles in the same model as token roles ({@code Roles__M})
   */
  public record ClientAccount(String id, SecretHash secretHash, List<String> roles) {

    public ClientAccount {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(secretHash, "secretHash");
      roles = List.copyOf(roles);
    }
  }

  /**
   * The confidential client the admin UI signs users in with (authorization code flow); the API
   * does not use it. Validated at load: with authorization on, the id and the secret are both set
   * (and an authority) or both empty.
   *
   * @param clientId {@code ClientId}
   * @param clientSecret {@code ClientSecret}; never printed by {@link #toString()}
   * @param usePushedAuthorizationRequests use PAR when the provider offers it ({@code
   *     UsePushedAuthorizationRequests})
   */
  public record SignIn(
      String clientId, String clientSecret, boolean usePushedAuthorizationRequests) {

    public SignIn {
      Objects.requireNonNull(clientId, "clientId");
      Objects.requireNonNull(clientSecret, "clientSecret");
    }

    /** Whether a client is configured, so that the admin UI can sign users in. */
    public boolean configured() {
      return !clientId.isEmpty();
    }

    @Override
    public String toString() {
      return "SignIn[clientId="
          + clientId
          + ", clientSecret="
          + (clientSecret.isEmpty() ? "" : "***")
          + ", usePushedAuthorizationRequests="
          + usePushedAuthorizationRequests
          + "]";
    }
  }
}
