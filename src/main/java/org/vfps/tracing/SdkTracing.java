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
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;
import org.vfps.config.TracingConfig;

/**
 * The OpenTelemetry SDK behind an enabled {@link Tracing}: parent-based sampling with the
 * configured root sampler, probes and the metrics scrape left out, OTLP over HTTP in batches. Only
 * {@link Tracing#start} names this class, so with tracing off no OpenTelemetry class loads.
 * Thread-safe.
 */
final class SdkTracing {

  // Tracing's logger: operators find tracing's lines under that name
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

  /**
   * OpenTelemetry's loggers (java.util.logging), held so that the settings {@link #routeLogging}
   * makes are not lost: the logging manager keeps loggers only while something refers to them.
   */
  private static final java.util.logging.Logger OPENTELEMETRY_LOG =
      java.util.logging.Logger.getLogger("io.opentelemetry");

  private static final java.util.logging.Logger HTTP_EXPORTER_LOG =
      java.util.logging.Logger.getLogger("io.opentelemetry.exporter.internal.http.HttpExporter");

  private final OpenTelemetrySdk sdk;
  private final Tracer tracer;

  private SdkTracing(OpenTelemetrySdk sdk) {
    this.sdk = sdk;
    this.tracer = sdk.getTracer(INSTRUMENTATION_SCOPE);
  }

  /**
   * Starts the SDK that {@code config} describes; call it only when tracing is enabled.
   *
   * @param version the service version, exported as {@code service.version}
   */
  static SdkTracing start(TracingConfig config, String version) {
    routeLogging();
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
                        new ExportFailureReporter(
                            new UrlQueryDroppingExporter(
                                OtlpHttpSpanExporter.builder()
                                    .setEndpoint(config.otlpEndpoint().toString())
                                    .build()),
                            config.otlpEndpoint()))
                    .build())
            .build();
    return new SdkTracing(
        OpenTelemetrySdk.builder()
            .setTracerProvider(provider)
            .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
            .build());
  }

  /**
   * Sends OpenTelemetry's log lines to logback, in the configured format and under logback's
   * levels, instead of java.util.logging's console; turns off the exporter's line per failed export
   * (a SEVERE with the whole stack trace), which {@link ExportFailureReporter} replaces.
   */
  static synchronized void routeLogging() {
    HTTP_EXPORTER_LOG.setLevel(java.util.logging.Level.OFF);
    OPENTELEMETRY_LOG.setUseParentHandlers(false);
    for (java.util.logging.Handler handler : OPENTELEMETRY_LOG.getHandlers()) {
      if (handler instanceof SLF4JBridgeHandler) {
        return;
      }
    }
    OPENTELEMETRY_LOG.addHandler(new SLF4JBridgeHandler());
  }

  static Sampler rootSampler(TracingConfig config) {
    return switch (config.rootSampler()) {
      case ALWAYS_ON -> Sampler.alwaysOn();
      case ALWAYS_OFF -> Sampler.alwaysOff();
      case TRACE_ID_RATIO_BASED -> Sampler.traceIdRatioBased(config.samplingProbability());
    };
  }

  VertxTracerFactory vertxTracerFactory() {
    return new OpenTelemetryTracingFactory(sdk);
  }

  /** See {@link Tracing#inSpan}. */
  @SuppressWarnings("try") // the scope is opened for work to run in, never read
  <T> T inSpan(String name, Map<String, String> attributes, Supplier<T> work) {
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

  /** See {@link Tracing#grpcCallCompleted}. */
  void grpcCallCompleted(String service, String method, int statusCode) {
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

  /** See {@link Tracing#currentTraceId}. */
  String currentTraceId() {
    SpanContext context = Span.current().getSpanContext();
    return context.isValid() ? context.getTraceId() : "";
  }

  /** Exports the spans still buffered and stops; waits at most ten seconds. */
  void close() {
    sdk.shutdown().join(10, TimeUnit.SECONDS);
  }

  private static String instanceId() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return UUID.randomUUID().toString();
    }
  }
}
