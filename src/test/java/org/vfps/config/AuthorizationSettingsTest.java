package org.vfps.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The Authorization section: the .NET keys, ours, their checks, and keys nobody reads. */
class AuthorizationSettingsTest {

  private static final String HASH =
      "pbkdf2-sha256:600000:AAAAAAAAAAAAAAAAAAAAAA:" + "A".repeat(43);

  private static Map<String, String> env(String... pairs) {
    Map<String, String> env = new HashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      env.put(pairs[i], pairs[i + 1]);
    }
    return env;
  }

  @Test
  void offByDefaultWithTheDotnetDefaults() {
    LoadedConfig loaded = ConfigLoader.read(Map.of(), Optional.empty());

    assertThat(loaded.config().authorization()).isEqualTo(AuthorizationConfig.disabled());
    assertThat(loaded.unreadKeys()).isEmpty();
  }

  @Test
  void readsTheWholeSectionFromTheEnvironment() {
    AuthorizationConfig config =
        ConfigLoader.load(
                env(
                    "Authorization__IsEnabled", "true",
                    "Authorization__Authority", "https://idp.example.org/realms/vfps/",
                    "Authorization__Audience", "vfps",
                    "Authorization__RoleClaimType", "groups",
                    "Authorization__ClientId", "vfps-web",
                    "Authorization__ClientSecret", "web-secret",
                    "Authorization__UsePushedAuthorizationRequests", "false",
                    "Authorization__AdminRoles__0", "vfps-admin",
                    "Authorization__AdminRoles__2", "ops",
                    "Authorization__NamespaceRules__0__Namespace", "study",
                    "Authorization__NamespaceRules__0__ReadRoles__0", "r",
                    "Authorization__NamespaceRules__0__WriteRoles__0", "w1",
                    "Authorization__NamespaceRules__0__WriteRoles__1", "w2",
                    "Authorization__NamespaceRules__0__ReverseLookupRoles__0", "rl",
                    "authorization__namespacerules__10__namespace", "*",
                    "Authorization__NamespaceRules__10__ReadRoles__0", "all",
                    "Authorization__Clients__0__Id", "fhir",
                    "Authorization__Clients__0__SecretHash", HASH,
                    "Authorization__Clients__0__Roles__0", "w1"))
            .authorization();

    assertThat(config.enabled()).isTrue();
    assertThat(config.authority()).contains(URI.create("https://idp.example.org/realms/vfps/"));
    assertThat(config.audience()).isEqualTo("vfps");
    assertThat(config.roleClaimType()).isEqualTo("groups");
    assertThat(config.signIn())
        .isEqualTo(new AuthorizationConfig.SignIn("vfps-web", "web-secret", false));
    assertThat(config.signIn().toString()).doesNotContain("web-secret");
    assertThat(config.adminRoles()).containsExactly("vfps-admin", "ops");
    assertThat(config.namespaceRules())
        .containsExactly(
            new AuthorizationConfig.NamespaceRule(
                "study", List.of("r"), List.of("w1", "w2"), List.of("rl")),
            new AuthorizationConfig.NamespaceRule("*", List.of("all"), List.of(), List.of()));
    assertThat(config.clients())
        .containsExactly(
            new AuthorizationConfig.ClientAccount("fhir", SecretHash.parse(HASH), List.of("w1")));
  }

  @Test
  void clientAccountsAloneAreAValidSetup() {
    AuthorizationConfig config =
        ConfigLoader.load(
                env(
                    "Authorization__IsEnabled", "true",
                    "Authorization__Clients__0__Id", "fhir",
                    "Authorization__Clients__0__SecretHash", HASH))
            .authorization();

    assertThat(config.authority()).isEmpty();
    assertThat(config.clients()).hasSize(1);
  }

  @Test
  void anHttpAuthorityIsAcceptedOnlyWhenHttpsMetadataIsNotRequired() {
    AuthorizationConfig config =
        ConfigLoader.load(
                env(
                    "Authorization__IsEnabled", "true",
                    "Authorization__Authority", "http://localhost:8180/realms/vfps",
                    "Authorization__Audience", "vfps",
                    "Authorization__RequireHttpsMetadata", "false"))
            .authorization();

    assertThat(config.authority()).contains(URI.create("http://localhost:8180/realms/vfps"));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "Authorization__IsEnabled=true|Authorization__Authority: missing",
        "Authorization__IsEnabled=true,Authorization__Authority=https://idp/x|"
            + "Authorization__Audience: missing",
        "Authorization__IsEnabled=true,Authorization__Authority=http://idp/x,"
            + "Authorization__Audience=a|Authorization__Authority: 'http://idp/x' is not https",
        "Authorization__Authority=ftp://idp/x|Authorization__Authority: 'ftp://idp/x' is not",
        "Authorization__Authority=https://idp/x?realm=y|Authorization__Authority:",
        "Authorization__IsEnabled=maybe|Authorization__IsEnabled: 'maybe' is not a boolean",
        "Authorization__RoleClaimType= |Authorization__RoleClaimType: must not be blank",
        "Authorization__AdminRoles__0= |Authorization__AdminRoles__0: must not be blank",
        "Authorization__NamespaceRules__3__ReadRoles__0=r|"
            + "Authorization__NamespaceRules__3__Namespace: missing",
        "Authorization__NamespaceRules__0__Namespace= |"
            + "Authorization__NamespaceRules__0__Namespace: must not be blank",
        "Authorization__Clients__0__SecretHash=x|Authorization__Clients__0__Id: missing",
        "Authorization__Clients__0__Id=a:b|Authorization__Clients__0__Id: 'a:b' contains a colon",
        "Authorization__Clients__0__Id=fhir|Authorization__Clients__0__SecretHash: missing",
        "Authorization__Clients__0__Id=fhir,Authorization__Clients__0__SecretHash=plain|"
            + "Authorization__Clients__0__SecretHash: is not pbkdf2-sha256",
        "Authorization__IsEnabled=true,Authorization__Authority=https://idp/x,"
            + "Authorization__Audience=a,Authorization__ClientId=web|"
            + "Authorization__ClientSecret: missing; the admin UI signs users in",
        "Authorization__IsEnabled=true,Authorization__Authority=https://idp/x,"
            + "Authorization__Audience=a,Authorization__ClientSecret=s|"
            + "Authorization__ClientId: missing",
        "Authorization__IsEnabled=true,Authorization__Clients__0__Id=fhir,"
            + "Authorization__Clients__0__SecretHash=pbkdf2-sha256:600000:AAAAAAAAAAAAAAAAAAAAAA:"
            + "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA,"
            + "Authorization__ClientId=web,Authorization__ClientSecret=s|"
            + "Authorization__Authority: missing; the admin UI's sign-in",
      })
  void badSettingsNameTheirKey(String settings, String message) {
    Map<String, String> env = new HashMap<>();
    for (String setting : settings.split(",")) {
      String[] pair = setting.split("=", 2);
      env.put(pair[0], pair[1]);
    }
    assertThatExceptionOfType(ConfigException.class)
        .isThrownBy(() -> ConfigLoader.load(env))
        .withMessageStartingWith(message)
        .withMessageNotContaining("plain");
  }

  @Test
  void twoClientAccountsCannotShareAnId() {
    assertThatExceptionOfType(ConfigException.class)
        .isThrownBy(
            () ->
                ConfigLoader.load(
                    env(
                        "Authorization__Clients__0__Id",
                        "fhir",
                        "Authorization__Clients__0__SecretHash",
                        HASH,
                        "Authorization__Clients__1__Id",
                        "fhir",
                        "Authorization__Clients__1__SecretHash",
                        HASH)))
        .withMessageStartingWith("Authorization__Clients__1__Id: 'fhir' is the id of another");
  }

  @Test
  void keysOfOurSectionsThatNobodyReadsAreReportedByName() {
    LoadedConfig loaded =
        ConfigLoader.read(
            env(
                "Authorization__Foo", "1",
                "Authorization__NamespaceRules__0__Namespace", "a",
                "Authorization__NamespaceRules__0__ReadRole__0", "typo",
                "Pseudonymization__Cachng__SizeLimit", "5",
                "Kestrel__Endpoints__Http__Url", "http://0.0.0.0:1",
                "S3__IsEnabledd", "true",
                "Http__Portx", "1",
                "PATH", "/bin",
                "Telemetry__IsEnabled", "true"),
            Optional.empty());

    assertThat(loaded.unreadKeys())
        .containsExactly(
            "Authorization__Foo",
            "Authorization__NamespaceRules__0__ReadRole__0",
            "Http__Portx",
            "Kestrel__Endpoints__Http__Url",
            "Pseudonymization__Cachng__SizeLimit",
            "S3__IsEnabledd");
  }

  @Test
  void readsTheAccessTokensAndTheGrantCache() {
    AuthorizationConfig config =
        ConfigLoader.load(
                env(
                    "Authorization__IsEnabled", "true",
                    "Authorization__GrantCacheDuration", "0",
                    "Authorization__AccessTokens__IsEnabled", "true",
                    "Authorization__AccessTokens__DefaultLifetime", "30.00:00:00",
                    "Authorization__AccessTokens__MaximumLifetime", "0",
                    "Authorization__AccessTokens__ExpiryWarningPeriod", "-1",
                    "Authorization__AccessTokens__UsageFlushInterval", "0"))
            .authorization();

    assertThat(config.grantCacheDuration()).isZero();
    assertThat(config.accessTokens())
        .isEqualTo(
            new AuthorizationConfig.AccessTokens(
                true,
                java.time.Duration.ofDays(30),
                java.time.Duration.ZERO,
                java.time.Duration.ZERO,
                java.time.Duration.ofMinutes(1)));
  }

  @Test
  void accessTokensNeedAuthorizationAndSaneLifetimes() {
    assertThatExceptionOfType(ConfigException.class)
        .isThrownBy(() -> ConfigLoader.load(env("Authorization__AccessTokens__IsEnabled", "true")))
        .withMessageStartingWith("Authorization__AccessTokens__IsEnabled: true needs");
    assertThatExceptionOfType(ConfigException.class)
        .isThrownBy(
            () ->
                ConfigLoader.load(
                    env(
                        "Authorization__IsEnabled", "true",
                        "Authorization__AccessTokens__IsEnabled", "true",
                        "Authorization__AccessTokens__DefaultLifetime", "400.00:00:00")))
        .withMessageContaining("Authorization__AccessTokens__DefaultLifetime")
        .withMessageContaining("longer than Authorization__AccessTokens__MaximumLifetime");
    assertThatExceptionOfType(ConfigException.class)
        .isThrownBy(
            () ->
                ConfigLoader.load(
                    env("Authorization__AccessTokens__MaximumLifetime", "-1.00:00:00")))
        .withMessageStartingWith("Authorization__AccessTokens__MaximumLifetime")
        .withMessageContaining("is negative");
  }
}
