package org.vfps.server;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.auth.ServerTls;
import org.vfps.config.ConfigException;
import org.vfps.config.ConnectionSettings;
import org.vfps.config.TimeSpans;
import org.vfps.config.VfpsConfig;
import org.vfps.objectstore.ObjectStore;
import org.vfps.tracing.Tracing;

/**
 * A running vfps: the one startup chain (database, migrations, pool, services, verticles) and its
 * shutdown. Used by {@code org.vfps.Main} and by the integration tests.
 *
 * <p>The chain's steps live beside it: {@link Storage} (the database), {@link VertxRuntime}, {@link
 * ServiceWiring} (the object graph), {@link NamespaceSeeding}, {@link ApiListeners} and {@link
 * StartupReport}.
 */
public final class VfpsServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(VfpsServer.class);
  private static final long CLOSE_TIMEOUT_SECONDS = 30;

  private final ApiListeners.Listening listening;
  private final Promise<Void> stopping;
  private final Teardown teardown;
  private final Duration shutdownTimeout;

  private VfpsServer(
      ApiListeners.Listening listening,
      Promise<Void> stopping,
      Teardown teardown,
      Duration shutdownTimeout) {
    this.listening = listening;
    this.stopping = stopping;
    this.teardown = teardown;
    this.shutdownTimeout = shutdownTimeout;
  }

  /**
   * Starts the service and returns once it listens; blocks the calling thread, so call it from
   * {@code main} or a test, never from an event loop.
   *
   * @throws StartupException if any step fails; what was started is stopped again
   * @throws ConfigException if a setting points at something unusable (the TLS files)
   */
  public static VfpsServer start(VfpsConfig config) {
    long started = System.nanoTime();
    Teardown teardown = new Teardown();
    try {
      Storage storage = Storage.open(config.database(), teardown);
      Optional<ObjectStore> objectStore = CsvJobs.objectStore(config, teardown);
      BuildInfo build = BuildInfo.current();
      MeterHooks meters = MeterHooks.of(config, build);
      Tracing tracing =
          teardown.add(
              "The tracer", Tracing.start(config.tracing(), build.version()), Tracing::close);
      VertxRuntime runtime = VertxRuntime.start(config.cluster(), meters, tracing, teardown);
      ApiListeners.HttpFoundations foundations =
          teardown.add(
              "The loading of the REST contract and the FHIR model",
              ApiListeners.HttpFoundations.load(runtime.vertx()),
              ApiListeners.HttpFoundations::settle);
      // after Vert.x, whose PEM parser checks the files as the listeners will read them
      ServerTls tls = ServerTls.load(runtime.vertx(), config.tls());
      Caches caches = Caches.of(config.caching());
      ApiListeners.Lifecycle lifecycle =
          new ApiListeners.Lifecycle(Promise.promise(), Promise.promise());
      ApiListeners.Listening listening =
          new ServiceWiring(config, runtime, meters, tracing, caches, objectStore, teardown)
              .services(storage)
              .compose(
                  services ->
                      NamespaceSeeding.seed(services.namespaces(), config.initNamespaces())
                          .map(services))
              .compose(
                  services -> {
                    // closed before the pool: a verticle's timers (the metrics' counts) stop
                    // before the database they read from goes away
                    teardown.add("The verticles", runtime.vertx(), VfpsServer::undeployAll);
                    return ApiListeners.listen(
                        new ApiListeners.Edges(
                            config, runtime.vertx(), tls, services, lifecycle, foundations),
                        meters,
                        tracing);
                  })
              .await();
      tls.startReloading();
      lifecycle.startup().complete();
      StartupReport.started(config, started, listening, storage, runtime, objectStore);
      return new VfpsServer(
          listening, lifecycle.stopping(), teardown, config.connections().shutdownTimeout());
    } catch (Exception e) {
      // Exception, not RuntimeException: Future.await() rethrows checked failures (a
      // BindException) as they are
      teardown.close();
      if (e instanceof StartupException || e instanceof ConfigException) {
        throw e;
      }
      throw new StartupException("vfps could not start: " + e.getMessage(), e);
    }
  }

  /** The port gRPC listens on. */
  public int grpcPort() {
    return listening.grpc().get(0).actualPort();
  }

  /** The port HTTP (REST, FHIR, probes, docs) listens on. */
  public int httpPort() {
    return listening.http().get(0).actualPort();
  }

  /** The port {@code /metrics} is served on; 0 when metrics are off. */
  public int metricsPort() {
    return listening.metricsPort();
  }

  /**
   * Stops the service gracefully: readiness turns down (gRPC health and {@code /readyz}), the gRPC
   * and HTTP listeners stop taking connections and shut the open ones down (HTTP/2: GOAWAY), the
   * calls in flight finish within the shutdown timeout, and only then the database pool, Vert.x and
   * the tracer (spans not yet exported are sent) are closed. Blocks; a second call does nothing.
   */
  @Override
  public void close() {
    if (!stopping.tryComplete()) {
      return;
    }
    drain();
    teardown.close();
  }

  /** Shuts the API listeners down and waits for their calls in flight, within the timeout. */
  private void drain() {
    long started = System.nanoTime();
    LOG.info(
        "Shutting down: not ready any more, the listeners take no new connections, calls in flight"
            + " may take up to {} (HostOptions__ShutdownTimeout) to finish",
        TimeSpans.format(shutdownTimeout));
    List<Future<Void>> shutdowns = new ArrayList<>();
    listening.grpc().forEach(verticle -> shutdowns.add(verticle.shutdown(shutdownTimeout)));
    listening.http().forEach(verticle -> shutdowns.add(verticle.shutdown(shutdownTimeout)));
    try {
      // Vert.x ends each shutdown at its timeout; the margin only guards against a hang
      Future.join(shutdowns)
          .timeout(
              shutdownTimeout.toMillis() + CLOSE_TIMEOUT_SECONDS * 1_000, TimeUnit.MILLISECONDS)
          .await();
      LOG.info("Listeners closed in {} ms", (System.nanoTime() - started) / 1_000_000);
    } catch (Exception e) {
      LOG.warn("The listeners did not shut down cleanly: {}", e.toString());
    }
  }

  /** Undeploys every verticle, bounded, so that none works on while the parts below it close. */
  private static void undeployAll(Vertx vertx) {
    Future.join(vertx.deploymentIDs().stream().map(vertx::undeploy).toList())
        .timeout(CLOSE_TIMEOUT_SECONDS, TimeUnit.SECONDS)
        .await();
  }

  /** Runs the migrations; used at start-up and by the {@code migrate} command. */
  public static void migrate(ConnectionSettings connection) {
    Storage.migrate(connection);
  }
}
