package org.vfps.metrics;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.tracing.TracingPolicy;
import io.vertx.micrometer.PrometheusRequestHandler;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves the registry in Prometheus text format on {@code GET /metrics} over HTTP/1.1 (any other
 * path is 404), untraced, and keeps {@code vfps_pseudonyms} and {@code
 * vfps_namespace_capacity_used_ratio} current: counted at start and then periodically, a deleted
 * namespace's series removed as soon as its deletion event arrives. Deploy one instance.
 */
public final class MetricsVerticle extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(MetricsVerticle.class);

  private final int port;
  private final ServiceMeters meters;
  private final Supplier<Future<Map<String, Long>>> pseudonymCounts;
  private final Supplier<Future<Map<String, Double>>> distinctPseudonyms;
  private final Duration countInterval;
  private final String namespaceDeletedAddress;
  private final Supplier<Future<List<TokenExpiryGauges.Expiry>>> tokenExpiries;
  private HttpServer server;
  private Future<?> counting = Future.succeededFuture();
  private Future<?> readingExpiries = Future.succeededFuture();

  /** How often the service-account tokens' expiries are read, as the .NET vfps reads them. */
  static final Duration TOKEN_EXPIRY_INTERVAL = Duration.ofSeconds(60);

  /**
   * @param port the listener's port, 1-65535 (the service does not deploy this verticle for 0)
   * @param meters the registry to serve and the gauges to keep
   * @param pseudonymCounts counts the pseudonyms per namespace
   * @param distinctPseudonyms reads the distinct pseudonyms each namespace's settings make
   * @param countInterval the time between counts
   * @param namespaceDeletedAddress the event bus address of namespace deletions, whose body is the
   *     namespace name
   * @param tokenExpiries reads the service-account tokens' expiries; null when access tokens are
   *     off, and the gauge then has no series
   */
  public MetricsVerticle(
      int port,
      ServiceMeters meters,
      Supplier<Future<Map<String, Long>>> pseudonymCounts,
      Supplier<Future<Map<String, Double>>> distinctPseudonyms,
      Duration countInterval,
      String namespaceDeletedAddress,
      Supplier<Future<List<TokenExpiryGauges.Expiry>>> tokenExpiries) {
    this.port = port;
    this.meters = meters;
    this.pseudonymCounts = pseudonymCounts;
    this.distinctPseudonyms = distinctPseudonyms;
    this.countInterval = countInterval;
    this.namespaceDeletedAddress = namespaceDeletedAddress;
    this.tokenExpiries = tokenExpiries;
  }

  @Override
  public Future<?> start() {
    PseudonymCountGauges gauges = meters.pseudonymCounts();
    MessageConsumer<String> deletions =
        vertx
            .eventBus()
            .consumer(namespaceDeletedAddress, message -> gauges.deleted(message.body()));
    countPseudonyms(gauges);
    vertx.setPeriodic(countInterval.toMillis(), timer -> countPseudonyms(gauges));
    if (tokenExpiries != null) {
      readTokenExpiries();
      vertx.setPeriodic(TOKEN_EXPIRY_INTERVAL.toMillis(), timer -> readTokenExpiries());
    }
    server =
        vertx
            .createHttpServer(
                new HttpServerOptions()
                    .setPort(port)
                    .setHost("0.0.0.0")
                    // scrapers speak HTTP/1.1; an h2c upgrade (the JDK client's default) could
                    // garble the reply
                    .setHttp2ClearTextEnabled(false)
                    .setTracingPolicy(TracingPolicy.IGNORE))
            .requestHandler(PrometheusRequestHandler.create(meters.registry(), "/metrics"));
    return Future.all(server.listen(), deletions.completion());
  }

  /** Stops once the reads in flight have ended, so that none fails on a pool closed under it. */
  @Override
  public Future<?> stop() {
    return Future.join(counting, readingExpiries).otherwiseEmpty();
  }

  /** The port the server listens on. */
  public int actualPort() {
    return server.actualPort();
  }

  private void readTokenExpiries() {
    readingExpiries =
        tokenExpiries
            .get()
            .onSuccess(meters.tokenExpiries()::read)
            // the series keep their last values; the next read may succeed
            .onFailure(
                failure ->
                    LOG.warn(
                        "Reading the service-account tokens' expiries failed: {}",
                        failure.getMessage()));
  }

  private void countPseudonyms(PseudonymCountGauges gauges) {
    if (!gauges.countStarted()) {
      return;
    }
    Future<Map<String, Long>> counts = pseudonymCounts.get();
    Future<Map<String, Double>> distinct = distinctPseudonyms.get();
    counting =
        Future.all(counts, distinct)
            .onSuccess(both -> gauges.counted(counts.result(), distinct.result()))
            .onFailure(
                failure -> {
                  gauges.countFailed();
                  // the gauges keep their last values; the next count may succeed
                  LOG.warn(
                      "Counting pseudonyms for vfps_pseudonyms failed: {}", failure.getMessage());
                });
  }
}
