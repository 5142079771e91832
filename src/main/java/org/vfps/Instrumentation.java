package org.vfps;

import io.vertx.core.Vertx;
import io.vertx.grpc.common.GrpcStatus;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.Function;
import org.vfps.grpc.CallObserver;
import org.vfps.metrics.ServiceMeters;
import org.vfps.namespace.GenerationMethod;
import org.vfps.namespace.NamespaceEvents;
import org.vfps.pseudonym.PseudonymGenerator;
import org.vfps.pseudonym.PseudonymGenerators;
import org.vfps.storage.StatementTimings;
import org.vfps.tracing.Tracing;

/**
 * Connects the hooks of the domain, storage and the gRPC edge to metrics, tracing and the event
 * bus, so that none of them imports another's libraries.
 */
final class Instrumentation {

  /** The span around each pseudonym generation, named as in the .NET service. */
  static final String GENERATION_SPAN = "GeneratePseudonym";

  private Instrumentation() {}

  /** Publishes namespace events on the event bus, the namespace name as body. */
  static NamespaceEvents namespaceEvents(Vertx vertx) {
    return new NamespaceEvents() {
      @Override
      public void created(String name) {
        vertx.eventBus().publish(NamespaceEvents.CREATED_ADDRESS, name);
      }

      @Override
      public void deleted(String name) {
        vertx.eventBus().publish(NamespaceEvents.DELETED_ADDRESS, name);
      }
    };
  }

  /** The upsert histograms, or nothing when metrics are off ({@code meters} null). */
  static StatementTimings statementTimings(ServiceMeters meters) {
    return meters == null
        ? StatementTimings.NONE
        : new StatementTimings(meters::upsertTook, meters::batchUpsertTook);
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
