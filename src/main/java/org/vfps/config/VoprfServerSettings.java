package org.vfps.config;

import java.io.IOException;
import java.math.BigInteger;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Loads the {@link VoprfServerConfig} as {@link ConfigLoader} loads vfps's: the defaults of {@value
 * ConfigLoader#DEFAULTS_RESOURCE}, then an optional JSON settings file, then environment variables
 * ({@code VoprfServer__Key__Seed} sets {@code VoprfServer:Key:Seed}), keys matched
 * case-insensitively. Keys of the {@code VoprfServer} section that nobody reads are reported. Every
 * value is checked here, the key material included (the key file is read), so a bad one stops the
 * start with a {@link ConfigException} naming its key; no message quotes a secret.
 *
 * <p>The key file ({@code VoprfServer__Key__FilePath}) holds the standard base64 of the 32-byte
 * secret scalar, little-endian, below the group order and not zero; whitespace around it is
 * ignored.
 */
public final class VoprfServerSettings {

  /** The section of the server's own settings. */
  static final String SECTION = "VoprfServer:";

  /** The environment variable naming the .NET environment, ahead of {@link #DOTNET_ENVIRONMENT}. */
  public static final String ASPNETCORE_ENVIRONMENT = "ASPNETCORE_ENVIRONMENT";

  /** The environment variable naming the .NET environment. */
  public static final String DOTNET_ENVIRONMENT = "DOTNET_ENVIRONMENT";

  /** The shortest seed, in bytes. */
  public static final int MIN_SEED_BYTES = 32;

  private static final String KEY = SECTION + "Key:";
  private static final String HARDENING = SECTION + "Hardening:";
  private static final String RATE_LIMIT = HARDENING + "RateLimit:";
  private static final String AUTHENTICATION = SECTION + "Authentication:";
  private static final String CLIENT_CERTIFICATE = AUTHENTICATION + "ClientCertificate:";
  private static final String JWT = AUTHENTICATION + "Jwt:";

  /** The bytes of a secret scalar. */
  private static final int SECRET_BYTES = 32;

  /** The order of the ristretto255 group: 2^252 + 27742317777372353535851937790883648493. */
  private static final BigInteger GROUP_ORDER =
      BigInteger.ONE.shiftLeft(252).add(new BigInteger("27742317777372353535851937790883648493"));

  private static final String KEY_ID_PATTERN = "[A-Za-z0-9_-]{1,64}";

  /**
   * A loaded configuration and the keys of the {@code VoprfServer} section nobody read.
   *
   * @param unreadKeys in environment variable form, sorted, without values; unmodifiable
   */
  public record Loaded(VoprfServerConfig config, List<String> unreadKeys) {

    public Loaded {
      unreadKeys = List.copyOf(unreadKeys);
    }
  }

  private VoprfServerSettings() {}

  /**
   * Loads the configuration from the defaults, the optional JSON {@code settingsFile}, then {@code
   * environment} (which also names the .NET environment).
   *
   * @throws ConfigException when the file cannot be read or a value is missing or invalid
   */
  public static Loaded read(Map<String, String> environment, Optional<Path> settingsFile) {
    FlatSettings settings = new FlatSettings(ConfigLoader.readDefaults(), List.of());
    settingsFile.ifPresent(file -> settings.overlay(ConfigLoader.readFile(file)));
    settings.overlayEnvironment(environment);
    boolean development = development(environment);
    VoprfServerConfig.Hardening hardening = hardening(settings, development);
    VoprfServerConfig config =
        new VoprfServerConfig(
            key(settings, hardening.enabled()),
            ConfigLoader.positiveInt(settings, SECTION + "MaxBatchSize"),
            ConfigLoader.port(settings, "Grpc:Port"),
            ConfigLoader.tls(settings),
            hardening,
            authentication(settings),
            ConfigLoader.logging(settings),
            development);
    checkHardening(config);
    List<String> unread = new ArrayList<>();
    for (String key : settings.unreadKeys()) {
      if (FlatSettings.startsWithIgnoreCase(key, FlatSettings.environmentName(SECTION))) {
        unread.add(key);
      }
    }
    return new Loaded(config, unread);
  }

  /** Whether the .NET environment is Development, as ASP.NET Core decides it. */
  private static boolean development(Map<String, String> environment) {
    String name = environment.get(ASPNETCORE_ENVIRONMENT);
    if (name == null || name.isBlank()) {
      name = environment.get(DOTNET_ENVIRONMENT);
    }
    return name != null && name.strip().equalsIgnoreCase("Development");
  }

  private static VoprfServerConfig.Hardening hardening(FlatSettings settings, boolean development) {
    boolean enabled = ConfigLoader.bool(settings, HARDENING + "IsEnabled");
    if (!enabled && !development) {
      throw new ConfigException(
          FlatSettings.environmentName(HARDENING + "IsEnabled")
              + ": false is allowed only in Development (set "
              + ASPNETCORE_ENVIRONMENT
              + " or "
              + DOTNET_ENVIRONMENT
              + " to Development), never in production");
    }
    if (ConfigLoader.nonNegativeInt(settings, RATE_LIMIT + "QueueLimit") > 0) {
      throw ConfigLoader.invalid(
          RATE_LIMIT + "QueueLimit",
          settings.required(RATE_LIMIT + "QueueLimit"),
          "is not supported: calls over the limit are refused at once; set 0");
    }
    return new VoprfServerConfig.Hardening(
        enabled,
        ConfigLoader.bool(settings, HARDENING + "RequireTls"),
        ConfigLoader.bool(settings, HARDENING + "RequireAuthentication"),
        ConfigLoader.bool(settings, HARDENING + "EnableReflection"),
        ConfigLoader.bool(settings, HARDENING + "EnableDetailedErrors"),
        ConfigLoader.positiveInt(settings, HARDENING + "MaxReceiveMessageSizeBytes"),
        new VoprfServerConfig.RateLimit(
            ConfigLoader.bool(settings, RATE_LIMIT + "IsEnabled"),
            ConfigLoader.positiveInt(settings, RATE_LIMIT + "PermitsPerWindow"),
            ConfigLoader.positiveTimeSpan(settings, RATE_LIMIT + "Window")));
  }

  /** The certificate and key are not configured, and {@code needsThem} says what needs them. */
  private static ConfigException tlsMissing(String needsThem) {
    return new ConfigException(
        TlsConfig.CERTIFICATE_PATH + ", " + TlsConfig.KEY_PATH + ": missing; " + needsThem);
  }

  /** What only the whole configuration can tell: TLS and credentials where hardening needs them. */
  private static void checkHardening(VoprfServerConfig config) {
    VoprfServerConfig.Hardening hardening = config.hardening();
    if (!hardening.enabled()) {
      return;
    }
    if (hardening.requireTls() && !config.tls().enabled()) {
      throw tlsMissing(
          FlatSettings.environmentName(HARDENING + "RequireTls")
              + "=true needs the PEM certificate and key");
    }
    if (!config.authenticates()) {
      return;
    }
    VoprfServerConfig.Authentication authentication = config.authentication();
    switch (authentication.mode()) {
      case CLIENT_CERTIFICATE -> {
        if (!config.tls().enabled()) {
          throw tlsMissing(
              "client certificates ("
                  + FlatSettings.environmentName(AUTHENTICATION + "Mode")
                  + "=ClientCertificate) need TLS");
        }
        if (authentication.allowedThumbprints().isEmpty()) {
          throw new ConfigException(
              FlatSettings.environmentName(CLIENT_CERTIFICATE + "AllowedThumbprints:0")
                  + ": missing; with client certificates required, at least one thumbprint must"
                  + " be allowed");
        }
      }
      case JWT -> {
        if (authentication.jwt().authority().isEmpty()) {
          throw new ConfigException(
              FlatSettings.environmentName(JWT + "Authority")
                  + ": missing; "
                  + FlatSettings.environmentName(AUTHENTICATION + "Mode")
                  + "=Jwt needs the OIDC issuer");
        }
        URI authority = authentication.jwt().authority().get();
        if (!"https".equalsIgnoreCase(authority.getScheme()) && !config.development()) {
          throw ConfigLoader.invalid(
              JWT + "Authority", authority.toString(), "is not https (http only in Development)");
        }
        requireText(authentication.jwt().audience(), JWT + "Audience");
        requireText(authentication.jwt().requiredScope(), JWT + "RequiredScope");
      }
    }
  }

  private static void requireText(String value, String key) {
    if (value.isBlank()) {
      throw new ConfigException(
          FlatSettings.environmentName(key)
              + ": missing; "
              + FlatSettings.environmentName(AUTHENTICATION + "Mode")
              + "=Jwt needs it");
    }
  }

  private static VoprfServerConfig.Key key(FlatSettings settings, boolean hardened) {
    VoprfServerConfig.KeySource source = source(settings);
    String keyId = keyId(settings);
    String seed = settings.required(KEY + "Seed").strip();
    String base64 = settings.required(KEY + "Base64").strip();
    String filePath = settings.required(KEY + "FilePath").strip();
    byte[] material =
        switch (source) {
          case SEED -> {
            byte[] bytes = decode(needed(seed, KEY + "Seed", source), KEY + "Seed");
            if (bytes.length < MIN_SEED_BYTES) {
              throw new ConfigException(
                  FlatSettings.environmentName(KEY + "Seed")
                      + ": is "
                      + bytes.length
                      + " bytes; a seed is at least "
                      + MIN_SEED_BYTES
                      + " bytes of base64");
            }
            yield bytes;
          }
          case BASE64 ->
              secret(
                  decode(needed(base64, KEY + "Base64", source), KEY + "Base64"), KEY + "Base64");
          case FILE ->
              secret(readKeyFile(needed(filePath, KEY + "FilePath", source)), KEY + "FilePath");
          case EPHEMERAL -> {
            if (hardened) {
              throw new ConfigException(
                  FlatSettings.environmentName(KEY + "Source")
                      + ": Ephemeral is refused while "
                      + FlatSettings.environmentName(HARDENING + "IsEnabled")
                      + "=true: every restart would change every pseudonym");
            }
            yield new byte[0];
          }
        };
    VoprfServerConfig.Key key = new VoprfServerConfig.Key(source, keyId, material);
    Arrays.fill(material, (byte) 0);
    return key;
  }

  private static VoprfServerConfig.KeySource source(FlatSettings settings) {
    String value = settings.required(KEY + "Source");
    for (VoprfServerConfig.KeySource source : VoprfServerConfig.KeySource.values()) {
      if (source.name().equalsIgnoreCase(value.strip())) {
        return source;
      }
    }
    throw ConfigLoader.invalid(
        KEY + "Source", value, "is not a key source (Seed, File, Base64 or Ephemeral)");
  }

  private static String keyId(FlatSettings settings) {
    String value = settings.required(KEY + "KeyId");
    String keyId = value.strip();
    if (keyId.isEmpty()) {
      throw new ConfigException(
          FlatSettings.environmentName(KEY + "KeyId") + ": must not be blank");
    }
    if (keyId.contains(".")) {
      throw ConfigLoader.invalid(
          KEY + "KeyId", value, "contains '.', which pseudonyms use to separate the key id");
    }
    if (!keyId.matches(KEY_ID_PATTERN)) {
      throw ConfigLoader.invalid(
          KEY + "KeyId", value, "is not 1 to 64 of the characters A-Z a-z 0-9 _ -");
    }
    return keyId;
  }

  /** The value the chosen source needs; missing (blank) is an error naming it. */
  private static String needed(String value, String key, VoprfServerConfig.KeySource source) {
    if (value.isEmpty()) {
      throw new ConfigException(
          FlatSettings.environmentName(key)
              + ": missing; "
              + FlatSettings.environmentName(KEY + "Source")
              + "="
              + sourceName(source)
              + " needs it");
    }
    return value;
  }

  private static String sourceName(VoprfServerConfig.KeySource source) {
    String name = source.name().toLowerCase(Locale.ROOT);
    return name.equals("base64")
        ? "Base64"
        : Character.toUpperCase(name.charAt(0)) + name.substring(1);
  }

  /** Standard base64; never quoted in the error, as it is a secret. */
  private static byte[] decode(String value, String key) {
    try {
      return Base64.getDecoder().decode(value);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(FlatSettings.environmentName(key) + ": is not base64");
    }
  }

  /** The secret, if it is a non-zero ristretto255 scalar below the group order, little-endian. */
  private static byte[] secret(byte[] secret, String key) {
    if (secret.length != SECRET_BYTES) {
      int length = secret.length;
      Arrays.fill(secret, (byte) 0);
      throw new ConfigException(
          FlatSettings.environmentName(key)
              + ": the secret key is "
              + length
              + " bytes; it is the base64 of "
              + SECRET_BYTES
              + " bytes (a ristretto255 scalar, little-endian)");
    }
    byte[] bigEndian = new byte[SECRET_BYTES];
    for (int i = 0; i < SECRET_BYTES; i++) {
      bigEndian[i] = secret[SECRET_BYTES - 1 - i];
    }
    BigInteger scalar = new BigInteger(1, bigEndian);
    Arrays.fill(bigEndian, (byte) 0);
    if (scalar.signum() == 0 || scalar.compareTo(GROUP_ORDER) >= 0) {
      Arrays.fill(secret, (byte) 0);
      throw new ConfigException(
          FlatSettings.environmentName(key)
              + ": the secret key is no non-zero scalar below the group order");
    }
    return secret;
  }

  private static byte[] readKeyFile(String path) {
    String key = KEY + "FilePath";
    String text;
    try {
      text = Files.readString(Path.of(path), StandardCharsets.US_ASCII).strip();
    } catch (IOException | RuntimeException e) {
      throw new ConfigException(
          FlatSettings.environmentName(key)
              + ": '"
              + path
              + "' cannot be read ("
              + e.getClass().getSimpleName()
              + ")");
    }
    try {
      return Base64.getDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(
          FlatSettings.environmentName(key) + ": '" + path + "' does not hold base64");
    }
  }

  private static VoprfServerConfig.Authentication authentication(FlatSettings settings) {
    String modeValue = settings.required(AUTHENTICATION + "Mode");
    VoprfServerConfig.AuthenticationMode mode;
    if (modeValue.strip().equalsIgnoreCase("ClientCertificate")) {
      mode = VoprfServerConfig.AuthenticationMode.CLIENT_CERTIFICATE;
    } else if (modeValue.strip().equalsIgnoreCase("Jwt")) {
      mode = VoprfServerConfig.AuthenticationMode.JWT;
    } else {
      throw ConfigLoader.invalid(
          AUTHENTICATION + "Mode",
          modeValue,
          "is not an authentication mode (ClientCertificate or Jwt)");
    }
    if (ConfigLoader.bool(settings, CLIENT_CERTIFICATE + "CheckRevocation")) {
      throw new ConfigException(
          FlatSettings.environmentName(CLIENT_CERTIFICATE + "CheckRevocation")
              + ": true is not supported; the allowed thumbprints pin each certificate, so"
              + " revoking one is removing its thumbprint. Set false");
    }
    List<String> thumbprints = new ArrayList<>();
    String array = CLIENT_CERTIFICATE + "AllowedThumbprints";
    List<String> values = AuthorizationSettings.strings(settings, array);
    for (int i = 0; i < values.size(); i++) {
      thumbprints.add(thumbprint(values.get(i), array + ":" + i));
    }
    return new VoprfServerConfig.Authentication(
        mode,
        thumbprints,
        new VoprfServerConfig.Jwt(
            ConfigLoader.httpUrl(
                settings, JWT + "Authority", "https://idp.example.org/realms/vfps"),
            settings.required(JWT + "Audience").strip(),
            settings.required(JWT + "RequiredScope").strip()));
  }

  /** Lower-case hex of 40 (SHA-1) or 64 (SHA-256) digits; colons and whitespace are dropped. */
  static String thumbprint(String value, String key) {
    String hex = value.replaceAll("[:\\s]", "").toLowerCase(Locale.ROOT);
    if (!hex.matches("[0-9a-f]{40}|[0-9a-f]{64}")) {
      throw ConfigLoader.invalid(
          key, value, "is not a certificate thumbprint (hex SHA-1, 40 digits, or SHA-256, 64)");
    }
    return hex;
  }
}
