package org.vfps.server;

import io.vertx.grpc.common.GrpcStatus;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.Function;
import org.vfps.admission.Admission;
import org.vfps.config.AdmissionConfig;
import org.vfps.grpc.CallObserver;
import org.vfps.namespace.GenerationMethod;
import org.vfps.pseudonym.PseudonymGenerator;
import org.vfps.pseudonym.PseudonymGenerators;
import org.vfps.tracing.Tracing;

/**
 * Connects the hooks of the domain, admission control and the gRPC edge to metrics and tracing, so
 * that none of them imports their libraries. Metrics and tracing that are off are null objects
 * ({@link MeterHooks.Off}, {@link Tracing#disabled()}), never null.
 */
final class Instrumentation {

  /** The span around each pseudonym generation, named as in the .NET service. */
  static final String GENERATION_SPAN = "GeneratePseudonym";

  private Instrumentation() {}

  /**
   * The replica's admission control, with its refusals counted by bound and the work in flight
   * exported as gauges when metrics are on.
   */
  static Admission admission(AdmissionConfig config, MeterHooks meters) {
    Admission admission =
        new Admission(
            config.maxConcurrentRequests(),
            config.maxConcurrentRequestsPerCaller(),
            config.maxOpenStreamsPerCaller(),
            config.maxQueuedWrites(),
            config.maxReplyBytes(),
            config.streamIdleTimeout(),
            meters.admissionRefusals());
    meters.bindAdmission(admission);
    return admission;
  }

  /** The generators, each one in a span of its own when tracing is on. */
  static Function<GenerationMethod, PseudonymGenerator> generators(Tracing tracing) {
    if (!tracing.enabled()) {
      return PseudonymGenerators::forMethod;
    }
    Map<GenerationMethod, PseudonymGenerator> traced = new EnumMap<>(GenerationMethod.class);
    for (GenerationMethod method : GenerationMethod.values()) {
      PseudonymGenerator generator = PseudonymGenerators.forMethod(method);
      Map<String, String> attributes =
          Map.of("vfps.pseudonym.generation_method", method.dotnetName());
      traced.put(
          method,
          (originalValue, length) ->
              tracing.inSpan(
                  GENERATION_SPAN, attributes, () -> generator.generate(originalValue, length)));
    }
    return Collections.unmodifiableMap(traced)::get;
  }

  /** Counts gRPC calls (when metrics are on) and names their spans (when tracing is on). */
  static CallObserver callObserver(MeterHooks meters, Tracing tracing) {
    CallObserver observer = meters.callObserver();
    if (!tracing.enabled()) {
      return observer;
    }
    return observer.andThen(
        new CallObserver() {
          @Override
          public void started(String service, String method) {}

          @Override
          public void completed(String service, String method, GrpcStatus status, long nanos) {
            tracing.grpcCallCompleted(service, method, status.code);
          }
        });
  }
}
