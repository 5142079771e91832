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
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Loads the {@link VfpsConfig} in .NET order: the defaults in the class path resource {@value
 * #DEFAULTS_RESOURCE}, then an optional settings file, then environment variables ({@code
 * Pseudonymization__Caching__SizeLimit} sets {@code Pseudonymization:Caching:SizeLimit}). Keys
 * match case-insensitively; environment variables outside the service's sections are ignored, and
 * keys inside them that nobody reads are reported ({@link LoadedConfig#unreadKeys()}). Every value
 * is checked here, so a bad one stops start-up with a {@link ConfigException} naming its key.
 */
public final class ConfigLoader {

  /** The class path resource holding the defaults, in .NET {@code appsettings.json} shape. */
  public static final String DEFAULTS_RESOURCE = "conf/appsettings.json";

  /**
   * Sections of the .NET service's configuration that vfps does not read: their keys are reported
   * as unread rather than dropped silently.
   */
  private static final List<String> DOTNET_SECTIONS = List.of("Kestrel");

  private static final String CONNECTION_STRING = "ConnectionStrings:PostgreSQL";
  private static final String INIT_NAMESPACES = "Init:v1:Namespaces:";
  private static final String INIT_ENTRY = "Init__v1__Namespaces__";
  private static final List<String> SEED_FIELDS =
      List.of(
          "Name",
          "Description",
          "PseudonymGenerationMethod",
          "PseudonymLength",
          "PseudonymPrefix",
          "PseudonymSuffix");

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
            database(settings, environment),
            server(settings),
            caching(settings),
            initNamespaces(settings),
            cluster(settings),
            metrics(settings),
            tracing(settings),
            logging(settings),
            tls(settings),
            AuthorizationSettings.read(settings),
            batch(settings),
            new GenerationConfig(bool(settings, "Pseudonymization:Sha256:IsEnabled")),
            connections(settings),
            admission(settings),
            CsvJobSettings.s3(settings),
            CsvJobSettings.csvProcessing(settings),
            VoprfSettings.read(settings));
    // the VOPRF server's own section (VoprfServerSettings), which vfps does not use
    settings.withPrefix("VoprfServer:");
    return new LoadedConfig(config, settings.unreadKeys(), settings.readKeys());
  }

  private static ConnectionConfig connections(FlatSettings settings) {
    return new ConnectionConfig(
        timeSpan(settings, "Http:RequestHeadersTimeout"),
        timeSpan(settings, "Http:IdleTimeout"),
        timeSpan(settings, "Grpc:RequestHeadersTimeout"),
        timeSpan(settings, "Grpc:MaxConnectionIdle"),
        timeSpan(settings, "Grpc:KeepAliveTime"),
        timeSpan(settings, "Grpc:KeepAliveTimeout"),
        timeSpan(settings, "Grpc:MaxConnectionAge"),
        timeSpan(settings, "HostOptions:ShutdownTimeout"));
  }

  private static AdmissionConfig admission(FlatSettings settings) {
    int total = positiveInt(settings, "Admission:MaxConcurrentRequests");
    int perCaller =
        share(settings, "Admission:MaxConcurrentRequestsPerCaller", total, "MaxConcurrentRequests");
    return new AdmissionConfig(
        total,
        perCaller,
        share(
            settings,
            "Admission:MaxOpenStreamsPerCaller",
            perCaller,
            "MaxConcurrentRequestsPerCaller"),
        timeSpan(settings, "Admission:StreamIdleTimeout"),
        positiveInt(settings, "Admission:MaxQueuedWrites"),
        positiveInt(settings, "Admission:MaxReplyBytes"),
        timeSpan(settings, "Http:RequestTimeout"));
  }

  /**
   * A caller's share of {@code whole}, the value of the key {@code Admission:<of>}: from 1 to it,
   * or a quarter of it when blank.
   */
  private static int share(FlatSettings settings, String key, int whole, String of) {
    String value = settings.required(key);
    if (value.isBlank()) {
      return AdmissionConfig.quarterOf(whole);
    }
    String digits = value.strip();
    if (!digits.matches("[0-9]{1,10}")
        || Long.parseLong(digits) < 1
        || Long.parseLong(digits) > whole) {
      throw invalid(
          key,
          value,
          "is not from 1 to Admission__" + of + " (" + whole + "), nor empty for a quarter of it");
    }
    return Integer.parseInt(digits);
  }

  private static DatabaseConfig database(FlatSettings settings, Map<String, String> environment) {
    String connectionString = settings.required(CONNECTION_STRING);
    Optional<ConnectionSettings> connection = Optional.empty();
    List<String> ignored = List.of();
    if (!connectionString.isBlank()) {
      try {
        NpgsqlConnectionString.Parsed parsed =
            NpgsqlConnectionString.parse(connectionString, environment);
        connection = Optional.of(parsed.settings());
        ignored = parsed.ignoredKeywords();
      } catch (IllegalArgumentException e) {
        // the parser's messages name keywords only, never the password or the string
        throw new ConfigException(
            FlatSettings.environmentName(CONNECTION_STRING) + ": " + e.getMessage());
      }
    }
    return new DatabaseConfig(
        connection,
        path(settings, "Database:Embedded:DataDirectory"),
        bool(settings, "ForceRunDatabaseMigrations"),
        ignored,
        bool(settings, "Database:Embedded:Durable"));
  }

  private static ServerConfig server(FlatSettings settings) {
    return new ServerConfig(
        port(settings, "Http:Port"),
        port(settings, "Grpc:Port"),
        port(settings, "MetricsPort"),
        bool(settings, "Grpc:Reflection:IsEnabled"),
        positiveInt(settings, "Http:MaxRequestBodyBytes"),
        trustedProxies(settings, "Http:TrustedProxies"));
  }

  private static TrustedProxies trustedProxies(FlatSettings settings, String key) {
    String value = settings.required(key);
    try {
      return TrustedProxies.parse(value);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(FlatSettings.environmentName(key) + ": " + e.getMessage());
    }
  }

  private static CachingConfig caching(FlatSettings settings) {
    String key = "Pseudonymization:Caching:SizeLimit";
    String sizeLimit = settings.required(key);
    if (!sizeLimit.strip().matches("[0-9]{1,18}") || Long.parseLong(sizeLimit.strip()) < 1) {
      throw invalid(key, sizeLimit, "is not a positive integer");
    }
    return new CachingConfig(
        bool(settings, "Pseudonymization:Caching:Namespaces:IsEnabled"),
        bool(settings, "Pseudonymization:Caching:Pseudonyms:IsEnabled"),
        Long.parseLong(sizeLimit.strip()),
        positiveTimeSpan(settings, "Pseudonymization:Caching:AbsoluteExpiration"));
  }

  private static BatchConfig batch(FlatSettings settings) {
    return new BatchConfig(
        intFromOne(settings, "Pseudonymization:Batch:MaxSize", BatchConfig.LIMIT, "a batch size"));
  }

  private static ClusterConfig cluster(FlatSettings settings) {
    String name = settings.required("Cluster:Name").strip();
    if (name.isEmpty()) {
      throw new ConfigException(
          FlatSettings.environmentName("Cluster:Name") + ": must not be blank");
    }
    String membersKey = "Cluster:Members";
    List<String> members = new ArrayList<>();
    for (String member : settings.required(membersKey).split(",")) {
      String address = member.strip();
      if (address.isEmpty()) {
        continue;
      }
      if (!address.matches("[^:\\s]+(:[0-9]{1,5})?")) {
        throw invalid(membersKey, address, "is not a host or host:port");
      }
      members.add(address);
    }
    return new ClusterConfig(
        bool(settings, "Cluster:IsEnabled"),
        name,
        port(settings, "Cluster:Port"),
        members,
        settings.required("Cluster:Kubernetes:ServiceDns").strip(),
        settings.required("Cluster:Host").strip(),
        port(settings, "Cluster:EventBus:Port"),
        positiveTimeSpan(settings, "Cluster:EvictionTimeout"));
  }

  private static MetricsConfig metrics(FlatSettings settings) {
    return new MetricsConfig(positiveTimeSpan(settings, "Metrics:PseudonymCountInterval"));
  }

  private static TracingConfig tracing(FlatSettings settings) {
    String serviceName = settings.required("Tracing:ServiceName").strip();
    // checked, so that a misspelt exporter is an error; every exporter sends OTLP
    oneOf(settings, "Tracing:Exporter", TracingConfig.Exporter.class);
    return new TracingConfig(
        bool(settings, "Tracing:IsEnabled"),
        serviceName.isEmpty() ? "vfps" : serviceName,
        rootSampler(settings, "Tracing:RootSampler"),
        probability(settings, "Tracing:SamplingProbability"),
        otlpEndpoint(settings, "Tracing:Otlp:Endpoint"));
  }

  /** Both files or neither; an encrypted key (Kestrel's {@code Password}) is refused. */
  static TlsConfig tls(FlatSettings settings) {
    String prefix = "Kestrel:Certificates:Default:";
    Optional<Path> certificate = optionalPath(settings, prefix + "Path");
    Optional<Path> key = optionalPath(settings, prefix + "KeyPath");
    if (certificate.isPresent() != key.isPresent()) {
      String missing = certificate.isPresent() ? TlsConfig.KEY_PATH : TlsConfig.CERTIFICATE_PATH;
      String set = certificate.isPresent() ? TlsConfig.CERTIFICATE_PATH : TlsConfig.KEY_PATH;
      throw new ConfigException(
          missing + ": missing (" + set + " is set; TLS needs the certificate and its key)");
    }
    if (!settings.required(prefix + "Password").isEmpty()) {
      // never quote it: it is a secret
      throw new ConfigException(
          FlatSettings.environmentName(prefix + "Password")
              + ": encrypted private keys are not supported; give an unencrypted PEM key in "
              + TlsConfig.KEY_PATH
              + " and leave the password empty");
    }
    return new TlsConfig(certificate, key, positiveTimeSpan(settings, prefix + "ReloadInterval"));
  }

  static LoggingConfig logging(FlatSettings settings) {
    return new LoggingConfig(
        oneOf(settings, "Logging:Format", LoggingConfig.Format.class),
        oneOf(settings, "Logging:ClientErrors", LoggingConfig.ClientErrors.class),
        auditBatchReads(settings));
  }

  private static LoggingConfig.AuditBatchReads auditBatchReads(FlatSettings settings) {
    String key = "Audit:BatchReads";
    String value = settings.required(key);
    List<String> names = new ArrayList<>();
    for (LoggingConfig.AuditBatchReads mode : LoggingConfig.AuditBatchReads.values()) {
      if (mode.settingValue().equalsIgnoreCase(value.strip())) {
        return mode;
      }
      names.add(mode.settingValue());
    }
    throw invalid(key, value, "is not one of " + String.join(", ", names));
  }

  private static TracingConfig.RootSampler rootSampler(FlatSettings settings, String key) {
    String value = settings.required(key);
    for (TracingConfig.RootSampler sampler : TracingConfig.RootSampler.values()) {
      if (sampler.dotnetName().equalsIgnoreCase(value.strip())) {
        return sampler;
      }
    }
    throw invalid(
        key,
        value,
        "is not a root sampler (AlwaysOnSampler, AlwaysOffSampler or TraceIdRatioBasedSampler)");
  }

  private static double probability(FlatSettings settings, String key) {
    String value = settings.required(key);
    try {
      double probability = Double.parseDouble(value.strip());
      if (probability >= 0 && probability <= 1) {
        return probability;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw invalid(key, value, "is not a probability (a number from 0 to 1)");
  }

  /**
   * An OTLP/HTTP traces URL; an endpoint without a path (as an OTLP/gRPC endpoint is written) gets
   * the {@code /v1/traces} path. Blank means {@link TracingConfig#DEFAULT_OTLP_ENDPOINT}.
   */
  private static URI otlpEndpoint(FlatSettings settings, String key) {
    String value = settings.required(key);
    if (value.isBlank()) {
      return TracingConfig.DEFAULT_OTLP_ENDPOINT;
    }
    URI uri;
    try {
      uri = new URI(value.strip());
    } catch (URISyntaxException e) {
      throw invalid(key, value, "is not a URL (e.g. http://jaeger:4318)");
    }
    if (uri.getHost() == null
        || !("http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme()))
        || uri.getRawUserInfo() != null) {
      throw invalid(
          key, value, "is not an http or https URL with a host (e.g. http://jaeger:4318)");
    }
    String path = uri.getRawPath();
    return path == null || path.isEmpty() || path.equals("/") ? uri.resolve("/v1/traces") : uri;
  }

  /** The constant of {@code type} named by the value, ignoring case. */
  private static <E extends Enum<E>> E oneOf(FlatSettings settings, String key, Class<E> type) {
    String value = settings.required(key);
    for (E constant : type.getEnumConstants()) {
      if (constant.name().equalsIgnoreCase(value.strip())) {
        return constant;
      }
    }
    List<String> names = new ArrayList<>();
    for (E constant : type.getEnumConstants()) {
      names.add(constant.name().toLowerCase(Locale.ROOT));
    }
    throw invalid(key, value, "is not one of " + String.join(", ", names));
  }

  /** Groups {@code Init:v1:Namespaces:N:Field} by N, in index order. */
  private static List<NamespaceSeed> initNamespaces(FlatSettings settings) {
    Map<Integer, Map<String, String>> entries = new TreeMap<>();
    settings
        .withPrefix(INIT_NAMESPACES)
        .forEach(
            (key, value) -> {
              String[] parts = key.substring(INIT_NAMESPACES.length()).split(":", -1);
              if (parts.length != 2 || !parts[0].matches(FlatSettings.INDEX)) {
                throw new ConfigException(
                    FlatSettings.environmentName(key)
                        + ": expected "
                        + INIT_ENTRY
                        + "<index>__<setting>");
              }
              String field =
                  SEED_FIELDS.stream()
                      .filter(parts[1]::equalsIgnoreCase)
                      .findFirst()
                      .orElseThrow(
                          () ->
                              new ConfigException(
                                  FlatSettings.environmentName(key)
                                      + ": unknown setting (expected one of "
                                      + String.join(", ", SEED_FIELDS)
                                      + ")"));
              entries
                  .computeIfAbsent(Integer.parseInt(parts[0]), index -> new TreeMap<>())
                  .put(field, value);
            });
    List<NamespaceSeed> seeds = new ArrayList<>();
    entries.forEach((index, fields) -> seeds.add(seed(INIT_ENTRY + index, fields)));
    return seeds;
  }

  private static NamespaceSeed seed(String entry, Map<String, String> fields) {
    String name = fields.get("Name");
    if (name == null) {
      throw new ConfigException(entry + "__Name: missing (every namespace needs a name)");
    }
    if (name.isBlank()) {
      throw new ConfigException(entry + "__Name: must not be blank");
    }
    String length = fields.get("PseudonymLength");
    if (length == null) {
      throw new ConfigException(
          entry + "__PseudonymLength: missing (a non-negative integer is required)");
    }
    if (!length.strip().matches("[0-9]{1,18}")) {
      throw new ConfigException(
          entry + "__PseudonymLength: '" + length + "' is not a non-negative integer");
    }
    return new NamespaceSeed(
        entry,
        name,
        fields.get("Description"),
        fields.get("PseudonymGenerationMethod"),
        Long.parseLong(length.strip()),
        fields.get("PseudonymPrefix"),
        fields.get("PseudonymSuffix"));
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
  private static int intFromOne(FlatSettings settings, String key, int max, String what) {
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
