package org.vfps.config;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.core.json.jackson.JacksonCodec;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Loads the {@link VfpsConfig} in .NET order: the defaults in the class path resource {@value
 * #DEFAULTS_RESOURCE}, then an optional settings file, then environment variables ({@code
 * Pseudonymization__Caching__SizeLimit} sets {@code Pseudonymization:Caching:SizeLimit}). Keys
 * match case-insensitively; environment variables outside the service's sections are ignored, and
 * keys inside them that nobody reads are reported ({@link LoadedConfig#unreadKeys()}). Every value
 * is checked here, so a bad one stops start-up with a {@link ConfigException} naming its key.
 *
 * <p>Each section is built by the class of its concern ({@link ServerSettings}, {@link
 * StorageSettings}, {@link ClusterSettings}, {@link ObservabilitySettings}, {@link NamespaceSeeds},
 * {@link AuthorizationSettings}, {@link CsvJobSettings}, {@link VoprfSettings}); they read their
 * values through the typed readers here ({@link #port}, {@link #bool}, {@link #timeSpan}, ...), so
 * that every error names its key the same way.
 */
public final class ConfigLoader {

  /** The class path resource holding the defaults, in .NET {@code appsettings.json} shape. */
  public static final String DEFAULTS_RESOURCE = "conf/appsettings.json";

  /**
   * Sections of the .NET service's configuration that vfps does not read: their keys are reported
   * as unread rather than dropped silently.
   */
  private static final List<String> DOTNET_SECTIONS = List.of("Kestrel");

  private ConfigLoader() {}

  /** Loads the configuration from the defaults and this process's environment variables. */
  public static VfpsConfig load() {
    return load(System.getenv());
  }

  /**
   * Loads the configuration from the defaults, the settings file and this process's environment.
   */
  public static VfpsConfig load(Path settingsFile) {
    return load(System.getenv(), settingsFile);
  }

  /**
   * Loads the configuration from the defaults and {@code environment}, which also supplies the
   * {@code PG*} fallbacks of the connection string.
   *
   * @throws ConfigException when a value is missing or invalid
   */
  public static VfpsConfig load(Map<String, String> environment) {
    return load(environment, Optional.empty());
  }

  /**
   * Loads the configuration from the defaults, then the JSON {@code settingsFile} (in {@code
   * appsettings.json} shape, like {@code appsettings.Development.json}), then {@code environment}.
   *
   * @throws ConfigException when the file cannot be read or a value is missing or invalid
   */
  public static VfpsConfig load(Map<String, String> environment, Path settingsFile) {
    return load(environment, Optional.of(settingsFile));
  }

  private static VfpsConfig load(Map<String, String> environment, Optional<Path> settingsFile) {
    return read(environment, settingsFile).config();
  }

  /**
   * Loads the configuration from the defaults, the optional JSON {@code settingsFile}, then {@code
   * environment}, with the keys nobody read.
   *
   * @throws ConfigException when the file cannot be read or a value is missing or invalid
   */
  public static LoadedConfig read(Map<String, String> environment, Optional<Path> settingsFile) {
    FlatSettings settings = new FlatSettings(readDefaults(), DOTNET_SECTIONS);
    settingsFile.ifPresent(file -> settings.overlay(readFile(file)));
    settings.overlayEnvironment(environment);
    VfpsConfig config =
        new VfpsConfig(
            StorageSettings.database(settings, environment),
            ServerSettings.server(settings),
            StorageSettings.caching(settings),
            NamespaceSeeds.read(settings),
            ClusterSettings.cluster(settings),
            ObservabilitySettings.metrics(settings),
            ObservabilitySettings.tracing(settings),
            ObservabilitySettings.logging(settings),
            ServerSettings.tls(settings),
            AuthorizationSettings.read(settings),
            StorageSettings.batch(settings),
            new GenerationConfig(bool(settings, "Pseudonymization:Sha256:IsEnabled")),
            ServerSettings.connections(settings),
            ServerSettings.admission(settings),
            CsvJobSettings.s3(settings),
            CsvJobSettings.csvProcessing(settings),
            VoprfSettings.read(settings),
            new SealingConfig(optionalPath(settings, "Sealing:KeyFile")));
    // the VOPRF server's own section (VoprfServerSettings), which vfps does not use
    settings.withPrefix("VoprfServer:");
    return new LoadedConfig(config, settings.unreadKeys(), settings.readKeys());
  }

  /**
   * An absolute {@code http} or {@code https} URL with a host and neither user info, query nor
   * fragment; empty when blank. {@code example} shows one in the error.
   */
  static Optional<URI> httpUrl(FlatSettings settings, String key, String example) {
    String value = settings.required(key).strip();
    if (value.isEmpty()) {
      return Optional.empty();
    }
    URI uri;
    try {
      uri = new URI(value);
    } catch (URISyntaxException e) {
      throw invalid(key, value, "is not a URL (e.g. " + example + ")");
    }
    if (uri.getHost() == null
        || !("http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme()))
        || uri.getRawUserInfo() != null
        || uri.getRawQuery() != null
        || uri.getRawFragment() != null) {
      throw invalid(
          key,
          value,
          "is not an http or https URL with a host and without a query (e.g. " + example + ")");
    }
    return Optional.of(uri);
  }

  static int port(FlatSettings settings, String key) {
    String value = settings.required(key);
    String digits = value.strip();
    if (!digits.matches("[0-9]{1,5}") || Integer.parseInt(digits) > ServerConfig.MAX_PORT) {
      throw invalid(key, value, "is not a port number (0-" + ServerConfig.MAX_PORT + ")");
    }
    return Integer.parseInt(digits);
  }

  static int positiveInt(FlatSettings settings, String key) {
    return intFromOne(settings, key, Integer.MAX_VALUE, "a positive integer");
  }

  static int nonNegativeInt(FlatSettings settings, String key) {
    String value = settings.required(key);
    String digits = value.strip();
    if (!digits.matches("[0-9]{1,9}")) {
      throw invalid(key, value, "is not an integer of 0 or more");
    }
    return Integer.parseInt(digits);
  }

  static long positiveLong(FlatSettings settings, String key) {
    String value = settings.required(key);
    String digits = value.strip();
    if (!digits.matches("[0-9]{1,18}") || Long.parseLong(digits) < 1) {
      throw invalid(key, value, "is not a positive integer");
    }
    return Long.parseLong(digits);
  }

  /** An integer from 1 to {@code max}; else the error says it is not {@code what}. */
  static int intFromOne(FlatSettings settings, String key, int max, String what) {
    String value = settings.required(key);
    String digits = value.strip();
    if (!digits.matches("[0-9]{1,10}")
        || Long.parseLong(digits) < 1
        || Long.parseLong(digits) > max) {
      throw invalid(key, value, "is not " + what + " (1-" + max + ")");
    }
    return Integer.parseInt(digits);
  }

  static boolean bool(FlatSettings settings, String key) {
    String value = settings.required(key);
    if (value.strip().equalsIgnoreCase("true")) {
      return true;
    }
    if (value.strip().equalsIgnoreCase("false")) {
      return false;
    }
    throw invalid(key, value, "is not a boolean (true or false)");
  }

  static Duration positiveTimeSpan(FlatSettings settings, String key) {
    Duration duration = timeSpan(settings, key);
    if (duration.isZero()) {
      throw invalid(key, settings.required(key), "is not a positive duration");
    }
    return duration;
  }

  /** A .NET TimeSpan of zero or more. */
  static Duration timeSpan(FlatSettings settings, String key) {
    String value = settings.required(key);
    Duration duration;
    try {
      duration = TimeSpans.parse(value);
    } catch (IllegalArgumentException e) {
      throw invalid(key, value, "is not a .NET TimeSpan (e.g. 0.01:00:00): " + e.getMessage());
    }
    if (duration.isNegative()) {
      throw invalid(key, value, "is negative");
    }
    return duration;
  }

  static Path path(FlatSettings settings, String key) {
    return optionalPath(settings, key)
        .orElseThrow(
            () -> new ConfigException(FlatSettings.environmentName(key) + ": must not be blank"));
  }

  /** A path, or empty when the value is blank. */
  static Optional<Path> optionalPath(FlatSettings settings, String key) {
    String value = settings.required(key);
    if (value.isBlank()) {
      return Optional.empty();
    }
    try {
      return Optional.of(Path.of(value.strip()));
    } catch (InvalidPathException e) {
      throw invalid(key, value, "is not a valid path");
    }
  }

  static ConfigException invalid(String key, String value, String problem) {
    return new ConfigException(FlatSettings.environmentName(key) + ": '" + value + "' " + problem);
  }

  /** The TLS section, as {@link VoprfServerSettings} reads it too. */
  static TlsConfig tls(FlatSettings settings) {
    return ServerSettings.tls(settings);
  }

  /** The logging section, as {@link VoprfServerSettings} reads it too. */
  static LoggingConfig logging(FlatSettings settings) {
    return ObservabilitySettings.logging(settings);
  }

  static JsonObject readDefaults() {
    ClassLoader loader = ConfigLoader.class.getClassLoader();
    try (InputStream in = loader.getResourceAsStream(DEFAULTS_RESOURCE)) {
      if (in == null) {
        throw new ConfigException(DEFAULTS_RESOURCE + ": not on the class path");
      }
      return json(new String(in.readAllBytes(), StandardCharsets.UTF_8), DEFAULTS_RESOURCE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static JsonObject readFile(Path file) {
    String text;
    try {
      text = Files.readString(file);
    } catch (IOException e) {
      throw new ConfigException(file + ": cannot be read (" + e.getClass().getSimpleName() + ")");
    }
    return json(text, file.toString());
  }

  /**
   * Parses with Jackson's streaming parser, not {@code new JsonObject(text)}: that one first builds
   * Vert.x's databind codec (an ObjectMapper; about 0.3 s of CPU in a fresh JVM) on the main
   * thread, before anything else of the start can begin. The first JSON the server needs after this
   * is read off the main thread, beside the rest of the start.
   */
  private static JsonObject json(String text, String source) {
    try {
      @SuppressWarnings("unchecked")
      Map<String, Object> object =
          JacksonCodec.fromParser(JacksonCodec.createParser(text), Map.class);
      return new JsonObject(object);
    } catch (DecodeException e) {
      // the decoder's message may quote the file, and with it a connection string
      throw new ConfigException(source + ": not a JSON object");
    }
  }
}
