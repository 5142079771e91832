package org.vfps.config;

import java.net.URI;
import java.util.Objects;
import org.vfps.error.ConstantNames;

/**
 * OpenTelemetry tracing ({@code Tracing__*}), with the .NET service's keys. The root sampler
 * decides for requests that arrive without a sampled parent; a parent's decision is always
 * followed.
 *
 * @param enabled whether spans are recorded and exported ({@code IsEnabled})
 * @param serviceName the resource's {@code service.name} ({@code ServiceName}); not blank
 * @param rootSampler the sampler of root spans ({@code RootSampler})
 * @param samplingProbability the ratio {@link RootSampler#TRACE_ID_RATIO_BASED} samples, 0 to 1
 *     ({@code SamplingProbability})
 * @param otlpEndpoint where spans are sent as OTLP over HTTP ({@code Otlp__Endpoint}); the {@code
 *     /v1/traces} path is part of it
 */
public record TracingConfig(
    boolean enabled,
    String serviceName,
    RootSampler rootSampler,
    double samplingProbability,
    URI otlpEndpoint) {

  /** The endpoint when none is configured: an OpenTelemetry Collector or Jaeger on this host. */
  public static final URI DEFAULT_OTLP_ENDPOINT = URI.create("http://localhost:4318/v1/traces");

  /** The root samplers of the .NET service, by their .NET names. */
  public enum RootSampler {
    ALWAYS_ON,
    ALWAYS_OFF,
    TRACE_ID_RATIO_BASED;

    private static final ConstantNames<RootSampler> DOTNET_NAMES =
        ConstantNames.pascalCase(values(), "Sampler");

    /**
     * The name the configuration uses, the constant's name in Pascal case and {@code Sampler}:
     * {@code AlwaysOnSampler}.
     */
    public String dotnetName() {
      return DOTNET_NAMES.of(this);
    }
  }

  /**
   * The exporters {@code Exporter} may name; checked at load, not kept: Jaeger receives OTLP
   * natively, so every one sends OTLP.
   */
  public enum Exporter {
    OTLP,
    JAEGER
  }

  public TracingConfig {
    Objects.requireNonNull(serviceName, "serviceName");
    if (serviceName.isBlank()) {
      throw new IllegalArgumentException("serviceName must not be blank");
    }
    Objects.requireNonNull(rootSampler, "rootSampler");
    if (!(samplingProbability >= 0 && samplingProbability <= 1)) {
      throw new IllegalArgumentException(
          "samplingProbability must be 0 to 1: " + samplingProbability);
    }
    Objects.requireNonNull(otlpEndpoint, "otlpEndpoint");
  }
}
