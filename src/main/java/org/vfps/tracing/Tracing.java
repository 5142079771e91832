package org.vfps.tracing;

import io.vertx.core.spi.VertxTracerFactory;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.vfps.config.TracingConfig;

/**
 * The tracing of a running service: when enabled, an OpenTelemetry SDK that samples parent-based
 * with the configured root sampler, leaves probes and the metrics scrape out, and exports OTLP over
 * HTTP in batches; when disabled, nothing at all, and no OpenTelemetry class is loaded (the SDK
 * lives in a class of its own that only an enabled start names). Thread-safe.
 */
public final class Tracing implements AutoCloseable {

  private final SdkTracing sdk;

  private Tracing(SdkTracing sdk) {
    this.sdk = sdk;
  }

  /** Tracing that records nothing. */
  public static Tracing disabled() {
    return new Tracing(null);
  }

  /**
   * Starts the SDK when {@code config} enables tracing.
   *
   * @param version the service version, exported as {@code service.version}
   */
  public static Tracing start(TracingConfig config, String version) {
    if (!config.enabled()) {
      return disabled();
    }
    return new Tracing(SdkTracing.start(config, version));
  }

  public boolean enabled() {
    return sdk != null;
  }

  /**
   * The factory of the Vert.x tracer, which makes server spans of HTTP and gRPC requests
   * (continuing a W3C {@code traceparent}) and client spans of SQL statements; empty when disabled.
   */
  public Optional<VertxTracerFactory> vertxTracerFactory() {
    return enabled() ? Optional.of(sdk.vertxTracerFactory()) : Optional.empty();
  }

  /**
   * Runs {@code work} in a span named {@code name}, a child of the current span, with these
   * attributes; without a span when disabled. A failure of {@code work} is recorded on the span by
   * its exception type only, since messages may quote input.
   */
  public <T> T inSpan(String name, Map<String, String> attributes, Supplier<T> work) {
    if (sdk == null) {
      return work.get();
    }
    return sdk.inSpan(name, attributes, work);
  }

  /**
   * Names the current server span after the gRPC method and records its status, following
   * OpenTelemetry's RPC conventions; call it on the call's context before the reply is sent.
   *
   * @param statusCode the gRPC status code number
   */
  public void grpcCallCompleted(String service, String method, int statusCode) {
    if (sdk != null) {
      sdk.grpcCallCompleted(service, method, statusCode);
    }
  }

  /**
   * The trace id of the current request (sampled or not), for log lines; empty when tracing is off
   * or there is no current span. Call it on the request's context.
   */
  public String currentTraceId() {
    return sdk == null ? "" : sdk.currentTraceId();
  }

  /** Exports the spans still buffered and stops; waits at most ten seconds. */
  @Override
  public void close() {
    if (sdk != null) {
      sdk.close();
    }
  }

  /** Where the spans go, for the start-up line. */
  public static String describe(TracingConfig config) {
    if (!config.enabled()) {
      return "off";
    }
    return "OTLP to "
        + config.otlpEndpoint()
        + " ("
        + config.rootSampler().dotnetName()
        + (config.rootSampler() == TracingConfig.RootSampler.TRACE_ID_RATIO_BASED
            ? " " + config.samplingProbability()
            : "")
        + ")";
  }
}
