package org.vfps.server;

import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxBuilder;
import io.vertx.core.VertxOptions;
import java.net.BindException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.access.Access;
import org.vfps.access.Audit;
import org.vfps.access.Permissions;
import org.vfps.admission.Admission;
import org.vfps.auth.Authenticator;
import org.vfps.auth.ServerTls;
import org.vfps.cache.CachingNamespaceRepository;
import org.vfps.cache.CachingPseudonymRepository;
import org.vfps.cache.VfpsCache;
import org.vfps.cluster.CacheInvalidationVerticle;
import org.vfps.cluster.ClusterMembership;
import org.vfps.cluster.EventBusNamespaceEvents;
import org.vfps.cluster.HazelcastCluster;
import org.vfps.config.AuthorizationConfig;
import org.vfps.config.CachingConfig;
import org.vfps.config.ClusterConfig;
import org.vfps.config.ConfigException;
import org.vfps.config.ConnectionConfig;
import org.vfps.config.ConnectionSettings;
import org.vfps.config.NamespaceSeed;
import org.vfps.config.VfpsConfig;
import org.vfps.connection.ConnectionLimits;
import org.vfps.error.ServiceException;
import org.vfps.fhir.FhirOperations;
import org.vfps.grpc.CallObserver;
import org.vfps.grpc.GrpcApiVerticle;
import org.vfps.http.ApiContract;
import org.vfps.http.HttpApiVerticle;
import org.vfps.log.EdgeWarnings;
import org.vfps.metrics.CacheStatistics;
import org.vfps.metrics.MetricsVerticle;
import org.vfps.metrics.ServiceMeters;
import org.vfps.namespace.GenerationMethod;
import org.vfps.namespace.NamespaceDraft;
import org.vfps.namespace.NamespaceEvents;
import org.vfps.namespace.NamespaceRepository;
import org.vfps.namespace.NamespaceService;
import org.vfps.pseudonym.PageTokens;
import org.vfps.pseudonym.PseudonymRepository;
import org.vfps.pseudonym.PseudonymService;
import org.vfps.storage.Database;
import org.vfps.storage.EmbeddedDatabase;
import org.vfps.storage.Migrations;
import org.vfps.tracing.Tracing;
import org.vfps.ui.UiRoutes;

/**
 * A running vfps: the one startup chain (database, migrations, pool, services, verticles) and its
 * shutdown. Used by {@code org.vfps.Main} and by the integration tests.
 */
public final class VfpsServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(VfpsServer.class);
  private static final long CLOSE_TIMEOUT_SECONDS = 30;

  private final Vertx vertx;
  private final Database database;
  private final EmbeddedDatabase embedded;
  private final Tracing tracing;
  private final int grpcPort;
  private final int httpPort;
  private final int metricsPort;
  private final Promise<Void> stopping;
  private final List<GrpcApiVerticle> grpcVerticles;
  private final List<HttpApiVerticle> httpVerticles;
  private final Duration shutdownTimeout;
  private final EdgeWarnings warnings;

  private VfpsServer(
      Vertx vertx,
      Database database,
      EmbeddedDatabase embedded,
      Tracing tracing,
      int grpcPort,
      int httpPort,
      int metricsPort,
      Promise<Void> stopping,
      List<GrpcApiVerticle> grpcVerticles,
      List<HttpApiVerticle> httpVerticles,
      Duration shutdownTimeout,
      EdgeWarnings warnings) {
    this.vertx = vertx;
    this.database = database;
    this.embedded = embedded;
    this.tracing = tracing;
    this.grpcPort = grpcPort;
    this.httpPort = httpPort;
    this.metricsPort = metricsPort;
    this.stopping = stopping;
    this.grpcVerticles = grpcVerticles;
    this.httpVerticles = httpVerticles;
    this.shutdownTimeout = shutdownTimeout;
    this.warnings = warnings;
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
    EmbeddedDatabase embedded = null;
    Vertx vertx = null;
    Database database = null;
    Tracing tracing = Tracing.disabled();
    try {
      ConnectionSettings connection;
      if (config.database().connection().isPresent()) {
        connection = config.database().connection().get();
        if (!config.database().ignoredConnectionKeywords().isEmpty()) {
          // the count only: a malformed string could put part of a password into a keyword
          LOG.info(
              "{} keywords of ConnectionStrings__PostgreSQL have no meaning for vfps and are"
                  + " ignored",
              config.database().ignoredConnectionKeywords().size());
        }
      } else {
        embedded = startEmbedded(config);
        connection = embedded.connection();
      }
      if (embedded != null || config.database().forceRunMigrations()) {
        migrate(connection);
      }
      // MetricsPort 0: no listener, so no meters either
      ServiceMeters meters = config.server().metricsPort() > 0 ? ServiceMeters.create() : null;
      tracing = Tracing.start(config.tracing(), version());
      ClusterMembership membership;
      if (config.cluster().enabled()) {
        HazelcastCluster.ClusteredVertx clustered =
            joinCluster(
                config.cluster(),
                vertxBuilder(meters, tracing, HazelcastCluster.options(config.cluster())));
        vertx = clustered.vertx();
        membership = clustered.membership();
      } else {
        vertx = vertxBuilder(meters, tracing, new VertxOptions()).build();
        membership = ClusterMembership.alone();
      }
      // after Vert.x, whose PEM parser checks the files as the listeners will read them
      ServerTls tls = ServerTls.load(vertx, config.tls());
      // this server's own, so that each server (several run in one test JVM) logs its first lines
      EdgeWarnings warnings = new EdgeWarnings(vertx);
      Admission admission = Instrumentation.admission(config.admission(), meters);
      database =
          Database.connect(vertx, connection, Instrumentation.upsertTimer(meters), admission);
      PageTokens pageTokens = new PageTokens(loadKey(database.pageTokenKey()));
      CachingConfig caching = config.caching();
      VfpsCache cache =
          caching.namespacesEnabled() || caching.pseudonymsEnabled()
              ? new VfpsCache(caching.sizeLimit(), caching.absoluteExpiration())
              : null;
      if (cache != null && meters != null) {
        meters.bindCache(
            "vfps",
            () -> {
              VfpsCache.Counts counts = cache.counts();
              return new CacheStatistics(counts.entries(), counts.hits(), counts.misses());
            });
      }
      NamespaceRepository namespaceRepository =
          caching.namespacesEnabled()
              ? new CachingNamespaceRepository(database.namespaces(), cache)
              : database.namespaces();
      PseudonymRepository pseudonymRepository =
          caching.pseudonymsEnabled()
              ? new CachingPseudonymRepository(database.pseudonyms(), cache)
              : database.pseudonyms();
      Audit audit = new Audit(tracing::currentTraceId);
      AuthorizationConfig authorization = config.authorization();
      Permissions permissions = Permissions.of(authorization);
      Access access =
          authorization.enabled()
              ? new Access(permissions, audit, Instrumentation.deniedCalls(meters))
              : Access.open(audit);
      warnAboutSignIn(authorization);
      byte[] sessionKey =
          authorization.enabled() && authorization.signIn().configured()
              ? loadKey(database.uiSessionKey())
              : null;
      Authenticator authenticator = Authenticator.start(vertx, authorization, audit, sessionKey);
      NamespaceService namespaces =
          new NamespaceService(
              namespaceRepository,
              new EventBusNamespaceEvents(
                  vertx, membership, cache != null, config.cluster().evictionTimeout()),
              Clock.systemUTC(),
              access);
      PseudonymService pseudonyms =
          new PseudonymService(
              namespaces,
              pseudonymRepository,
              pageTokens,
              Instrumentation.generators(tracing),
              access,
              config.batch().maxSize());
      if (cache != null) {
        vertx.deployVerticle(new CacheInvalidationVerticle(cache, membership)).await();
      }
      createInitialNamespaces(namespaces, config.initNamespaces());

      Database db = database;
      Vertx running = vertx;
      Supplier<Future<Boolean>> databaseHealthy = db::healthy;
      Promise<Void> startup = Promise.promise();
      Promise<Void> stopping = Promise.promise();
      // gRPC serves from before the HTTP side is up, but is ready only with it, as /readyz
      Supplier<Future<Boolean>> ready =
          () ->
              startup.future().succeeded() && !stopping.future().isComplete()
                  ? db.healthy()
                  : Future.succeededFuture(false);
      int metricsPort = 0;
      if (meters != null) {
        MetricsVerticle metrics =
            new MetricsVerticle(
                config.server().metricsPort(),
                meters,
                db::pseudonymCounts,
                config.metrics().pseudonymCountInterval(),
                NamespaceEvents.DELETED_ADDRESS);
        listen(
            "metrics",
            "MetricsPort",
            config.server().metricsPort(),
            () -> running.deployVerticle(metrics));
        metricsPort = metrics.actualPort();
      }
      CallObserver observer = Instrumentation.callObserver(meters, tracing);
      List<GrpcApiVerticle> grpcVerticles = new CopyOnWriteArrayList<>();
      listen(
          "gRPC",
          "Grpc__Port",
          config.server().grpcPort(),
          () ->
              running.deployVerticle(
                  () -> {
                    GrpcApiVerticle verticle =
                        new GrpcApiVerticle(
                            config.server().grpcPort(),
                            config.server().grpcReflectionEnabled(),
                            namespaces,
                            pseudonyms,
                            ready,
                            observer,
                            tls,
                            authenticator,
                            grpcConnections(config.connections()),
                            admission,
                            warnings);
                    grpcVerticles.add(verticle);
                    return verticle;
                  },
                  new DeploymentOptions().setInstances(eventLoops())));
      // the REST contract and HAPI's first parse each take most of a second of CPU: they start
      // once gRPC serves, on workers side by side, so they do not slow the way to the first Create
      Future<ApiContract> loadingContract = ApiContract.load(vertx);
      Future<FhirOperations> startingFhir = FhirOperations.start(vertx, pseudonyms, warnings);
      ApiContract contract = loadingContract.await();
      FhirOperations fhir = startingFhir.await();
      HttpApiVerticle.Dependencies http =
          new HttpApiVerticle.Dependencies(
              config.server().httpPort(),
              config.server().httpMaxRequestBodyBytes(),
              contract,
              namespaces,
              pseudonyms,
              fhir,
              startup.future(),
              stopping.future(),
              databaseHealthy,
              tls,
              authenticator,
              new UiRoutes(
                      new UiRoutes.Dependencies(
                          version(),
                          config.server().httpMaxRequestBodyBytes(),
                          authorization.enabled(),
                          authenticator.signIn(),
                          permissions,
                          namespaces))
                  ::mount,
              httpConnections(config.connections()),
              admission,
              config.admission().httpRequestTimeout(),
              warnings);
      List<HttpApiVerticle> httpVerticles = new CopyOnWriteArrayList<>();
      listen(
          "HTTP",
          "Http__Port",
          config.server().httpPort(),
          () ->
              running.deployVerticle(
                  () -> {
                    HttpApiVerticle verticle = new HttpApiVerticle(http);
                    httpVerticles.add(verticle);
                    return verticle;
                  },
                  new DeploymentOptions().setInstances(eventLoops())));
      int grpcPort = grpcVerticles.get(0).actualPort();
      int httpPort = httpVerticles.get(0).actualPort();
      tls.startReloading();
      startup.complete();
      LOG.info(
          "vfps {} started in {} ms: gRPC on port {}, HTTP on port {}, metrics {}, database {},"
              + " cluster {}, caches {}, tracing {}, reflection {}, authorization {}",
          version(),
          (System.nanoTime() - started) / 1_000_000,
          grpcPort,
          httpPort,
          metricsPort > 0 ? "on port " + metricsPort : "off",
          embedded != null
              ? "embedded (development only) in " + embedded.dataDirectory()
              : connection.host() + ":" + connection.port() + "/" + connection.database(),
          config.cluster().enabled()
              ? "'" + config.cluster().name() + "' with " + membership.nodeIds().size() + " members"
              : "off",
          describeCaches(caching),
          Tracing.describe(config.tracing()),
          config.server().grpcReflectionEnabled() ? "on" : "off",
          describeAuthorization(authorization));
      return new VfpsServer(
          vertx,
          database,
          embedded,
          tracing,
          grpcPort,
          httpPort,
          metricsPort,
          stopping,
          grpcVerticles,
          httpVerticles,
          config.connections().shutdownTimeout(),
          warnings);
    } catch (Exception e) {
      // Exception, not RuntimeException: Future.await() rethrows checked failures (a
      // BindException) as they are
      closeQuietly(vertx, database, tracing, embedded);
      if (e instanceof StartupException || e instanceof ConfigException) {
        throw e;
      }
      throw new StartupException("vfps could not start: " + e.getMessage(), e);
    }
  }

  /**
   * Deploys the verticles of one listener and waits for them to listen; a port another process
   * holds stops the start with a message that names it and its key.
   */
  private static void listen(
      String listener, String key, int port, Supplier<Future<String>> deploy) {
    try {
      deploy.get().await();
    } catch (Exception e) {
      if (isBindFailure(e)) {
        throw new StartupException(
            "The "
                + listener
                + " port "
                + port
                + " is in use by another process; stop it or set "
                + key
                + " to a free port",
            // no stack trace: a port in use is the operator's matter, not a bug
            null);
      }
      throw e;
    }
  }

  private static boolean isBindFailure(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof BindException
          || String.valueOf(cause.getMessage()).contains("Address already in use")) {
        return true;
      }
      if (cause.getCause() == cause) {
        break;
      }
    }
    return false;
  }

  private static ConnectionLimits httpConnections(ConnectionConfig config) {
    return new ConnectionLimits(
        config.httpRequestHeadersTimeout(),
        config.httpIdleTimeout(),
        Duration.ZERO,
        Duration.ZERO,
        Duration.ZERO);
  }

  private static ConnectionLimits grpcConnections(ConnectionConfig config) {
    return new ConnectionLimits(
        config.grpcRequestHeadersTimeout(),
        config.grpcMaxConnectionIdle(),
        config.grpcKeepAliveTime(),
        config.grpcKeepAliveTimeout(),
        config.grpcMaxConnectionAge());
  }

  /** A Vert.x builder with the meters and the tracer, where they are on. */
  private static VertxBuilder vertxBuilder(
      ServiceMeters meters, Tracing tracing, VertxOptions options) {
    VertxBuilder builder = Vertx.builder();
    if (meters != null) {
      options.setMetricsOptions(meters.vertxOptions());
      builder.withMetrics(meters.vertxFactory());
    }
    tracing.vertxTracerFactory().ifPresent(builder::withTracer);
    return builder.with(options);
  }

  private static String describeCaches(CachingConfig caching) {
    if (!caching.namespacesEnabled() && !caching.pseudonymsEnabled()) {
      return "off";
    }
    return "namespaces "
        + (caching.namespacesEnabled() ? "on" : "off")
        + ", pseudonyms "
        + (caching.pseudonymsEnabled() ? "on" : "off")
        + " ("
        + caching.sizeLimit()
        + " entries, "
        + caching.absoluteExpiration()
        + ")";
  }

  private static String describeAuthorization(AuthorizationConfig authorization) {
    if (!authorization.enabled()) {
      return "off";
    }
    List<String> ways = new ArrayList<>();
    authorization.authority().ifPresent(authority -> ways.add("bearer tokens of " + authority));
    if (!authorization.clients().isEmpty()) {
      ways.add(authorization.clients().size() + " client accounts");
    }
    return "on (" + String.join(", ", ways) + ")";
  }

  /** The port gRPC listens on. */
  public int grpcPort() {
    return grpcPort;
  }

  /** The port HTTP (REST, FHIR, probes, docs) listens on. */
  public int httpPort() {
    return httpPort;
  }

  /** The port {@code /metrics} is served on; 0 when metrics are off. */
  public int metricsPort() {
    return metricsPort;
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
    warnings.close();
    closeQuietly(vertx, database, tracing, embedded);
  }

  /** Shuts the API listeners down and waits for their calls in flight, within the timeout. */
  private void drain() {
    long started = System.nanoTime();
    LOG.info(
        "Shutting down: not ready any more, the listeners take no new connections, calls in flight"
            + " may take up to {} to finish",
        shutdownTimeout);
    List<Future<Void>> shutdowns = new ArrayList<>();
    grpcVerticles.forEach(verticle -> shutdowns.add(verticle.shutdown(shutdownTimeout)));
    httpVerticles.forEach(verticle -> shutdowns.add(verticle.shutdown(shutdownTimeout)));
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

  /** One verticle instance per event loop, as Vert.x sizes its event loop pool. */
  private static int eventLoops() {
    return VertxOptions.DEFAULT_EVENT_LOOP_POOL_SIZE;
  }

  private static HazelcastCluster.ClusteredVertx joinCluster(
      ClusterConfig cluster, VertxBuilder builder) {
    long started = System.nanoTime();
    try {
      HazelcastCluster.ClusteredVertx clustered = HazelcastCluster.join(cluster, builder);
      LOG.info(
          "Joined cluster '{}' in {} ms ({} members)",
          cluster.name(),
          (System.nanoTime() - started) / 1_000_000,
          clustered.membership().nodeIds().size());
      return clustered;
    } catch (RuntimeException e) {
      throw new StartupException("Joining cluster '" + cluster.name() + "' failed: " + e, e);
    }
  }

  private static EmbeddedDatabase startEmbedded(VfpsConfig config) {
    LOG.warn(
        "No ConnectionStrings__PostgreSQL configured: starting an embedded PostgreSQL in {}. This"
            + " is a development database; configure a PostgreSQL server for production.",
        config.database().embeddedDataDirectory());
    try {
      if (!config.database().embeddedDurable()) {
        LOG.warn(
            "Database__Embedded__Durable=false: the embedded PostgreSQL does not flush commits to"
                + " disk, and acknowledged pseudonyms may be lost on a crash or power failure");
      }
      return EmbeddedDatabase.start(
          config.database().embeddedDataDirectory(), config.database().embeddedDurable());
    } catch (RuntimeException e) {
      throw new StartupException("The embedded PostgreSQL did not start: " + e.getMessage(), e);
    }
  }

  /** Runs the migrations; used at start-up and by the {@code migrate} command. */
  public static void migrate(ConnectionSettings connection) {
    try {
      int applied = Migrations.migrate(connection);
      LOG.info("Database schema is up to date ({} migrations applied)", applied);
    } catch (RuntimeException e) {
      throw new StartupException(
          "Migrating the database at "
              + connection.host()
              + ":"
              + connection.port()
              + "/"
              + connection.database()
              + " failed: "
              + rootMessage(e),
          e);
    }
  }

  /**
   * Warns once when authorization is off, and when the admin UI's sign-in client is missing (the UI
   * then says sign-in is not configured; the API is unaffected) or set without use.
   */
  private static void warnAboutSignIn(AuthorizationConfig authorization) {
    if (!authorization.enabled()) {
      LOG.warn(
          "Authorization is off (Authorization__IsEnabled=false): every caller is an admin and"
              + " may look up original values. Turn it on for anything but development.");
      if (authorization.signIn().configured() || !authorization.signIn().clientSecret().isEmpty()) {
        LOG.warn(
            "Authorization__ClientId and __ClientSecret are set, but authorization is off: the"
                + " admin UI needs no sign-in and does not use them.");
      }
    } else if (!authorization.signIn().configured()) {
      LOG.warn(
          "The admin UI's sign-in is not configured (Authorization__ClientId,"
              + " Authorization__ClientSecret): the UI says so and nobody can sign in to it; the"
              + " API is not affected.");
    }
  }

  /** A key shared by the replicas through the database (see {@link Database#pageTokenKey()}). */
  private static byte[] loadKey(Future<byte[]> loading) {
    try {
      return loading.await();
    } catch (RuntimeException e) {
      throw new StartupException(
          "The database is not ready: "
              + rootMessage(e)
              + ". Is it migrated? Run 'vfps migrate' or set ForceRunDatabaseMigrations=true.",
          e);
    }
  }

  private static void createInitialNamespaces(
      NamespaceService namespaces, List<NamespaceSeed> seeds) {
    for (NamespaceSeed seed : seeds) {
      int method =
          seed.generationMethod() == null
              ? GenerationMethod.UNSPECIFIED.number()
              : GenerationMethod.parse(seed.generationMethod())
                  .orElseThrow(
                      () ->
                          new StartupException(
                              seed.key()
                                  + "__PseudonymGenerationMethod: '"
                                  + seed.generationMethod()
                                  + "' is not a generation method",
                              null))
                  .number();
      NamespaceDraft draft =
          new NamespaceDraft(
              seed.name(),
              seed.description(),
              method,
              seed.pseudonymLength(),
              seed.prefix(),
              seed.suffix());
      try {
        boolean created = namespaces.createIfAbsent(draft).await();
        LOG.info(
            "Initial namespace '{}' {}", seed.name(), created ? "created" : "exists, left as is");
      } catch (ServiceException e) {
        throw new StartupException(seed.key() + ": " + e.getMessage(), e);
      }
    }
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
  }

  private static void closeQuietly(
      Vertx vertx, Database database, Tracing tracing, EmbeddedDatabase embedded) {
    if (database != null) {
      database.close();
    }
    if (vertx != null) {
      try {
        // bounded, so that a failed start always comes to its exit
        vertx.close().timeout(CLOSE_TIMEOUT_SECONDS, TimeUnit.SECONDS).await();
      } catch (Exception e) {
        LOG.warn("Vert.x did not close cleanly", e);
      }
    }
    // after Vert.x, whose last requests end their spans on closing
    tracing.close();
    if (embedded != null) {
      try {
        embedded.close();
      } catch (RuntimeException e) {
        LOG.warn("The embedded PostgreSQL did not stop cleanly", e);
      }
    }
  }

  /** The version in the jar's manifest, or {@code dev} when run from classes. */
  static String version() {
    String version = VfpsServer.class.getPackage().getImplementationVersion();
    return version == null ? "dev" : version;
  }
}
