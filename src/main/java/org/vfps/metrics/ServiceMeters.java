package org.vfps.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.metrics.MetricsOptions;
import io.vertx.core.spi.VertxMetricsFactory;
import io.vertx.micrometer.Label;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The one meter registry of a running service and the meters vfps defines on it. Vert.x adds its
 * own meters (HTTP servers, the PostgreSQL pool, the event bus, JVM and process) when it is built
 * with {@link #vertxOptions()} and {@link #vertxFactory()}. Thread-safe.
 */
public final class ServiceMeters {

  /** The buckets of the .NET service's histograms (prometheus-net's defaults), in seconds. */
  static final Duration[] DURATION_BUCKETS = {
    Duration.ofMillis(5),
    Duration.ofMillis(10),
    Duration.ofMillis(25),
    Duration.ofMillis(50),
    Duration.ofMillis(75),
    Duration.ofMillis(100),
    Duration.ofMillis(250),
    Duration.ofMillis(500),
    Duration.ofMillis(750),
    Duration.ofSeconds(1),
    Duration.ofMillis(2500),
    Duration.ofSeconds(5),
    Duration.ofMillis(7500),
    Duration.ofSeconds(10)
  };

  /** The buckets of the rows per upsert statement: powers of two up to the coalescer's bound. */
  static final double[] ROW_BUCKETS = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};

  /**
   * The labels of the Vert.x meters: never {@code HTTP_PATH}, whose raw paths carry namespace names
   * and pseudonym values without bound; routes are the router's templates.
   */
  private static final EnumSet<Label> VERTX_LABELS =
      EnumSet.of(
          Label.LOCAL,
          Label.HTTP_ROUTE,
          Label.HTTP_METHOD,
          Label.HTTP_CODE,
          Label.POOL_TYPE,
          Label.POOL_NAME,
          Label.EB_SIDE);

  private final PrometheusMeterRegistry registry;
  private final Timer upserts;
  private final Timer batchUpserts;
  private final DistributionSummary statementRows;
  private final GrpcServerMeters grpc;
  private final PseudonymCountGauges pseudonymCounts;
  private final TokenExpiryGauges tokenExpiries;

  /** The statistics of the bound caches, held here since the registry holds them only weakly. */
  private final List<Supplier<CacheStatistics>> boundCaches = new CopyOnWriteArrayList<>();

  private ServiceMeters(PrometheusMeterRegistry registry) {
    this.registry = registry;
    new FileDescriptorMetrics().bindTo(registry);
    this.upserts =
        Timer.builder("vfps.upsert.duration")
            .description("Duration of each single-value upsert statement run")
            .serviceLevelObjectives(DURATION_BUCKETS)
            .register(registry);
    this.batchUpserts =
        Timer.builder("vfps.batch.upsert.duration")
            .description("Duration of each multi-row upsert round trip")
            .serviceLevelObjectives(DURATION_BUCKETS)
            .register(registry);
    this.statementRows =
        DistributionSummary.builder("vfps.upsert.statement.rows")
            .description("Rows each upsert statement carries (1 for the single-row statement)")
            .serviceLevelObjectives(ROW_BUCKETS)
            .register(registry);
    this.grpc = new GrpcServerMeters(registry);
    this.pseudonymCounts = new PseudonymCountGauges(registry);
    this.tokenExpiries = new TokenExpiryGauges(registry);
  }

  /** A new registry with the vfps meters and the process's open file descriptors. */
  public static ServiceMeters create() {
    return new ServiceMeters(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
  }

  public PrometheusMeterRegistry registry() {
    return registry;
  }

  /**
   * The Vert.x metrics options: JVM and process meters on, labels as {@link #VERTX_LABELS}. Each
   * service gets a registry name of its own, since Vert.x keeps registries by name per JVM.
   */
  public MetricsOptions vertxOptions() {
    return new MicrometerMetricsOptions()
        .setEnabled(true)
        .setJvmMetricsEnabled(true)
        .setRegistryName("vfps-" + UUID.randomUUID())
        .setLabels(VERTX_LABELS);
  }

  /** The factory that makes Vert.x report to this registry. */
  public VertxMetricsFactory vertxFactory() {
    return new MicrometerMetricsFactory(registry);
  }

  /**
   * Records one run of the single-value upsert ({@code vfps_upsert_duration_seconds}), a statement
   * of one row ({@code vfps_upsert_statement_rows}).
   */
  public void upsertTook(long nanos) {
    upserts.record(nanos, TimeUnit.NANOSECONDS);
    statementRows.record(1);
  }

  /**
   * Records one multi-row upsert round trip ({@code vfps_batch_upsert_duration_seconds}) and the
   * rows it carried ({@code vfps_upsert_statement_rows}).
   */
  public void batchUpsertTook(long nanos, int rows) {
    batchUpserts.record(nanos, TimeUnit.NANOSECONDS);
    statementRows.record(rows);
  }

  /** The gRPC request meters. */
  public GrpcServerMeters grpc() {
    return grpc;
  }

  /**
   * The counter of calls denied for a missing permission ({@code
   * vfps_authorization_denied_total{operation}}), registered now so that it is exported from 0.
   *
   * @param operation the RPC's name, e.g. {@code PseudonymService/Get}
   * @return what counts one denied call
   */
  public Runnable authorizationDenied(String operation) {
    return counter(
        "vfps.authorization.denied",
        "Calls denied because the caller lacks the permission",
        "operation",
        operation);
  }

  /**
   * The counter of work refused at a bound of admission control ({@code
   * vfps_admission_refused_total{limit}}), registered now so that it is exported from 0.
   *
   * @param limit the bound, e.g. {@code concurrent_requests}
   * @return what counts one refusal
   */
  public Runnable admissionRefused(String limit) {
    return counter(
        "vfps.admission.refused",
        "Requests and writes refused at once because a bound of work was reached",
        "limit",
        limit);
  }

  /**
   * The seconds CSV jobs spend in one phase ({@code
   * vfps_csv_job_phase_duration_seconds_total{phase,direction}}), registered now so that it is
   * exported from 0.
   *
   * @return what adds nanoseconds to it
   */
  public java.util.function.LongConsumer csvJobPhase(String phase, String direction) {
    Counter counter =
        Counter.builder("vfps.csv.job.phase.duration")
            .baseUnit("seconds")
            .description("Seconds the workers of CSV jobs spent in a phase")
            .tag("phase", phase)
            .tag("direction", direction)
            .register(registry);
    return nanos -> counter.increment(nanos / 1e9);
  }

  /** A counter of one label, registered now; returns what counts one. */
  private Runnable counter(String name, String description, String label, String value) {
    Counter counter =
        Counter.builder(name).description(description).tag(label, value).register(registry);
    return counter::increment;
  }

  /**
   * Exports the work admission control bounds: {@code vfps_admission_requests_in_flight}, {@code
   * vfps_admission_callers}, {@code vfps_admission_queued_writes} and {@code
   * vfps_admission_reply_bytes} (gauges), read at each scrape, from any thread.
   */
  public void bindAdmission(
      IntSupplier requestsInFlight,
      IntSupplier callers,
      IntSupplier queuedWrites,
      LongSupplier replyBytes) {
    gauge(
        "vfps.admission.requests.in.flight",
        "gRPC calls and HTTP requests in flight (probes and gRPC health not counted)",
        requestsInFlight::getAsInt);
    gauge(
        "vfps.admission.callers",
        "Callers that hold a place for a request in flight",
        callers::getAsInt);
    gauge(
        "vfps.admission.queued.writes",
        "Values waiting in the write coalescers for their upsert statement",
        queuedWrites::getAsInt);
    gauge(
        "vfps.admission.reply.bytes",
        "Bytes held by replies built whole in memory before they are sent",
        replyBytes::getAsLong);
  }

  /**
   * A gauge without labels, registered now, that reads {@code value} at each scrape; the gauge
   * holds {@code value} strongly.
   */
  private void gauge(String name, String description, Supplier<Number> value) {
    Gauge.builder(name, value).description(description).register(registry);
  }

  /**
   * Exports which build runs: {@code vfps_build_info{version,revision}}, a gauge that is always 1,
   * as Prometheus exporters name their build (join on it to label other series by version).
   *
   * @param version the service's version, e.g. {@code 1.0.0}
   * @param revision the git revision it was built from, or {@code unknown}
   */
  public void bindBuildInfo(String version, String revision) {
    Gauge.builder("vfps.build.info", () -> 1)
        .description("The version and git revision of the running vfps; always 1")
        .tag("version", version)
        .tag("revision", revision)
        .register(registry);
  }

  /** The {@code vfps_pseudonyms} gauges, which {@link MetricsVerticle} keeps current. */
  TokenExpiryGauges tokenExpiries() {
    return tokenExpiries;
  }

  PseudonymCountGauges pseudonymCounts() {
    return pseudonymCounts;
  }

  /**
   * Exports a cache's statistics as {@code vfps_cache_entries} (gauge), {@code
   * vfps_cache_hits_total} and {@code vfps_cache_misses_total} (counters; gauges in .NET, whose
   * names they keep), labelled {@code cache}. {@code statistics} is read at each scrape, from any
   * thread; hits and misses must never decrease.
   *
   * @param cache the cache's name, e.g. {@code namespaces}
   */
  public void bindCache(String cache, Supplier<CacheStatistics> statistics) {
    // Micrometer holds what a gauge or function counter reads weakly: a supplier no one else held
    // would be collected, and its series would read NaN after the next GC
    boundCaches.add(statistics);
    Gauge.builder("vfps.cache.entries", statistics, s -> s.get().entries())
        .description("Entries in the cache")
        .tag("cache", cache)
        .register(registry);
    FunctionCounter.builder("vfps.cache.hits", statistics, s -> s.get().hits())
        .description("Lookups the cache answered")
        .tag("cache", cache)
        .register(registry);
    FunctionCounter.builder("vfps.cache.misses", statistics, s -> s.get().misses())
        .description("Lookups the cache could not answer")
        .tag("cache", cache)
        .register(registry);
  }
}
