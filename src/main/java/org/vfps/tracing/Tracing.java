package org.vfps.tracing;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.vertx.core.spi.VertxTracerFactory;
import io.vertx.tracing.opentelemetry.OpenTelemetryTracingFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.config.TracingConfig;

/**
 * The tracing of a running service: when enabled, an OpenTelemetry SDK that samples parent-based
 * with the configured root sampler, leaves probes and the metrics scrape out, and exports OTLP over
 * HTTP in batches; when disabled, nothing at all. Thread-safe.
 */
public final class Tracing implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Tracing.class);

  /** The scope name of the spans vfps makes itself, as the .NET service's ActivitySource. */
  static final String INSTRUMENTATION_SCOPE = "Vfps";

  private static final AttributeKey<String> RPC_SYSTEM = AttributeKey.stringKey("rpc.system");
  private static final AttributeKey<String> RPC_SERVICE = AttributeKey.stringKey("rpc.service");
  private static final AttributeKey<String> RPC_METHOD = AttributeKey.stringKey("rpc.method");
  private static final AttributeKey<Long> RPC_GRPC_STATUS_CODE =
      AttributeKey.longKey("rpc.grpc.status_code");

  /** gRPC codes that are the server's fault (OpenTelemetry's semantic conventions). */
  private static final Set<Integer> SERVER_ERROR_CODES = Set.of(2, 4, 12, 13, 14, 15);

  private final OpenTelemetrySdk sdk;
  private final Tracer tracer;

  private Tracing(OpenTelemetrySdk sdk) {
    this.sdk = sdk;
    this.tracer = sdk == null ? null : sdk.getTracer(INSTRUMENTATION_SCOPE);
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
    if (config.otlpEndpoint().getPort() == 4317) {
      LOG.warn(
          "Tracing__Otlp__Endpoint {} names port 4317, where collectors take OTLP over gRPC; vfps"
              + " sends OTLP over HTTP, by default to port 4318",
          config.otlpEndpoint());
    }
    Resource resource =
        Resource.getDefault()
            .merge(
                Resource.create(
                    Attributes.of(
                        AttributeKey.stringKey("service.name"), config.serviceName(),
                        AttributeKey.stringKey("service.version"), version,
                        AttributeKey.stringKey("service.instance.id"), instanceId())));
    SdkTracerProvider provider =
        SdkTracerProvider.builder()
            .setResource(resource)
            .setSampler(new UntracedPathsSampler(Sampler.parentBased(rootSampler(config))))
            .addSpanProcessor(
                BatchSpanProcessor.builder(
                        new UrlQueryDroppingExporter(
                            OtlpHttpSpanExporter.builder()
                                .setEndpoint(config.otlpEndpoint().toString())
                                .build()))
                    .build())
            .build();
    return new Tracing(
        OpenTelemetrySdk.builder()
            .setTracerProvider(provider)
            .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
            .build());
  }

  static Sampler rootSampler(TracingConfig config) {
    return switch (config.rootSampler()) {
      case ALWAYS_ON -> Sampler.alwaysOn();
      case ALWAYS_OFF -> Sampler.alwaysOff();
      case TRACE_ID_RATIO_BASED -> Sampler.traceIdRatioBased(config.samplingProbability());
    };
  }

  public boolean enabled() {
    return sdk != null;
  }

  /**
   * The factory of the Vert.x tracer, which makes server spans of HTTP and gRPC requests
   * (continuing a W3C {@code traceparent}) and client spans of SQL statements; empty when disabled.
   */
  public Optional<VertxTracerFactory> vertxTracerFactory() {
    return enabled() ? Optional.of(new OpenTelemetryTracingFactory(sdk)) : Optional.empty();
  }

  /**
   * Runs {@code work} in a span named {@code name}, a child of the current span, with these
   * attributes; without a span when disabled. A failure of {@code work} is recorded on the span by
   * its exception type only, since messages may quote input.
   */
  @SuppressWarnings("try") // the scope is opened for work to run in, never read
  public <T> T inSpan(String name, Map<String, String> attributes, Supplier<T> work) {
    if (tracer == null) {
      return work.get();
    }
    AttributesBuilder builder = Attributes.builder();
    attributes.forEach(builder::put);
    Span span = tracer.spanBuilder(name).setAllAttributes(builder.build()).startSpan();
    try (Scope scope = span.makeCurrent()) {
      return work.get();
    } catch (RuntimeException e) {
      span.setStatus(StatusCode.ERROR, e.getClass().getSimpleName());
      throw e;
    } finally {
      span.end();
    }
  }

  /**
   * Names the current server span after the gRPC method and records its status, following
   * OpenTelemetry's RPC conventions; call it on the call's context before the reply is sent.
   *
   * @param statusCode the gRPC status code number
   */
  public void grpcCallCompleted(String service, String method, int statusCode) {
    if (tracer == null) {
      return;
    }
    Span span = Span.current();
    if (!span.isRecording()) {
      return;
    }
    span.updateName(service + "/" + method);
    span.setAttribute(RPC_SYSTEM, "grpc");
    span.setAttribute(RPC_SERVICE, service);
    span.setAttribute(RPC_METHOD, method);
    span.setAttribute(RPC_GRPC_STATUS_CODE, (long) statusCode);
    if (SERVER_ERROR_CODES.contains(statusCode)) {
      span.setStatus(StatusCode.ERROR);
    }
  }

  /**
   * The trace id of the current request (sampled or not), for log lines; empty when tracing is off
   * or there is no current span. Call it on the request's context.
   */
  public String currentTraceId() {
    if (tracer == null) {
      return "";
    }
    SpanContext context = Span.current().getSpanContext();
    return context.isValid() ? context.getTraceId() : "";
  }

  /** Exports the spans still buffered and stops; waits at most ten seconds. */
  @Override
  public void close() {
    if (sdk != null) {
      sdk.shutdown().join(10, TimeUnit.SECONDS);
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

  private static String instanceId() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return UUID.randomUUID().toString();
    }
  }
}
