package org.vfps.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.vfps.config.ConnectionSettings.SslMode;
import org.vfps.config.TracingConfig.RootSampler;

class ConfigLoaderTest {

  private static final String COMPOSE_CONNECTION_STRING =
      "Host=postgresql:5432;Database=vfps;Timeout=60;Max Auto Prepare=5;Application Name=vfps;"
          + "Maximum Pool Size=50;";

  @Test
  void loadsDefaultsWhenEnvironmentIsEmpty() {
    VfpsConfig config = ConfigLoader.load(Map.of());

    assertThat(config.database())
        .isEqualTo(new DatabaseConfig(Optional.empty(), Path.of("./data/postgres"), false));
    assertThat(config.server())
        .isEqualTo(new ServerConfig(8080, 8081, 8082, true, 1_048_576, TrustedProxies.NONE));
    assertThat(config.caching())
        .isEqualTo(new CachingConfig(false, false, 65534, Duration.ofHours(1)));
    assertThat(config.initNamespaces()).isEmpty();
    assertThat(config.batch()).isEqualTo(new BatchConfig(10_000));
    assertThat(ConfigLoader.load(Map.of("Pseudonymization__Batch__MaxSize", " 250 ")).batch())
        .isEqualTo(new BatchConfig(250));
    assertThat(config.generation()).isEqualTo(new GenerationConfig(true));
    assertThat(
            ConfigLoader.load(Map.of("PSEUDONYMIZATION__SHA256__ISENABLED", "false")).generation())
        .isEqualTo(new GenerationConfig(false));
    assertThat(config.admission())
        .isEqualTo(
            new AdmissionConfig(
                512, 128, 32, Duration.ofMinutes(1), 65_536, 4_194_304, Duration.ofSeconds(30)));
    assertThat(config.cluster())
        .isEqualTo(
            new ClusterConfig(
                false, "vfps", 5701, java.util.List.of(), "", "", 0, Duration.ofSeconds(5)));
    assertThat(config.metrics()).isEqualTo(new MetricsConfig(Duration.ofMinutes(5)));
    assertThat(config.tracing())
        .isEqualTo(
            new TracingConfig(
                false,
                "vfps",
                RootSampler.ALWAYS_ON,
                0.1,
                URI.create("http://localhost:4318/v1/traces")));
    assertThat(config.logging()).isEqualTo(new LoggingConfig(LoggingConfig.Format.TEXT));
    assertThat(config.connections())
        .isEqualTo(
            new ConnectionConfig(
                Duration.ofSeconds(30),
                Duration.ofMinutes(2),
                Duration.ofSeconds(30),
                Duration.ofMinutes(5),
                Duration.ofSeconds(20),
                Duration.ofSeconds(10),
                Duration.ZERO,
                Duration.ofSeconds(10)));
    assertThat(config.tls())
        .isEqualTo(new TlsConfig(Optional.empty(), Optional.empty(), Duration.ofSeconds(30)));
    assertThat(config.tls().enabled()).isFalse();
  }

  @Test
  void tlsFilesComeWithTheDotnetNames() {
    VfpsConfig config =
        ConfigLoader.load(
            Map.of(
                "Kestrel__Certificates__Default__Path", " /etc/vfps/tls/tls.crt ",
                "Kestrel__Certificates__Default__KeyPath", "/etc/vfps/tls/tls.key",
                "Kestrel__Certificates__Default__ReloadInterval", "00:00:00.5"));

    assertThat(config.tls())
        .isEqualTo(
            new TlsConfig(
                Optional.of(Path.of("/etc/vfps/tls/tls.crt")),
                Optional.of(Path.of("/etc/vfps/tls/tls.key")),
                Duration.ofMillis(500)));
    assertThat(config.tls().enabled()).isTrue();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "Kestrel__Certificates__Default__Path|Kestrel__Certificates__Default__KeyPath: missing"
            + " (Kestrel__Certificates__Default__Path is set; TLS needs the certificate and its key)",
        "Kestrel__Certificates__Default__KeyPath|Kestrel__Certificates__Default__Path: missing"
            + " (Kestrel__Certificates__Default__KeyPath is set; TLS needs the certificate and its"
            + " key)"
      })
  void oneTlsFileWithoutTheOtherNamesTheMissingOne(String name, String message) {
    assertThatExceptionOfType(ConfigException.class)
        .isThrownBy(() -> ConfigLoader.load(Map.of(name, "/etc/vfps/tls/file.pem")))
        .withMessage(message);
  }

  @Test
  void aKeyPasswordIsRefusedWithoutQuotingIt() {
    assertThatExceptionOfType(ConfigException.class)
        .isThrownBy(
            () -> ConfigLoader.load(Map.of("Kestrel__Certificates__Default__Password", "s3cr3t")))
        .withMessageStartingWith(
            "Kestrel__Certificates__Default__Password: encrypted private keys are not supported")
        .withMessageNotContaining("s3cr3t");
  }

  @Test
  void connectionLimitsMayBeTurnedOffButNotNegative() {
    VfpsConfig off = ConfigLoader.load(Map.of("Grpc__KeepAliveTime", "00:00:00"));

    assertThat(off.connections().grpcKeepAliveTime()).isZero();
    assertThatThrownBy(() -> ConfigLoader.load(Map.of("Http__IdleTimeout", "-00:00:01")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("Http__IdleTimeout");
    assertThatThrownBy(() -> ConfigLoader.load(Map.of("Grpc__MaxConnectionAge", "soon")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("Grpc__MaxConnectionAge");
  }

  @Test
  void clusterSettingsComeFromTheEnvironment() {
    VfpsConfig config =
        ConfigLoader.load(
            Map.of(
                "Cluster__IsEnabled", "true",
                "Cluster__Name", "vfps-prod",
                "Cluster__Port", "15701",
                "Cluster__Members", " 10.0.0.1:5701, vfps-1 ,",
                "Cluster__Kubernetes__ServiceDns", "vfps-headless.default.svc.cluster.local",
                "Cluster__Host", "127.0.0.1",
                "Cluster__EventBus__Port", "15801",
                "Cluster__EvictionTimeout", "00:00:01.5"));

    assertThat(config.cluster())
        .isEqualTo(
            new ClusterConfig(
                true,
                "vfps-prod",
                15701,
                java.util.List.of("10.0.0.1:5701", "vfps-1"),
                "vfps-headless.default.svc.cluster.local",
                "127.0.0.1",
                15801,
                Duration.ofMillis(1500)));
  }

  @Test
  void readsTracingLoggingAndMetricsSettingsFromEnvironment() {
    VfpsConfig config =
        ConfigLoader.load(
            Map.of(
                "Tracing__IsEnabled", "true",
                "Tracing__ServiceName", "vfps-staging",
                "Tracing__RootSampler", "TraceIdRatioBasedSampler",
                "Tracing__SamplingProbability", "0.25",
                "Tracing__Otlp__Endpoint", "https://collector.example:4318/otlp/v1/traces",
                "Tracing__Exporter", "Jaeger",
                "Logging__Format", "JSON",
                "Metrics__PseudonymCountInterval", "00:00:30"));

    assertThat(config.tracing())
        .isEqualTo(
            new TracingConfig(
                true,
                "vfps-staging",
                RootSampler.TRACE_ID_RATIO_BASED,
                0.25,
                URI.create("https://collector.example:4318/otlp/v1/traces")));
    assertThat(config.logging().format()).isEqualTo(LoggingConfig.Format.JSON);
    assertThat(config.metrics().pseudonymCountInterval()).isEqualTo(Duration.ofSeconds(30));
  }

  @ParameterizedTest
  @CsvSource({
    "Cluster__IsEnabled, yes",
    "Cluster__Port, 70000",
    "Cluster__Members, 'a b:1'",
    "Cluster__EvictionTimeout, 5s",
    "Cluster__Name, ' '"
  })
  void badClusterSettingsNameTheirKey(String key, String value) {
    assertThatExceptionOfType(ConfigException.class)
        .isThrownBy(() -> ConfigLoader.load(Map.of(key, value)))
        .withMessageStartingWith(key + ":");
  }

  @ParameterizedTest
  @CsvSource({
    "http://jaeger:4318, http://jaeger:4318/v1/traces",
    "http://jaeger:4318/, http://jaeger:4318/v1/traces",
    "http://127.0.0.1:14318/v1/traces, http://127.0.0.1:14318/v1/traces"
  })
  void anOtlpEndpointWithoutAPathGetsTheTracesPath(String configured, String endpoint) {
    VfpsConfig config = ConfigLoader.load(Map.of("Tracing__Otlp__Endpoint", configured));

    assertThat(config.tracing().otlpEndpoint()).isEqualTo(URI.create(endpoint));
  }

  @Test
  void aBlankServiceNameMeansVfps() {
    VfpsConfig config = ConfigLoader.load(Map.of("Tracing__ServiceName", " "));

    assertThat(config.tracing().serviceName()).isEqualTo("vfps");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "AlwaysOnSampler|ALWAYS_ON",
        "alwaysoffsampler|ALWAYS_OFF",
        "TraceIdRatioBasedSampler|TRACE_ID_RATIO_BASED"
      })
  void rootSamplersAreNamedAsInDotnet(String name, RootSampler sampler) {
    VfpsConfig config = ConfigLoader.load(Map.of("Tracing__RootSampler", name));

    assertThat(config.tracing().rootSampler()).isEqualTo(sampler);
  }

  @Test
  void environmentOverridesDefaults() {
    VfpsConfig config =
        ConfigLoader.load(
            Map.of(
                "Http__Port", "9090",
                "Grpc__Port", "0",
                "MetricsPort", "0",
                "Grpc__Reflection__IsEnabled", "FALSE",
                "ForceRunDatabaseMigrations", "True",
                "Database__Embedded__DataDirectory", "/var/lib/vfps",
                "Pseudonymization__Caching__Namespaces__IsEnabled", "true",
                "Pseudonymization__Caching__Pseudonyms__IsEnabled", "true",
                "Pseudonymization__Caching__SizeLimit", "100",
                "Pseudonymization__Caching__AbsoluteExpiration", "00:05:00"));

    assertThat(config.server())
        .isEqualTo(new ServerConfig(9090, 0, 0, false, 1_048_576, TrustedProxies.NONE));
    assertThat(config.database().forceRunMigrations()).isTrue();
    assertThat(config.database().embeddedDataDirectory()).isEqualTo(Path.of("/var/lib/vfps"));
    assertThat(config.caching())
        .isEqualTo(new CachingConfig(true, true, 100, Duration.ofMinutes(5)));
  }

  @Test
  void admissionBoundsComeFromTheEnvironment() {
    VfpsConfig config =
        ConfigLoader.load(
            Map.of(
                "Admission__MaxConcurrentRequests",
                "8",
                "Admission__MaxQueuedWrites",
                "100",
                "Admission__MaxReplyBytes",
                "65536",
                "Http__RequestTimeout",
                "00:01:00"));

    assertThat(config.admission())
        .isEqualTo(
            new AdmissionConfig(
                8, 2, 1, Duration.ofMinutes(1), 100, 65_536, Duration.ofMinutes(1)));
    assertThat(
            ConfigLoader.load(
                    Map.of(
                        "Admission__MaxConcurrentRequests", "100",
                        "Admission__MaxConcurrentRequestsPerCaller", " 40 ",
                        "Admission__MaxOpenStreamsPerCaller", "40",
                        "Admission__StreamIdleTimeout", "00:00:00"))
                .admission())
        .isEqualTo(
            new AdmissionConfig(
                100, 40, 40, Duration.ZERO, 65_536, 4_194_304, Duration.ofSeconds(30)));
  }

  @Test
  void requestBodyLimitComesFromTheEnvironment() {
    VfpsConfig config = ConfigLoader.load(Map.of("Http__MaxRequestBodyBytes", "65536"));

    assertThat(config.server().httpMaxRequestBodyBytes()).isEqualTo(65_536);
  }

  @Test
  void trustedProxiesAreAddressesAndRangesAndNoneByDefault() {
    assertThat(ConfigLoader.load(Map.of()).server().trustedProxies().trusts("127.0.0.1")).isFalse();

    TrustedProxies trusted =
        ConfigLoader.load(Map.of("Http__TrustedProxies", " 10.1.2.3, 192.168.0.0/16,fd00::/8,::1 "))
            .server()
            .trustedProxies();

    assertThat(trusted.ranges())
        .extracting(TrustedProxies.Range::toString)
        .containsExactly(
            "10.1.2.3/32", "192.168.0.0/16", "fd00:0:0:0:0:0:0:0/8", "0:0:0:0:0:0:0:1/128");
    assertThat(trusted.trusts("10.1.2.3")).isTrue();
    assertThat(trusted.trusts("10.1.2.4")).isFalse();
    assertThat(trusted.trusts("192.168.255.7")).isTrue();
    assertThat(trusted.trusts("192.169.0.1")).isFalse();
    assertThat(trusted.trusts("fdab::1")).isTrue();
    assertThat(trusted.trusts("fe00::1")).isFalse();
    assertThat(trusted.trusts("::1")).isTrue();
    // an IPv4 peer as an IPv6 listener sees it
    assertThat(trusted.trusts("::ffff:10.1.2.3")).isTrue();
    assertThat(trusted.trusts("proxy.example")).isFalse();
    assertThat(trusted.trusts("")).isFalse();
    TrustedProxies odd = TrustedProxies.parse("172.16.0.0/12, 0.0.0.0/0");
    assertThat(odd.trusts("8.8.8.8")).isTrue();
    assertThat(TrustedProxies.parse("172.16.0.0/12").trusts("172.31.255.255")).isTrue();
    assertThat(TrustedProxies.parse("172.16.0.0/12").trusts("172.32.0.0")).isFalse();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "proxy.example|'proxy.example' is not an IP address or CIDR range",
        "10.0.0.0/33|'10.0.0.0/33' has no prefix length of 0 to 32 after its '/'",
        "10.0.0.0/|'10.0.0.0/' has no prefix length of 0 to 32 after its '/'",
        "10.0.0.1/8|'10.0.0.1/8' has bits set past its prefix",
        "10.0.0.256|'10.0.0.256' is not an IP address or CIDR range",
        "/8|'/8' is not an IP address or CIDR range",
        "fd00::/129|'fd00::/129' has no prefix length of 0 to 128 after its '/'"
      })
  void aTrustedProxyThatIsNoAddressOrRangeStopsTheStartNamingTheKey(String value, String problem) {
    assertThatExceptionOfType(ConfigException.class)
        .isThrownBy(() -> ConfigLoader.load(Map.of("Http__TrustedProxies", "10.0.0.7, " + value)))
        .withMessageStartingWith("Http__TrustedProxies: " + problem);
  }

  @Test
  void environmentNamesMatchKeysCaseInsensitively() {
    VfpsConfig config =
        ConfigLoader.load(
            Map.of(
                "http__port", "9091",
                "PSEUDONYMIZATION__CACHING__SIZELIMIT", "7",
                "metricsport", "9100"));

    assertThat(config.server().httpPort()).isEqualTo(9091);
    assertThat(config.server().metricsPort()).isEqualTo(9100);
    assertThat(config.caching().sizeLimit()).isEqualTo(7);
  }

  @Test
  void ignoresEnvironmentVariablesThatNameNoKey() {
    VfpsConfig config =
        ConfigLoader.load(
            Map.of(
                "PATH", "/usr/bin:/bin",
                "HOME", "/root",
                "Http__Portx", "abc",
                "Http__Port__Extra", "abc",
                "Telemetry__IsEnabled", "maybe"));

    assertThat(config).isEqualTo(ConfigLoader.load(Map.of()));
  }

  @Test
  void connectionStringFromEnvironmentUsesPgUserAndPassword() {
    VfpsConfig config =
        ConfigLoader.load(
            Map.of(
                "ConnectionStrings__PostgreSQL", COMPOSE_CONNECTION_STRING,
                "PGUSER", "postgres",
                "PGPASSWORD", "postgres"));

    assertThat(config.database().connection())
        .contains(
            new ConnectionSettings(
                "postgresql",
                5432,
                "vfps",
                "postgres",
                "postgres",
                50,
                Duration.ofSeconds(60),
                SslMode.PREFER,
                "vfps"));
    assertThat(config.database().ignoredConnectionKeywords()).containsExactly("Max Auto Prepare");
  }

  @Test
  void blankConnectionStringMeansEmbeddedDatabase() {
    VfpsConfig config = ConfigLoader.load(Map.of("ConnectionStrings__PostgreSQL", "   "));

    assertThat(config.database().connection()).isEmpty();
  }

  @Test
  void connectionSettingsToStringHidesThePassword() {
    VfpsConfig config =
        ConfigLoader.load(
            Map.of("ConnectionStrings__PostgreSQL", "Host=h;Username=u;Password=s3cret-pw"));

    assertThat(config.database().connection()).isPresent();
    assertThat(config.database().connection().get().toString())
        .doesNotContain("s3cret-pw")
        .contains("password=****")
        .contains("host=h");
    assertThat(config.toString()).doesNotContain("s3cret-pw");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "MetricsPort|abc|MetricsPort: 'abc' is not a port number (0-65535)",
        "Http__Port|65536|Http__Port: '65536' is not a port number (0-65535)",
        "Grpc__Port|-1|Grpc__Port: '-1' is not a port number (0-65535)",
        "Http__MaxRequestBodyBytes|0|Http__MaxRequestBodyBytes: '0' is not a positive integer"
            + " (1-2147483647)",
        "Http__MaxRequestBodyBytes|2147483648|Http__MaxRequestBodyBytes: '2147483648' is not a"
            + " positive integer (1-2147483647)",
        "Http__MaxRequestBodyBytes|1MiB|Http__MaxRequestBodyBytes: '1MiB' is not a positive"
            + " integer (1-2147483647)",
        "Grpc__Reflection__IsEnabled|yes|Grpc__Reflection__IsEnabled: 'yes' is not a boolean"
            + " (true or false)",
        "ForceRunDatabaseMigrations|1|ForceRunDatabaseMigrations: '1' is not a boolean"
            + " (true or false)",
        "Pseudonymization__Caching__Namespaces__IsEnabled|on|Pseudonymization__Caching__Namespaces"
            + "__IsEnabled: 'on' is not a boolean (true or false)",
        "Pseudonymization__Caching__Pseudonyms__IsEnabled|no|Pseudonymization__Caching__Pseudonyms"
            + "__IsEnabled: 'no' is not a boolean (true or false)",
        "Pseudonymization__Caching__SizeLimit|0|Pseudonymization__Caching__SizeLimit: '0' is not a"
            + " positive integer",
        "Pseudonymization__Caching__SizeLimit|many|Pseudonymization__Caching__SizeLimit: 'many' is"
            + " not a positive integer",
        "Admission__MaxConcurrentRequests|0|Admission__MaxConcurrentRequests: '0' is not a"
            + " positive integer (1-2147483647)",
        "Admission__MaxConcurrentRequestsPerCaller|513|Admission__MaxConcurrentRequestsPerCaller:"
            + " '513' is not from 1 to Admission__MaxConcurrentRequests (512), nor empty for a"
            + " quarter of it",
        "Admission__MaxConcurrentRequestsPerCaller|0|Admission__MaxConcurrentRequestsPerCaller:"
            + " '0' is not from 1 to Admission__MaxConcurrentRequests (512), nor empty for a"
            + " quarter of it",
        "Admission__MaxOpenStreamsPerCaller|129|Admission__MaxOpenStreamsPerCaller: '129' is not"
            + " from 1 to Admission__MaxConcurrentRequestsPerCaller (128), nor empty for a quarter"
            + " of it",
        "Admission__MaxQueuedWrites|-1|Admission__MaxQueuedWrites: '-1' is not a positive"
            + " integer (1-2147483647)",
        "Admission__MaxReplyBytes|4MiB|Admission__MaxReplyBytes: '4MiB' is not a positive"
            + " integer (1-2147483647)",
        "Pseudonymization__Batch__MaxSize|0|Pseudonymization__Batch__MaxSize: '0' is not a batch"
            + " size (1-100000)",
        "Pseudonymization__Batch__MaxSize|100001|Pseudonymization__Batch__MaxSize: '100001' is not"
            + " a batch size (1-100000)",
        "Pseudonymization__Batch__MaxSize|10k|Pseudonymization__Batch__MaxSize: '10k' is not a"
            + " batch size (1-100000)",
        "Pseudonymization__Caching__AbsoluteExpiration|00:00:00|Pseudonymization__Caching__"
            + "AbsoluteExpiration: '00:00:00' is not a positive duration",
        "Database__Embedded__DataDirectory|''|Database__Embedded__DataDirectory: must not be blank",
        "Tracing__IsEnabled|on|Tracing__IsEnabled: 'on' is not a boolean (true or false)",
        "Pseudonymization__Sha256__IsEnabled|no|Pseudonymization__Sha256__IsEnabled: 'no' is not a"
            + " boolean (true or false)",
        "Tracing__RootSampler|ParentBasedSampler|Tracing__RootSampler: 'ParentBasedSampler' is not a"
            + " root sampler (AlwaysOnSampler, AlwaysOffSampler or TraceIdRatioBasedSampler)",
        "Tracing__SamplingProbability|1.5|Tracing__SamplingProbability: '1.5' is not a probability"
            + " (a number from 0 to 1)",
        "Tracing__SamplingProbability|NaN|Tracing__SamplingProbability: 'NaN' is not a probability"
            + " (a number from 0 to 1)",
        "Tracing__SamplingProbability|ten percent|Tracing__SamplingProbability: 'ten percent' is"
            + " not a probability (a number from 0 to 1)",
        "Tracing__Exporter|zipkin|Tracing__Exporter: 'zipkin' is not one of otlp, jaeger",
        "Tracing__Otlp__Endpoint|jaeger:4317|Tracing__Otlp__Endpoint: 'jaeger:4317' is not an http"
            + " or https URL with a host (e.g. http://jaeger:4318)",
        "Tracing__Otlp__Endpoint|http://[::1|Tracing__Otlp__Endpoint: 'http://[::1' is not a URL"
            + " (e.g. http://jaeger:4318)",
        "Logging__Format|xml|Logging__Format: 'xml' is not one of text, json",
        "Metrics__PseudonymCountInterval|00:00:00|Metrics__PseudonymCountInterval: '00:00:00' is"
            + " not a positive duration",
        "Kestrel__Certificates__Default__ReloadInterval|00:00:00|Kestrel__Certificates__Default__"
            + "ReloadInterval: '00:00:00' is not a positive duration"
      })
  void badValueNamesItsKey(String name, String value, String message) {
    assertThatExceptionOfType(ConfigException.class)
        .isThrownBy(() -> ConfigLoader.load(Map.of(name, value)))
        .withMessage(message);
  }

  @Test
  void badTimeSpanNamesItsKeyAndTheExpectedForm() {
    assertThatExceptionOfType(ConfigException.class)
        .isThrownBy(
            () ->
                ConfigLoader.load(
                    Map.of("Pseudonymization__Caching__AbsoluteExpiration", "1 hour")))
        .withMessageStartingWith(
            "Pseudonymization__Caching__AbsoluteExpiration: '1 hour' is not a .NET TimeSpan"
                + " (e.g. 0.01:00:00)");
  }

  @Test
  void badKeyNameUsesTheCanonicalSpellingWhateverTheEnvironmentCase() {
    assertThatExceptionOfType(ConfigException.class)
        .isThrownBy(() -> ConfigLoader.load(Map.of("METRICSPORT", "x")))
        .withMessageStartingWith("MetricsPort: ");
  }

  @Test
  void badConnectionStringNamesKeywordButNeverPasswordOrString() {
    assertThatExceptionOfType(ConfigException.class)
        .isThrownBy(
            () ->
                ConfigLoader.load(
                    Map.of(
                        "ConnectionStrings__PostgreSQL",
                        "Host=h;Port=5x;Username=u;Password=s3cret-pw")))
        .withMessage("ConnectionStrings__PostgreSQL: Port '5x' is not a port number (1-65535)")
        .withMessageNotContaining("s3cret-pw");
  }

  @Test
  void readsInitNamespacesFromEnvironmentInIndexOrder() {
    Map<String, String> environment = new LinkedHashMap<>();
    environment.put("Init__v1__Namespaces__1__Name", "second");
    environment.put("Init__v1__Namespaces__1__PseudonymLength", "0");
    environment.put("Init__v1__Namespaces__1__PseudonymGenerationMethod", "Uuid4");
    environment.put("Init__v1__Namespaces__0__Name", "development");
    environment.put("Init__v1__Namespaces__0__Description", "for trying it out");
    environment.put(
        "Init__v1__Namespaces__0__PseudonymGenerationMethod", "SecureRandomBase64UrlEncoded");
    environment.put("Init__v1__Namespaces__0__PseudonymLength", "16");
    environment.put("Init__v1__Namespaces__0__PseudonymPrefix", "dev-");
    environment.put("Init__v1__Namespaces__0__PseudonymSuffix", "-x");

    VfpsConfig config = ConfigLoader.load(environment);

    assertThat(config.initNamespaces())
        .containsExactly(
            new NamespaceSeed(
                "Init__v1__Namespaces__0",
                "development",
                "for trying it out",
                "SecureRandomBase64UrlEncoded",
                16,
                "dev-",
                "-x"),
            new NamespaceSeed("Init__v1__Namespaces__1", "second", null, "Uuid4", 0, null, null));
  }

  @Test
  void ordersInitNamespacesByNumericIndexAndMatchesNamesCaseInsensitively() {
    VfpsConfig config =
        ConfigLoader.load(
            Map.of(
                "INIT__V1__NAMESPACES__10__NAME", "ten",
                "init__v1__namespaces__10__pseudonymlength", "10",
                "Init__v1__Namespaces__2__Name", "two",
                "Init__v1__Namespaces__2__PseudonymLength", "2"));

    assertThat(config.initNamespaces())
        .extracting(NamespaceSeed::key, NamespaceSeed::name, NamespaceSeed::pseudonymLength)
        .containsExactly(
            tuple("Init__v1__Namespaces__2", "two", 2L),
            tuple("Init__v1__Namespaces__10", "ten", 10L));
  }

  @Test
  void initNamespaceWithoutNameIsAnError() {
    assertThatExceptionOfType(ConfigException.class)
        .isThrownBy(
            () -> ConfigLoader.load(Map.of("Init__v1__Namespaces__0__PseudonymLength", "16")))
        .withMessageStartingWith("Init__v1__Namespaces__0__Name: missing");
  }

  @Test
  void initNamespaceWithoutLengthIsAnError() {
    assertThatExceptionOfType(ConfigException.class)
        .isThrownBy(() -> ConfigLoader.load(Map.of("Init__v1__Namespaces__0__Name", "a")))
        .withMessageStartingWith("Init__v1__Namespaces__0__PseudonymLength: missing");
  }

  @ParameterizedTest
  @CsvSource({"-1", "abc", "1.5", "''"})
  void initNamespaceLengthMustBeANonNegativeInteger(String length) {
    assertThatExceptionOfType(ConfigException.class)
        .isThrownBy(
            () ->
                ConfigLoader.load(
                    Map.of(
                        "Init__v1__Namespaces__3__Name",
                        "a",
                        "Init__v1__Namespaces__3__PseudonymLength",
                        length)))
        .withMessage(
            "Init__v1__Namespaces__3__PseudonymLength: '"
                + length
                + "' is not a non-negative integer");
  }

  @Test
  void unknownInitNamespaceSettingIsAnError() {
    assertThatExceptionOfType(ConfigException.class)
        .isThrownBy(
            () ->
                ConfigLoader.load(
                    Map.of(
                        "Init__v1__Namespaces__0__Name", "a",
                        "Init__v1__Namespaces__0__PseudonymLength", "1",
                        "Init__v1__Namespaces__0__PseudonymLenght", "2")))
        .withMessageStartingWith("Init__v1__Namespaces__0__PseudonymLenght: unknown setting");
  }

  @Test
  void settingsFileSitsBetweenDefaultsAndEnvironment(@TempDir Path directory) throws IOException {
    Path file = directory.resolve("appsettings.Development.json");
    Files.writeString(
        file,
        """
        {
          "MetricsPort": 0,
          "Http": { "Port": 18080 },
          "Unrelated": { "Key": "ignored" },
          "Pseudonymization": { "Caching": { "Namespaces": { "IsEnabled": true } } },
          "Init": { "v1": { "Namespaces": [
            { "Name": "development", "PseudonymGenerationMethod": "SecureRandomBase64UrlEncoded",
              "PseudonymLength": 16, "PseudonymPrefix": "dev-" }
          ] } }
        }
        """);

    VfpsConfig config = ConfigLoader.load(Map.of("Http__Port", "28080"), file);

    assertThat(config.server().metricsPort()).isZero();
    assertThat(config.server().httpPort()).isEqualTo(28080);
    assertThat(config.caching().namespacesEnabled()).isTrue();
    assertThat(config.initNamespaces())
        .containsExactly(
            new NamespaceSeed(
                "Init__v1__Namespaces__0",
                "development",
                null,
                "SecureRandomBase64UrlEncoded",
                16,
                "dev-",
                null));
  }

  @Test
  void unreadableSettingsFileIsAnErrorNamingTheFile(@TempDir Path directory) {
    Path missing = directory.resolve("missing.json");

    assertThatExceptionOfType(ConfigException.class)
        .isThrownBy(() -> ConfigLoader.load(Map.of(), missing))
        .withMessageStartingWith(missing + ": cannot be read");
  }

  @Test
  void malformedSettingsFileIsAnErrorThatDoesNotQuoteIt(@TempDir Path directory)
      throws IOException {
    Path file = directory.resolve("broken.json");
    Files.writeString(file, "{\"ConnectionStrings\": {\"PostgreSQL\": \"Password=s3cret-pw\"");

    assertThatExceptionOfType(ConfigException.class)
        .isThrownBy(() -> ConfigLoader.load(Map.of(), file))
        .withMessage(file + ": not a JSON object");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "[{\"MetricsPort\": 9000}]",
        "{\"MetricsPort\": 9000} {\"MetricsPort\": 9001}",
        "{\"MetricsPort\": 9000} trailing",
        "\"MetricsPort\"",
        ""
      })
  void aSettingsFileIsOneJsonObjectAndNothingElse(String text, @TempDir Path directory)
      throws IOException {
    Path file = directory.resolve("appsettings.json");
    Files.writeString(file, text);

    assertThatExceptionOfType(ConfigException.class)
        .isThrownBy(() -> ConfigLoader.load(Map.of(), file))
        .withMessage(file + ": not a JSON object");
  }

  @Test
  void readsTheS3BucketAndTheCsvWorkersWithTheDotnetDefaults() {
    VfpsConfig defaults = ConfigLoader.load(Map.of());
    assertThat(defaults.s3().enabled()).isFalse();
    assertThat(defaults.s3().region()).isEqualTo("us-east-1");
    assertThat(defaults.s3().presignedUrlExpiry()).isEqualTo(java.time.Duration.ofMinutes(15));
    assertThat(defaults.csvProcessing().downloadUrlExpiry())
        .isEqualTo(java.time.Duration.ofMinutes(5));
    assertThat(defaults.csvProcessing().batchSize()).isEqualTo(1000);
    assertThat(defaults.csvProcessing().missingValuePlaceholders()).containsExactly("NA", "NULL");
    assertThat(defaults.csvProcessing().orphanedJobRecoveryDelay())
        .isEqualTo(java.time.Duration.ofMinutes(2));

    VfpsConfig configured =
        ConfigLoader.load(
            Map.of(
                "S3__IsEnabled", "true",
                "S3__ServiceUrl", "http://minio:9000",
                "S3__Bucket", "jobs",
                "S3__AccessKey", "key",
                "S3__SecretKey", "secret-value",
                "S3__AllowedOrigins__0", "https://vfps.example.org",
                "CsvProcessing__MissingValuePlaceholders__0", " n/a ",
                "CsvProcessing__WorkerCount", "2"));
    assertThat(configured.s3().serviceUrl()).hasValue(java.net.URI.create("http://minio:9000"));
    assertThat(configured.s3().allowedOrigins()).containsExactly("https://vfps.example.org");
    assertThat(configured.s3().toString()).doesNotContain("secret-value");
    assertThat(configured.csvProcessing().missingValuePlaceholders())
        .containsExactly("n/a", "NULL");
    assertThat(configured.csvProcessing().workerCount()).isEqualTo(2);
  }

  @Test
  void anS3BucketOrCsvSettingThatCannotBeHonouredStopsTheStartNamingTheKey() {
    assertThatExceptionOfType(ConfigException.class)
        .isThrownBy(() -> ConfigLoader.load(Map.of("S3__IsEnabled", "true")))
        .withMessageStartingWith("S3__Bucket:");
    assertThatExceptionOfType(ConfigException.class)
        .isThrownBy(() -> ConfigLoader.load(Map.of("S3__AccessKey", "key")))
        .withMessageStartingWith("S3__SecretKey:")
        .withMessageNotContaining("key'");
    assertThatExceptionOfType(ConfigException.class)
        .isThrownBy(() -> ConfigLoader.load(Map.of("S3__ServiceUrl", "minio:9000")))
        .withMessageStartingWith("S3__ServiceUrl:");
    assertThatExceptionOfType(ConfigException.class)
        .isThrownBy(() -> ConfigLoader.load(Map.of("S3__AllowedOrigins__0", "vfps.example.org")))
        .withMessageStartingWith("S3__AllowedOrigins__0:");
    assertThatExceptionOfType(ConfigException.class)
        .isThrownBy(() -> ConfigLoader.load(Map.of("CsvProcessing__CheckpointBytes", "1000")))
        .withMessageStartingWith("CsvProcessing__CheckpointBytes:");
    assertThatExceptionOfType(ConfigException.class)
        .isThrownBy(() -> ConfigLoader.load(Map.of("S3__PresignedUrlExpiry", "8.00:00:00")))
        .withMessageStartingWith("S3__PresignedUrlExpiry:");
    assertThatExceptionOfType(ConfigException.class)
        .isThrownBy(
            () -> ConfigLoader.load(Map.of("CsvProcessing__DownloadUrlExpiry", "0.01:00:01")))
        .withMessageStartingWith("CsvProcessing__DownloadUrlExpiry:");
    assertThatExceptionOfType(ConfigException.class)
        .isThrownBy(() -> ConfigLoader.load(Map.of("CsvProcessing__AbandonedJobExpiry", "one day")))
        .withMessageStartingWith("CsvProcessing__AbandonedJobExpiry:");
    assertThatExceptionOfType(ConfigException.class)
        .isThrownBy(
            () -> ConfigLoader.load(Map.of("CsvProcessing__AbandonedJobExpiry", "0.00:00:00")))
        .withMessageStartingWith("CsvProcessing__AbandonedJobExpiry:");
  }

  @Test
  void anAbandonedJobExpiresAfterTheSettingButNeverWhileItsUploadUrlWorks() {
    assertThat(ConfigLoader.load(Map.of()).csvProcessing().abandonedJobExpiry())
        .isEqualTo(Duration.ofDays(1));
    assertThat(
            ConfigLoader.load(Map.of("CsvProcessing__AbandonedJobExpiry", "0.02:00:00"))
                .csvProcessing()
                .abandonedJobExpiry())
        .isEqualTo(Duration.ofHours(2));
    assertThat(
            ConfigLoader.load(
                    Map.of(
                        "CsvProcessing__AbandonedJobExpiry",
                        "0.00:01:00",
                        "S3__PresignedUrlExpiry",
                        "0.00:30:00"))
                .csvProcessing()
                .abandonedJobExpiry())
        .isEqualTo(Duration.ofMinutes(30));
  }
}
