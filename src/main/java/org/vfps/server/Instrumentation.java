package org.vfps.server;

import com.google.protobuf.Descriptors.MethodDescriptor;
import io.vertx.grpc.common.GrpcStatus;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.Function;
import org.vfps.access.Access;
import org.vfps.access.Operation;
import org.vfps.admission.Admission;
import org.vfps.api.v1.PseudonymServiceGrpcService;
import org.vfps.config.AdmissionConfig;
import org.vfps.grpc.CallObserver;
import org.vfps.metrics.ServiceMeters;
import org.vfps.namespace.GenerationMethod;
import org.vfps.pseudonym.PseudonymGenerator;
import org.vfps.pseudonym.PseudonymGenerators;
import org.vfps.storage.UpsertTimer;
import org.vfps.tracing.Tracing;

/**
 * Connects the hooks of the domain, storage and the gRPC edge to metrics and tracing, so that none
 * of them imports their libraries.
 */
final class Instrumentation {

  /** The span around each pseudonym generation, named as in the .NET service. */
  static final String GENERATION_SPAN = "GeneratePseudonym";

  private Instrumentation() {}

  /** The upsert histograms, or nothing when metrics are off ({@code meters} null). */
  static UpsertTimer upsertTimer(ServiceMeters meters) {
    if (meters == null) {
      return UpsertTimer.NONE;
    }
    return new UpsertTimer() {
      @Override
      public void single(long nanos) {
        meters.upsertTook(nanos);
      }

      @Override
      public void batch(long nanos, int rows) {
        meters.batchUpsertTook(nanos, rows);
      }
    };
  }

  /**
   * The counter of denied calls by operation, every operation's registered at once; nothing when
   * metrics are off ({@code meters} null).
   */
  static Access.DeniedCalls deniedCalls(ServiceMeters meters) {
    if (meters == null) {
      return Access.DeniedCalls.NONE;
    }
    Map<Operation, Runnable> counters = new EnumMap<>(Operation.class);
    for (Operation operation : Operation.values()) {
      counters.put(operation, meters.authorizationDenied(operation.rpcName()));
    }
    return operation -> counters.get(operation).run();
  }

  /**
   * The replica's admission control, with its refusals counted by bound and the work in flight
   * exported as gauges when metrics are on ({@code meters} not null).
   */
  static Admission admission(AdmissionConfig config, ServiceMeters meters) {
    Admission.Refusals refusals = Admission.Refusals.NONE;
    if (meters != null) {
      Map<Admission.Limit, Runnable> counters = new EnumMap<>(Admission.Limit.class);
      for (Admission.Limit limit : Admission.Limit.values()) {
        counters.put(limit, meters.admissionRefused(limit.label()));
      }
      refusals = limit -> counters.get(limit).run();
    }
    Admission admission =
        new Admission(
            config.maxConcurrentRequests(),
            config.maxQueuedWrites(),
            config.maxReplyBytes(),
            refusals);
    if (meters != null) {
      meters.bindAdmission(
          admission::requestsInFlight, admission::queuedWrites, admission::replyBytesHeld);
    }
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
  static CallObserver callObserver(ServiceMeters meters, Tracing tracing) {
    CallObserver observer = CallObserver.NONE;
    if (meters != null) {
      for (MethodDescriptor method : PseudonymServiceGrpcService.SERVICE_DESCRIPTOR.getMethods()) {
        if (method.isClientStreaming() && method.isServerStreaming()) {
          meters.grpc().bidiStreaming(method.getService().getFullName(), method.getName());
        }
      }
      observer =
          new CallObserver() {
            @Override
            public void started(String service, String method) {
              meters.grpc().started(service, method);
            }

            @Override
            public void completed(String service, String method, GrpcStatus status, long nanos) {
              meters.grpc().handled(service, method, status.name(), nanos);
            }

            @Override
            public void received(String service, String method) {
              meters.grpc().received(service, method);
            }

            @Override
            public void sent(String service, String method) {
              meters.grpc().sent(service, method);
            }
          };
    }
    if (tracing.enabled()) {
      observer =
          observer.andThen(
              new CallObserver() {
                @Override
                public void started(String service, String method) {}

                @Override
                public void completed(
                    String service, String method, GrpcStatus status, long nanos) {
                  tracing.grpcCallCompleted(service, method, status.code);
                }
              });
    }
    return observer;
  }
}
