package org.vfps.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The VOPRF server's settings: defaults, each key's checks, and the messages that name them. */
class VoprfServerSettingsTest {

  private static final String SEED =
      Base64.getEncoder()
          .encodeToString("a seed of thirty-two bytes, 32!!".getBytes(StandardCharsets.US_ASCII));
  private static final String SHA1 = "AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01";
  private static final String SHA256 = "0123456789abcdef".repeat(4);

  /** Hardened, with TLS files named (not read at load) and one allowed client certificate. */
  private static Map<String, String> production() {
    Map<String, String> env = new HashMap<>();
    env.put("VoprfServer__Key__Seed", SEED);
    env.put("Kestrel__Certificates__Default__Path", "/run/tls/tls.crt");
    env.put("Kestrel__Certificates__Default__KeyPath", "/run/tls/tls.key");
    env.put("VoprfServer__Authentication__ClientCertificate__AllowedThumbprints__0", SHA1);
    return env;
  }

  private static Map<String, String> development() {
    Map<String, String> env = new HashMap<>();
    env.put("ASPNETCORE_ENVIRONMENT", "Development");
    env.put("VoprfServer__Hardening__IsEnabled", "false");
    env.put("VoprfServer__Key__Seed", SEED);
    return env;
  }

  private static VoprfServerConfig load(Map<String, String> env) {
    return VoprfServerSettings.read(env, Optional.empty()).config();
  }

  private static Map<String, String> with(Map<String, String> env, String... keysAndValues) {
    Map<String, String> changed = new HashMap<>(env);
    for (int i = 0; i < keysAndValues.length; i += 2) {
      changed.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    return changed;
  }

  private static void assertRefused(Map<String, String> env, String messageStart) {
    assertThatThrownBy(() -> load(env))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith(messageStart)
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain(SEED));
  }

  @Test
  void theDefaultsAreUpstreamsAndHardened() {
    VoprfServerConfig config = load(production());

    assertThat(config.key().source()).isEqualTo(VoprfServerConfig.KeySource.SEED);
    assertThat(config.key().keyId()).isEqualTo("v1");
    assertThat(config.maxBatchSize()).isEqualTo(128);
    assertThat(config.port()).isEqualTo(8081);
    assertThat(config.development()).isFalse();
    VoprfServerConfig.Hardening hardening = config.hardening();
    assertThat(hardening.enabled()).isTrue();
    assertThat(hardening.requireTls()).isTrue();
    assertThat(hardening.requireAuthentication()).isTrue();
    assertThat(hardening.enableReflection()).isFalse();
    assertThat(hardening.enableDetailedErrors()).isFalse();
    assertThat(hardening.maxReceiveMessageSizeBytes()).isEqualTo(65536);
    assertThat(hardening.rateLimit())
        .isEqualTo(new VoprfServerConfig.RateLimit(true, 600, Duration.ofMinutes(1)));
    assertThat(config.authentication().mode())
        .isEqualTo(VoprfServerConfig.AuthenticationMode.CLIENT_CERTIFICATE);
    assertThat(config.authentication().allowedThumbprints())
        .containsExactly("abcdef0123456789abcdef0123456789abcdef01");
    assertThat(config.authenticates()).isTrue();
    assertThat(config.rateLimited()).isTrue();
  }

  @Test
  void theSeedSourceKeepsTheSeedAndTheKeyId() {
    VoprfServerConfig config = load(with(development(), "VoprfServer__Key__KeyId", "gen-2"));

    assertThat(config.key().material()).isEqualTo(Base64.getDecoder().decode(SEED));
    assertThat(config.key().keyId()).isEqualTo("gen-2");
  }

  @Test
  void keysMatchCaseInsensitively() {
    Map<String, String> env = development();
    env.put("voprfserver__key__keyid", "lower");
    env.put("VOPRFSERVER__MAXBATCHSIZE", "7");

    VoprfServerConfig config = load(env);

    assertThat(config.key().keyId()).isEqualTo("lower");
    assertThat(config.maxBatchSize()).isEqualTo(7);
  }

  @Test
  void noSecretIsInTheConfigurationsText() {
    assertThat(load(production()).toString()).doesNotContain(SEED).contains("keyId=v1");
  }

  @Test
  void unreadKeysOfTheSectionAreReportedWithoutValues() {
    Map<String, String> env =
        with(development(), "VoprfServer__Key__Seeed", "typo", "Http__Port", "1");

    VoprfServerSettings.Loaded loaded = VoprfServerSettings.read(env, Optional.empty());

    assertThat(loaded.unreadKeys()).containsExactly("VoprfServer__Key__Seeed");
  }

  @Test
  void vfpsItselfDoesNotReportTheServersSection() {
    LoadedConfig loaded =
        ConfigLoader.read(Map.of("VoprfServer__Key__Seed", SEED), Optional.empty());

    assertThat(loaded.unreadKeys()).noneMatch(key -> key.startsWith("VoprfServer"));
  }

  @Test
  void hardeningOffIsRefusedOutsideDevelopment() {
    Map<String, String> env = with(production(), "VoprfServer__Hardening__IsEnabled", "false");

    assertRefused(env, "VoprfServer__Hardening__IsEnabled: false is allowed only in Development");
    assertRefused(
        with(env, "ASPNETCORE_ENVIRONMENT", "Production", "DOTNET_ENVIRONMENT", "Development"),
        "VoprfServer__Hardening__IsEnabled");
    assertThat(load(with(env, "DOTNET_ENVIRONMENT", "development")).hardening().enabled())
        .isFalse();
  }

  @Test
  void hardenedTheTlsFilesAreRequired() {
    Map<String, String> env = production();
    env.remove("Kestrel__Certificates__Default__Path");
    env.remove("Kestrel__Certificates__Default__KeyPath");

    assertRefused(
        env, "Kestrel__Certificates__Default__Path, Kestrel__Certificates__Default__KeyPath");
    assertRefused(
        with(env, "VoprfServer__Hardening__RequireTls", "false"),
        "Kestrel__Certificates__Default__Path");
    assertThat(
            load(with(
                    env,
                    "VoprfServer__Hardening__RequireTls",
                    "false",
                    "VoprfServer__Hardening__RequireAuthentication",
                    "false"))
                .tls()
                .enabled())
        .isFalse();
  }

  @Test
  void ephemeralKeysAreRefusedWhileHardened() {
    assertRefused(
        with(production(), "VoprfServer__Key__Source", "Ephemeral"),
        "VoprfServer__Key__Source: Ephemeral is refused");

    Map<String, String> env = with(development(), "VoprfServer__Key__Source", "ephemeral");
    assertThat(load(env).key().source()).isEqualTo(VoprfServerConfig.KeySource.EPHEMERAL);
    assertThat(load(env).key().material()).isEmpty();
  }

  @Test
  void aKeyIdWithADotOrOtherCharactersIsRefused() {
    assertRefused(
        with(development(), "VoprfServer__Key__KeyId", "v1.1"),
        "VoprfServer__Key__KeyId: 'v1.1' contains '.'");
    assertRefused(
        with(development(), "VoprfServer__Key__KeyId", " "),
        "VoprfServer__Key__KeyId: must not be blank");
    assertRefused(
        with(development(), "VoprfServer__Key__KeyId", "a b"),
        "VoprfServer__Key__KeyId: 'a b' is not");
    assertRefused(
        with(development(), "VoprfServer__Key__KeyId", "k".repeat(65)), "VoprfServer__Key__KeyId");
    assertThat(load(with(development(), "VoprfServer__Key__KeyId", "k".repeat(64))).key().keyId())
        .hasSize(64);
  }

  @Test
  void theSeedMustBeBase64OfAtLeast32Bytes() {
    String short31 = Base64.getEncoder().encodeToString(new byte[31]);
    assertRefused(
        with(development(), "VoprfServer__Key__Seed", short31),
        "VoprfServer__Key__Seed: is 31 bytes; a seed is at least 32 bytes");
    assertRefused(
        with(development(), "VoprfServer__Key__Seed", "not base64!"),
        "VoprfServer__Key__Seed: is not base64");
    assertRefused(
        with(development(), "VoprfServer__Key__Seed", ""),
        "VoprfServer__Key__Seed: missing; VoprfServer__Key__Source=Seed needs it");
  }

  @Test
  void aBase64SecretMustBeANonZeroScalarBelowTheOrder() {
    byte[] one = new byte[32];
    one[0] = 1;
    byte[] tooLarge = new byte[32];
    Arrays.fill(tooLarge, (byte) 0xFF);
    Map<String, String> env = with(development(), "VoprfServer__Key__Source", "BASE64");

    BigInteger order =
        BigInteger.ONE.shiftLeft(252).add(new BigInteger("27742317777372353535851937790883648493"));

    assertThat(
            load(with(env, "VoprfServer__Key__Base64", Base64.getEncoder().encodeToString(one)))
                .key()
                .material())
        .isEqualTo(one);
    assertThat(
            load(with(
                    env, "VoprfServer__Key__Base64", littleEndian(order.subtract(BigInteger.ONE))))
                .key()
                .material())
        .hasSize(32);
    assertRefused(
        with(env, "VoprfServer__Key__Base64", littleEndian(order)),
        "VoprfServer__Key__Base64: the secret key is no non-zero scalar below the group order");
    assertRefused(
        with(env, "VoprfServer__Key__Base64", Base64.getEncoder().encodeToString(tooLarge)),
        "VoprfServer__Key__Base64: the secret key is no non-zero scalar below the group order");
    assertRefused(
        with(env, "VoprfServer__Key__Base64", Base64.getEncoder().encodeToString(new byte[32])),
        "VoprfServer__Key__Base64: the secret key is no non-zero scalar");
    assertRefused(
        with(env, "VoprfServer__Key__Base64", Base64.getEncoder().encodeToString(new byte[31])),
        "VoprfServer__Key__Base64: the secret key is 31 bytes");
    assertRefused(
        env, "VoprfServer__Key__Base64: missing; VoprfServer__Key__Source=Base64 needs it");
  }

  @Test
  void aKeyFileHoldsTheBase64Secret(@TempDir Path directory) throws Exception {
    byte[] secret = new byte[32];
    secret[0] = 7;
    Path file = directory.resolve("voprf.key");
    Files.writeString(file, "\n  " + Base64.getEncoder().encodeToString(secret) + "\n");
    Map<String, String> env = with(development(), "VoprfServer__Key__Source", "File");

    assertThat(load(with(env, "VoprfServer__Key__FilePath", file.toString())).key().material())
        .isEqualTo(secret);
    assertRefused(
        with(env, "VoprfServer__Key__FilePath", directory.resolve("missing").toString()),
        "VoprfServer__Key__FilePath: '");
    assertRefused(env, "VoprfServer__Key__FilePath: missing");
  }

  @Test
  void eachBadValueIsNamed() {
    Map<String, String> dev = development();
    assertRefused(
        with(dev, "VoprfServer__Key__Source", "Vault"),
        "VoprfServer__Key__Source: 'Vault' is not a key source");
    assertRefused(with(dev, "VoprfServer__MaxBatchSize", "0"), "VoprfServer__MaxBatchSize: '0'");
    assertRefused(with(dev, "Grpc__Port", "70000"), "Grpc__Port: '70000'");
    assertRefused(
        with(dev, "VoprfServer__Hardening__RateLimit__QueueLimit", "5"),
        "VoprfServer__Hardening__RateLimit__QueueLimit: '5' is not supported");
    assertRefused(
        with(dev, "VoprfServer__Hardening__RateLimit__Window", "a minute"),
        "VoprfServer__Hardening__RateLimit__Window: 'a minute'");
    assertRefused(
        with(dev, "VoprfServer__Hardening__RateLimit__PermitsPerWindow", "-1"),
        "VoprfServer__Hardening__RateLimit__PermitsPerWindow");
    assertRefused(
        with(dev, "VoprfServer__Hardening__MaxReceiveMessageSizeBytes", "0"),
        "VoprfServer__Hardening__MaxReceiveMessageSizeBytes");
    assertRefused(
        with(dev, "VoprfServer__Hardening__EnableReflection", "yes"),
        "VoprfServer__Hardening__EnableReflection: 'yes'");
    assertRefused(
        with(dev, "VoprfServer__Authentication__Mode", "Basic"),
        "VoprfServer__Authentication__Mode: 'Basic'");
    assertRefused(
        with(dev, "VoprfServer__Authentication__ClientCertificate__CheckRevocation", "true"),
        "VoprfServer__Authentication__ClientCertificate__CheckRevocation: true is not supported");
  }

  @Test
  void clientCertificatesNeedAllowedThumbprintsOfSha1OrSha256() {
    Map<String, String> env = production();
    env.remove("VoprfServer__Authentication__ClientCertificate__AllowedThumbprints__0");

    assertRefused(
        env, "VoprfServer__Authentication__ClientCertificate__AllowedThumbprints__0: missing");
    assertRefused(
        with(env, "VoprfServer__Authentication__ClientCertificate__AllowedThumbprints__0", "abc"),
        "VoprfServer__Authentication__ClientCertificate__AllowedThumbprints__0: 'abc' is not a");
    assertThat(
            load(with(
                    env,
                    "VoprfServer__Authentication__ClientCertificate__AllowedThumbprints__0",
                    SHA256.toUpperCase(),
                    "VoprfServer__Authentication__ClientCertificate__AllowedThumbprints__1",
                    SHA1.replace(":", " ")))
                .authentication()
                .allowedThumbprints())
        .containsExactly(SHA256, "abcdef0123456789abcdef0123456789abcdef01");
    assertThat(
            load(with(env, "VoprfServer__Hardening__RequireAuthentication", "false"))
                .authenticates())
        .isFalse();
  }

  @Test
  void jwtModeNeedsAuthorityAudienceAndScope() {
    Map<String, String> env =
        with(
            production(),
            "VoprfServer__Authentication__Mode",
            "jwt",
            "VoprfServer__Authentication__Jwt__Authority",
            "https://login.example.org/realms/r",
            "VoprfServer__Authentication__Jwt__Audience",
            "voprf",
            "VoprfServer__Authentication__Jwt__RequiredScope",
            "voprf:evaluate");

    VoprfServerConfig.Jwt jwt = load(env).authentication().jwt();
    assertThat(jwt.authority())
        .hasValueSatisfying(uri -> assertThat(uri.getHost()).isEqualTo("login.example.org"));
    assertThat(jwt.audience()).isEqualTo("voprf");
    assertThat(jwt.requiredScope()).isEqualTo("voprf:evaluate");
    assertRefused(
        with(env, "VoprfServer__Authentication__Jwt__Authority", ""),
        "VoprfServer__Authentication__Jwt__Authority: missing");
    assertRefused(
        with(env, "VoprfServer__Authentication__Jwt__Authority", "login.example.org"),
        "VoprfServer__Authentication__Jwt__Authority: 'login.example.org' is not");
    assertRefused(
        with(env, "VoprfServer__Authentication__Jwt__Authority", "http://login.example.org"),
        "VoprfServer__Authentication__Jwt__Authority: 'http://login.example.org' is not https");
    assertRefused(
        with(env, "VoprfServer__Authentication__Jwt__Audience", " "),
        "VoprfServer__Authentication__Jwt__Audience: missing");
    assertRefused(
        with(env, "VoprfServer__Authentication__Jwt__RequiredScope", ""),
        "VoprfServer__Authentication__Jwt__RequiredScope: missing");
  }

  /** The base64 of the 32-byte little-endian encoding of {@code value}. */
  private static String littleEndian(BigInteger value) {
    byte[] bigEndian = value.toByteArray();
    byte[] little = new byte[32];
    for (int i = 0; i < 32 && i < bigEndian.length; i++) {
      little[i] = bigEndian[bigEndian.length - 1 - i];
    }
    return Base64.getEncoder().encodeToString(little);
  }
}
