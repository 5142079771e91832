package org.vfps.config;

import static org.vfps.config.ConfigLoader.bool;
import static org.vfps.config.ConfigLoader.invalid;
import static org.vfps.config.ConfigLoader.positiveTimeSpan;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the service tells about itself: metrics ({@code Metrics:*}), tracing ({@code Tracing:*}) and
 * logging ({@code Logging:*}, {@code Audit:*}).
 */
final class ObservabilitySettings {

  private ObservabilitySettings() {}

  static MetricsConfig metrics(FlatSettings settings) {
    return new MetricsConfig(positiveTimeSpan(settings, "Metrics:PseudonymCountInterval"));
  }

  static TracingConfig tracing(FlatSettings settings) {
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

  static LoggingConfig logging(FlatSettings settings) {
    return new LoggingConfig(
        oneOf(settings, "Logging:Format", LoggingConfig.Format.class),
        oneOf(settings, "Logging:ClientErrors", LoggingConfig.ClientErrors.class),
        auditBatchReads(settings),
        auditChain(settings));
  }

  private static AuditChainConfig auditChain(FlatSettings settings) {
    return new AuditChainConfig(
        ConfigLoader.positiveInt(settings, "Audit:CheckpointEvery"),
        positiveTimeSpan(settings, "Audit:CheckpointInterval"),
        ConfigLoader.optionalPath(settings, "Audit:SigningKeyFile").map(AuditSigningKeyFile::read));
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
}
