package org.vfps.server;

import com.google.protobuf.Descriptors.MethodDescriptor;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxBuilder;
import io.vertx.core.VertxOptions;
import io.vertx.grpc.common.GrpcStatus;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.vfps.access.Access;
import org.vfps.access.Operation;
import org.vfps.admission.Admission;
import org.vfps.api.v1.PseudonymServiceGrpcService;
import org.vfps.cache.VfpsCache;
import org.vfps.config.VfpsConfig;
import org.vfps.grpc.CallObserver;
import org.vfps.job.JobDirection;
import org.vfps.job.JobPhases;
import org.vfps.metrics.CacheStatistics;
import org.vfps.metrics.MetricsVerticle;
import org.vfps.metrics.ServiceMeters;
import org.vfps.metrics.TokenExpiryGauges;
import org.vfps.namespace.NamespaceEvents;
import org.vfps.storage.Database;
import org.vfps.storage.UpsertTimer;

/**
 * The service's meters ({@link ServiceMeters}) wired to the hooks of the other packages (the pool's
 * upsert timer, access's denied calls, admission, the caches, gRPC calls, CSV jobs) and their
 * listener, or none at all ({@code MetricsPort} 0: no listener, so no meters either): then every
 * hook does nothing. Wiring, so it lives with the start-up chain: the {@code metrics} package
 * defines the meters and knows no other package of ours but {@code config}.
 */
sealed interface MeterHooks {

  /** Metrics as the configuration asks, with the build's version and revision among them. */
  static MeterHooks of(VfpsConfig config, BuildInfo build) {
    if (config.server().metricsPort() <= 0) {
      return new Off();
    }
    ServiceMeters meters = ServiceMeters.create();
    meters.bindBuildInfo(build.version(), build.revision());
    return new On(meters);
  }

  /** A Vert.x builder with the Vert.x meters, when metrics are on, and {@code options}. */
  VertxBuilder instrument(VertxBuilder builder, VertxOptions options);

  UpsertTimer upsertTimer();

  /** The counter of denied calls by operation, every operation's registered at once. */
  Access.DeniedCalls deniedCalls();

  /** The counter of admission control's refusals by bound. */
  Admission.Refusals admissionRefusals();

  /** Exports the work in flight that admission control bounds as gauges. */
  void bindAdmission(Admission admission);

  /** Exports the cache's statistics. */
  void bindCache(VfpsCache cache);

  /** Counts gRPC calls. */
  CallObserver callObserver();

  /** Adds up the time CSV jobs spend in each phase. */
  JobPhases csvJobPhases();

  /** Serves {@code /metrics}; yields the port it listens on, 0 when metrics are off. */
  Future<Integer> listen(Vertx vertx, VfpsConfig config, Database database);

  /** Metrics off: every hook does nothing. */
  record Off() implements MeterHooks {

    @Override
    public VertxBuilder instrument(VertxBuilder builder, VertxOptions options) {
      return builder.with(options);
    }

    @Override
    public UpsertTimer upsertTimer() {
      return UpsertTimer.NONE;
    }

    @Override
    public Access.DeniedCalls deniedCalls() {
      return Access.DeniedCalls.NONE;
    }

    @Override
    public Admission.Refusals admissionRefusals() {
      return Admission.Refusals.NONE;
    }

    @Override
    public void bindAdmission(Admission admission) {}

    @Override
    public void bindCache(VfpsCache cache) {}

    @Override
    public CallObserver callObserver() {
      return CallObserver.NONE;
    }

    @Override
    public JobPhases csvJobPhases() {
      return JobPhases.NONE;
    }

    @Override
    public Future<Integer> listen(Vertx vertx, VfpsConfig config, Database database) {
      return Future.succeededFuture(0);
    }
  }

  /** Metrics on, recorded in {@code meters}. */
  record On(ServiceMeters meters) implements MeterHooks {

    @Override
    public VertxBuilder instrument(VertxBuilder builder, VertxOptions options) {
      options.setMetricsOptions(meters.vertxOptions());
      return builder.withMetrics(meters.vertxFactory()).with(options);
    }

    @Override
    public UpsertTimer upsertTimer() {
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

    @Override
    public Access.DeniedCalls deniedCalls() {
      Map<Operation, Runnable> counters = new EnumMap<>(Operation.class);
      for (Operation operation : Operation.values()) {
        counters.put(operation, meters.authorizationDenied(operation.rpcName()));
      }
      return operation -> counters.get(operation).run();
    }

    @Override
    public Admission.Refusals admissionRefusals() {
      Map<Admission.Limit, Runnable> counters = new EnumMap<>(Admission.Limit.class);
      for (Admission.Limit limit : Admission.Limit.values()) {
        counters.put(limit, meters.admissionRefused(limit.label()));
      }
      return limit -> counters.get(limit).run();
    }

    @Override
    public void bindAdmission(Admission admission) {
      meters.bindAdmission(
          admission::requestsInFlight,
          admission::callersHoldingPlaces,
          admission::queuedWrites,
          admission::replyBytesHeld);
    }

    @Override
    public void bindCache(VfpsCache cache) {
      meters.bindCache(
          "vfps",
          () -> {
            VfpsCache.Counts counts = cache.counts();
            return new CacheStatistics(counts.entries(), counts.hits(), counts.misses());
          });
    }

    @Override
    public JobPhases csvJobPhases() {
      Map<String, java.util.function.LongConsumer> counters = new java.util.HashMap<>();
      for (JobDirection direction : JobDirection.values()) {
        for (JobPhases.Phase phase : JobPhases.Phase.values()) {
          counters.put(
              phase.label() + "/" + direction.label(),
              meters.csvJobPhase(phase.label(), direction.label()));
        }
      }
      return (direction, phase, nanos) ->
          counters.get(phase.label() + "/" + direction.label()).accept(nanos);
    }

    @Override
    public CallObserver callObserver() {
      for (MethodDescriptor method : PseudonymServiceGrpcService.SERVICE_DESCRIPTOR.getMethods()) {
        if (method.isClientStreaming() && method.isServerStreaming()) {
          meters.grpc().bidiStreaming(method.getService().getFullName(), method.getName());
        }
      }
      return new CallObserver() {
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

    @Override
    public Future<Integer> listen(Vertx vertx, VfpsConfig config, Database database) {
      MetricsVerticle verticle =
          new MetricsVerticle(
              config.server().metricsPort(),
              meters,
              database::pseudonymCounts,
              database::distinctPseudonyms,
              config.metrics().pseudonymCountInterval(),
              NamespaceEvents.DELETED_ADDRESS,
              config.authorization().accessTokens().enabled()
                  ? () -> tokenExpiries(database)
                  : null);
      return Listeners.deploy(
              vertx, "metrics", "MetricsPort", config.server().metricsPort(), List.of(verticle))
          .map(deployed -> verticle.actualPort());
    }

    /** The service-account tokens not revoked, as the expiry gauge shows them. */
    private static Future<List<TokenExpiryGauges.Expiry>> tokenExpiries(Database database) {
      return database
          .access()
          .serviceAccountTokens()
          .map(
              tokens ->
                  tokens.stream()
                      .map(
                          token ->
                              new TokenExpiryGauges.Expiry(
                                  token.serviceAccount(),
                                  token.tokenId(),
                                  token.name(),
                                  token.expiresAt().getEpochSecond()))
                      .toList());
    }
  }
}
