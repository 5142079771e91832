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
 * histogram, and for streaming methods {@code grpc_server_msg_received_total} and {@code
 * grpc_server_msg_sent_total}, labelled by {@code grpc_type} ({@code unary}, or {@code bidi_stream}
 * for a method declared {@linkplain #bidiStreaming streaming}), {@code grpc_service} and {@code
 * grpc_method}. Thread-safe.
 */
public final class GrpcServerMeters {

  private static final String UNARY = "unary";
  private static final String BIDI_STREAM = "bidi_stream";

  private final MeterRegistry registry;
  private final Map<Method, String> types = new ConcurrentHashMap<>();
  private final Map<Method, MethodMeters> byMethod = new ConcurrentHashMap<>();
  private final Map<Handled, Counter> handled = new ConcurrentHashMap<>();
  private final Map<Method, Counter> received = new ConcurrentHashMap<>();
  private final Map<Method, Counter> sent = new ConcurrentHashMap<>();

  GrpcServerMeters(MeterRegistry registry) {
    this.registry = registry;
  }

  private record Method(String service, String method) {}

  private record Handled(Method method, String code) {}

  private record MethodMeters(Counter started, Timer handling) {}

  /** Declares a method with request and response streams, before its first call. */
  public void bidiStreaming(String service, String method) {
    types.put(new Method(service, method), BIDI_STREAM);
  }

  /** Counts a request message of a streaming call. */
  public void received(String service, String method) {
    message(
            received,
            "grpc.server.msg.received",
            "Request messages read by streaming RPCs",
            service,
            method)
        .increment();
  }

  /** Counts a response message of a streaming call. */
  public void sent(String service, String method) {
    message(
            sent,
            "grpc.server.msg.sent",
            "Response messages written by streaming RPCs",
            service,
            method)
        .increment();
  }

  private Counter message(
      Map<Method, Counter> counters,
      String name,
      String description,
      String service,
      String method) {
    return counters.computeIfAbsent(
        new Method(service, method),
        k -> Counter.builder(name).description(description).tags(tags(k)).register(registry));
  }

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
                        "grpc_type", type(key),
                        "grpc_service", service,
                        "grpc_method", method,
                        "grpc_code", code)
                    .register(registry))
        .increment();
  }

  private String type(Method key) {
    return types.getOrDefault(key, UNARY);
  }

  private String[] tags(Method key) {
    return new String[] {
      "grpc_type", type(key), "grpc_service", key.service(), "grpc_method", key.method()
    };
  }

  private MethodMeters meters(Method key) {
    return byMethod.computeIfAbsent(
        key,
        k ->
            new MethodMeters(
                Counter.builder("grpc.server.started")
                    .description("RPCs started on the server")
                    .tags(tags(k))
                    .register(registry),
                Timer.builder("grpc.server.handling")
                    .description("Time from the arrival of an RPC to its reply")
                    .tags(tags(k))
                    .serviceLevelObjectives(ServiceMeters.DURATION_BUCKETS)
                    .register(registry)));
  }
}
