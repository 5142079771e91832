package org.vfps.config;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Reads and checks the {@code Authorization} section into an {@link AuthorizationConfig}. */
final class AuthorizationSettings {

  private static final String SECTION = "Authorization:";

  private AuthorizationSettings() {}

  static AuthorizationConfig read(FlatSettings settings) {
    boolean enabled = ConfigLoader.bool(settings, SECTION + "IsEnabled");
    boolean requireHttps = ConfigLoader.bool(settings, SECTION + "RequireHttpsMetadata");
    Optional<URI> authority =
        ConfigLoader.httpUrl(
            settings, SECTION + "Authority", "https://idp.example.org/realms/vfps");
    String audience = settings.required(SECTION + "Audience").strip();
    String roleClaimType = settings.required(SECTION + "RoleClaimType").strip();
    if (roleClaimType.isEmpty()) {
      throw blank(SECTION + "RoleClaimType");
    }
    AuthorizationConfig.SignIn signIn =
        new AuthorizationConfig.SignIn(
            settings.required(SECTION + "ClientId").strip(),
            settings.required(SECTION + "ClientSecret"),
            ConfigLoader.bool(settings, SECTION + "UsePushedAuthorizationRequests"));
    List<String> adminRoles = strings(settings, SECTION + "AdminRoles");
    List<AuthorizationConfig.NamespaceRule> rules = namespaceRules(settings);
    List<AuthorizationConfig.ClientAccount> clients = clients(settings);
    Duration grantCacheDuration = timeSpan(settings, SECTION + "GrantCacheDuration", true);
    AuthorizationConfig.AccessTokens tokens = accessTokens(settings, enabled);
    if (enabled) {
      if (authority.isEmpty() && clients.isEmpty() && !tokens.enabled()) {
        throw new ConfigException(
            FlatSettings.environmentName(SECTION + "Authority")
                + ": missing; Authorization__IsEnabled=true needs an OIDC authority (with"
                + " Authorization__Audience), client accounts (Authorization__Clients__0__Id,"
                + " __SecretHash, __Roles__0) or access tokens"
                + " (Authorization__AccessTokens__IsEnabled=true)");
      }
      checkSignIn(signIn, authority);
      if (authority.isPresent()) {
        if (requireHttps && !"https".equalsIgnoreCase(authority.get().getScheme())) {
          throw ConfigLoader.invalid(
              SECTION + "Authority",
              authority.get().toString(),
              "is not https; set Authorization__RequireHttpsMetadata=false to allow http"
                  + " (development only)");
        }
        if (audience.isEmpty()) {
          throw new ConfigException(
              FlatSettings.environmentName(SECTION + "Audience")
                  + ": missing; bearer tokens are checked for the audience they are issued to");
        }
      }
    }
    return new AuthorizationConfig(
        enabled,
        authority,
        audience,
        roleClaimType,
        requireHttps,
        adminRoles,
        rules,
        clients,
        signIn,
        grantCacheDuration,
        tokens);
  }

  /** The {@code AccessTokens} section; enabled only with authorization on. */
  private static AuthorizationConfig.AccessTokens accessTokens(
      FlatSettings settings, boolean authorization) {
    String section = SECTION + "AccessTokens:";
    boolean enabled = ConfigLoader.bool(settings, section + "IsEnabled");
    if (enabled && !authorization) {
      throw new ConfigException(
          FlatSettings.environmentName(section + "IsEnabled")
              + ": true needs Authorization__IsEnabled=true; access tokens authenticate callers,"
              + " which nobody is asked to do while authorization is off");
    }
    Duration defaultLifetime = timeSpan(settings, section + "DefaultLifetime", false);
    if (defaultLifetime.isZero()) {
      throw ConfigLoader.invalid(
          section + "DefaultLifetime",
          settings.required(section + "DefaultLifetime"),
          "is not a positive duration");
    }
    Duration maximumLifetime = timeSpan(settings, section + "MaximumLifetime", false);
    if (!maximumLifetime.isZero() && defaultLifetime.compareTo(maximumLifetime) > 0) {
      throw ConfigLoader.invalid(
          section + "DefaultLifetime",
          settings.required(section + "DefaultLifetime"),
          "is longer than Authorization__AccessTokens__MaximumLifetime");
    }
    Duration warning = timeSpan(settings, section + "ExpiryWarningPeriod", true);
    Duration flush = timeSpan(settings, section + "UsageFlushInterval", true);
    return new AuthorizationConfig.AccessTokens(
        enabled,
        defaultLifetime,
        maximumLifetime,
        warning.isNegative() ? Duration.ZERO : warning,
        flush.isNegative() || flush.isZero() ? Duration.ofMinutes(1) : flush);
  }

  /**
   * A .NET TimeSpan; a negative one only where {@code negativeAllowed} (it then means what zero
   * means, as in the .NET service).
   */
  private static Duration timeSpan(FlatSettings settings, String key, boolean negativeAllowed) {
    String value = settings.required(key);
    Duration duration;
    try {
      duration = TimeSpans.parse(value);
    } catch (IllegalArgumentException e) {
      throw ConfigLoader.invalid(
          key, value, "is not a .NET TimeSpan (e.g. 0.00:00:30): " + e.getMessage());
    }
    if (duration.isNegative() && !negativeAllowed) {
      throw ConfigLoader.invalid(key, value, "is negative");
    }
    return duration;
  }

  /**
   * The admin UI's client is configured completely (an id, a secret and the provider) or not at
   * all; half a client would be a sign-in that cannot work.
   */
  private static void checkSignIn(AuthorizationConfig.SignIn signIn, Optional<URI> authority) {
    boolean id = !signIn.clientId().isEmpty();
    boolean secret = !signIn.clientSecret().isEmpty();
    if (id && !secret) {
      throw new ConfigException(
          FlatSettings.environmentName(SECTION + "ClientSecret")
              + ": missing; the admin UI signs users in as a confidential client"
              + " (Authorization__ClientId is set)");
    }
    if (secret && !id) {
      throw new ConfigException(
          FlatSettings.environmentName(SECTION + "ClientId")
              + ": missing; Authorization__ClientSecret is set for the admin UI's sign-in");
    }
    if (id && authority.isEmpty()) {
      throw new ConfigException(
          FlatSettings.environmentName(SECTION + "Authority")
              + ": missing; the admin UI's sign-in (Authorization__ClientId) needs the OIDC"
              + " provider");
    }
  }

  private static List<AuthorizationConfig.NamespaceRule> namespaceRules(FlatSettings settings) {
    List<AuthorizationConfig.NamespaceRule> rules = new ArrayList<>();
    String array = SECTION + "NamespaceRules";
    for (int index : settings.indexes(array)) {
      String entry = array + ":" + index + ":";
      String namespace =
          entryField(settings, entry + "Namespace", "a namespace name, or * for every namespace");
      rules.add(
          new AuthorizationConfig.NamespaceRule(
              namespace,
              strings(settings, entry + "ReadRoles"),
              strings(settings, entry + "WriteRoles"),
              strings(settings, entry + "ReverseLookupRoles")));
    }
    return rules;
  }

  private static List<AuthorizationConfig.ClientAccount> clients(FlatSettings settings) {
    List<AuthorizationConfig.ClientAccount> clients = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    String array = SECTION + "Clients";
    for (int index : settings.indexes(array)) {
      String entry = array + ":" + index + ":";
      String id = entryField(settings, entry + "Id", "the user name the client sends");
      if (id.contains(":")) {
        throw ConfigLoader.invalid(entry + "Id", id, "contains a colon, which Basic cannot carry");
      }
      if (!ids.add(id)) {
        throw ConfigLoader.invalid(entry + "Id", id, "is the id of another client account too");
      }
      String hashKey = entry + "SecretHash";
      String hashText =
          entryField(settings, hashKey, "make one with 'java -jar vfps.jar hash-secret'");
      SecretHash hash;
      try {
        hash = SecretHash.parse(hashText);
      } catch (IllegalArgumentException e) {
        // the message never quotes the value
        throw new ConfigException(FlatSettings.environmentName(hashKey) + ": " + e.getMessage());
      }
      clients.add(
          new AuthorizationConfig.ClientAccount(id, hash, strings(settings, entry + "Roles")));
    }
    return clients;
  }

  /** The values of the string array {@code array} ({@code array:0}, {@code array:1}, ...). */
  static List<String> strings(FlatSettings settings, String array) {
    List<String> strings = new ArrayList<>();
    for (int index : settings.indexes(array)) {
      String key = array + ":" + index;
      // an entry with fields (array:0:x) is no string: left unread, so it is reported
      Optional<String> value = settings.get(key);
      if (value.isPresent()) {
        if (value.get().isBlank()) {
          throw blank(key);
        }
        strings.add(value.get());
      }
    }
    return strings;
  }

  /** A field an array entry must have, not blank; {@code hint} says what it holds. */
  private static String entryField(FlatSettings settings, String key, String hint) {
    String value =
        settings
            .get(key)
            .orElseThrow(
                () ->
                    new ConfigException(
                        FlatSettings.environmentName(key) + ": missing (" + hint + ")"));
    if (value.isBlank()) {
      throw blank(key);
    }
    return value;
  }

  private static ConfigException blank(String key) {
    return new ConfigException(FlatSettings.environmentName(key) + ": must not be blank");
  }
}
