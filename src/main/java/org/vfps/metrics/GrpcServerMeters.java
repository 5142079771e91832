package org.vfps.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Request meters of the gRPC services, named as the gRPC ecosystem's Prometheus interceptors name
 * them, so that their dashboards work: {@code grpc_server_started_total}, {@code
 * grpc_server_handled_total} (with {@code grpc_code}) and the {@code grpc_server_handling_seconds}
 * histogram, labelled by {@code grpc_type}, {@code grpc_service} and {@code grpc_method}.
 * Thread-safe.
 */
public final class GrpcServerMeters {

  /** The vfps services have unary methods only. */
  private static final String TYPE = "unary";

  private final MeterRegistry registry;
  private final Map<Method, MethodMeters> byMethod = new ConcurrentHashMap<>();
  private final Map<Handled, Counter> handled = new ConcurrentHashMap<>();

  GrpcServerMeters(MeterRegistry registry) {
    this.registry = registry;
  }

  private record Method(String service, String method) {}

  private record Handled(Method method, String code) {}

  private record MethodMeters(Counter started, Timer handling) {}

  /** Counts a call of {@code service}/{@code method} that arrived. */
  public void started(String service, String method) {
    meters(new Method(service, method)).started().increment();
  }

  /**
   * Counts a completed call by its status code name ({@code OK}, {@code NOT_FOUND}, ...) and
   * records its duration.
   */
  public void handled(String service, String method, String code, long nanos) {
    Method key = new Method(service, method);
    meters(key).handling().record(nanos, TimeUnit.NANOSECONDS);
    handled
        .computeIfAbsent(
            new Handled(key, code),
            k ->
                Counter.builder("grpc.server.handled")
                    .description("RPCs completed on the server, by status code")
                    .tags(
                        "grpc_type", TYPE,
                        "grpc_service", service,
                        "grpc_method", method,
                        "grpc_code", code)
                    .register(registry))
        .increment();
  }

  private MethodMeters meters(Method key) {
    return byMethod.computeIfAbsent(
        key,
        k ->
            new MethodMeters(
                Counter.builder("grpc.server.started")
                    .description("RPCs started on the server")
                    .tags("grpc_type", TYPE, "grpc_service", k.service(), "grpc_method", k.method())
                    .register(registry),
                Timer.builder("grpc.server.handling")
                    .description("Time from the arrival of an RPC to its reply")
                    .tags("grpc_type", TYPE, "grpc_service", k.service(), "grpc_method", k.method())
                    .serviceLevelObjectives(ServiceMeters.DURATION_BUCKETS)
                    .register(registry)));
  }
}
