package org.vfps.server;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxBuilder;
import io.vertx.core.VertxOptions;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.access.Access;
import org.vfps.access.AccessAdmin;
import org.vfps.access.AccessSnapshots;
import org.vfps.access.AccessStore;
import org.vfps.access.Audit;
import org.vfps.access.Permissions;
import org.vfps.admission.Admission;
import org.vfps.auth.Authenticator;
import org.vfps.auth.ServerTls;
import org.vfps.cluster.CacheInvalidationVerticle;
import org.vfps.cluster.ClusterMembership;
import org.vfps.cluster.EventBusAccessEvents;
import org.vfps.cluster.EventBusNamespaceEvents;
import org.vfps.cluster.Evictions;
import org.vfps.cluster.HazelcastCluster;
import org.vfps.config.AuthorizationConfig;
import org.vfps.config.CachingConfig;
import org.vfps.config.ClusterConfig;
import org.vfps.config.ConfigException;
import org.vfps.config.ConnectionConfig;
import org.vfps.config.ConnectionSettings;
import org.vfps.config.DatabaseConfig;
import org.vfps.config.NamespaceSeed;
import org.vfps.config.TimeSpans;
import org.vfps.config.VfpsConfig;
import org.vfps.connection.ConnectionLimits;
import org.vfps.error.ServiceException;
import org.vfps.fhir.FhirOperations;
import org.vfps.grpc.CallObserver;
import org.vfps.grpc.GrpcApiVerticle;
import org.vfps.http.ApiContract;
import org.vfps.http.HttpApiVerticle;
import org.vfps.job.CsvJobService;
import org.vfps.log.EdgeWarnings;
import org.vfps.namespace.GenerationMethod;
import org.vfps.namespace.GenerationSupport;
import org.vfps.namespace.NamespaceDraft;
import org.vfps.namespace.NamespaceService;
import org.vfps.objectstore.ObjectStore;
import org.vfps.pseudonym.KeyedGenerator;
import org.vfps.pseudonym.PageTokens;
import org.vfps.pseudonym.PseudonymService;
import org.vfps.pseudonym.PseudonymTransfer;
import org.vfps.storage.Database;
import org.vfps.storage.EmbeddedDatabase;
import org.vfps.storage.Migrations;
import org.vfps.tracing.Tracing;
import org.vfps.ui.UiRoutes;
import org.vfps.voprf.client.VoprfGenerator;

/**
 * A running vfps: the one startup chain (database, migrations, pool, services, verticles) and its
 * shutdown. Used by {@code org.vfps.Main} and by the integration tests.
 */
public final class VfpsServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(VfpsServer.class);
  private static final long CLOSE_TIMEOUT_SECONDS = 30;

  private final Listening listening;
  private final Promise<Void> stopping;
  private final Teardown teardown;
  private final Duration shutdownTimeout;

  private VfpsServer(
      Listening listening, Promise<Void> stopping, Teardown teardown, Duration shutdownTimeout) {
    this.listening = listening;
    this.stopping = stopping;
    this.teardown = teardown;
    this.shutdownTimeout = shutdownTimeout;
  }

  /** Where the data live: the connection and the words the start line uses for it. */
  private record Storage(ConnectionSettings connection, String description) {}

  /** Vert.x, clustered or alone; a replica alone is its own single member. */
  private record Runtime(Vertx vertx, ClusterMembership membership) {}

  /** The shared objects every verticle of the server is given. */
  private record Services(
      Database database,
      Admission admission,
      EdgeWarnings warnings,
      Permissions permissions,
      Authenticator authenticator,
      NamespaceService namespaces,
      PseudonymService pseudonyms,
      AccessAdmin accessAdmin,
      CsvJobService csvJobs) {}

  /** The methods that make new pseudonyms here, and VOPRF's length, from the settings. */
  private static GenerationSupport generationSupport(VfpsConfig config) {
    return new GenerationSupport(
        config.generation().sha256Enabled(),
        config.voprf().enabled()
            ? OptionalInt.of(config.voprf().pseudonymLength())
            : OptionalInt.empty());
  }

  /** The keys the replicas share through the database; the UI's only with a sign-in client. */
  private record SharedKeys(byte[] pageTokens, Optional<byte[]> uiSessions) {}

  /** What the HTTP listener serves besides the services, loaded once gRPC serves. */
  private record HttpParts(ApiContract contract, FhirOperations fhir) {}

  /** The listeners, once they listen; the metrics port is 0 when metrics are off. */
  private record Listening(
      List<GrpcApiVerticle> grpc, List<HttpApiVerticle> http, int metricsPort) {}

  /** Readiness, which gRPC health and {@code /readyz} report: up once started, down on stopping. */
  private record Lifecycle(Promise<Void> startup, Promise<Void> stopping) {}

  /** What the API listeners (gRPC, HTTP) are built from. */
  private record Edges(
      VfpsConfig config, Vertx vertx, ServerTls tls, Services services, Lifecycle lifecycle) {}

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
      Storage storage = storage(config.database(), teardown);
      Optional<ObjectStore> objectStore = CsvJobs.objectStore(config, teardown);
      Metrics metrics = Metrics.of(config);
      Tracing tracing =
          teardown.add("The tracer", Tracing.start(config.tracing(), version()), Tracing::close);
      Runtime runtime = runtime(config.cluster(), metrics, tracing, teardown);
      // after Vert.x, whose PEM parser checks the files as the listeners will read them
      ServerTls tls = ServerTls.load(runtime.vertx(), config.tls());
      Caches caches = Caches.of(config.caching());
      Lifecycle lifecycle = new Lifecycle(Promise.promise(), Promise.promise());
      Listening listening =
          services(config, storage, objectStore, metrics, tracing, runtime, caches, teardown)
              .compose(services -> seedNamespaces(services, config.initNamespaces()))
              .compose(
                  services ->
                      listen(
                          new Edges(config, runtime.vertx(), tls, services, lifecycle),
                          metrics,
                          tracing))
              .await();
      tls.startReloading();
      lifecycle.startup().complete();
      LOG.info(
          "vfps {} started in {} ms: gRPC on port {}, HTTP on port {}, metrics {}, database {},"
              + " cluster {}, caches {}, tracing {}, reflection {}, authorization {}, CSV jobs {}",
          version(),
          (System.nanoTime() - started) / 1_000_000,
          listening.grpc().get(0).actualPort(),
          listening.http().get(0).actualPort(),
          listening.metricsPort() > 0 ? "on port " + listening.metricsPort() : "off",
          storage.description(),
          config.cluster().enabled()
              ? "'"
                  + config.cluster().name()
                  + "' with "
                  + runtime.membership().nodeIds().size()
                  + " members"
              : "off",
          describeCaches(config.caching()),
          Tracing.describe(config.tracing()),
          config.server().grpcReflectionEnabled() ? "on" : "off",
          describeAuthorization(config.authorization()),
          CsvJobs.describe(config, objectStore));
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

  /** The configured PostgreSQL, or the embedded one; migrated when asked or embedded. */
  private static Storage storage(DatabaseConfig database, Teardown teardown) {
    if (database.connection().isEmpty()) {
      EmbeddedDatabase embedded =
          teardown.add("The embedded PostgreSQL", startEmbedded(database), EmbeddedDatabase::close);
      migrate(embedded.connection());
      return new Storage(
          embedded.connection(), "embedded (development only) in " + embedded.dataDirectory());
    }
    ConnectionSettings connection = database.connection().get();
    if (!database.ignoredConnectionKeywords().isEmpty()) {
      // the count only: a malformed string could put part of a password into a keyword
      LOG.info(
          "{} keywords of ConnectionStrings__PostgreSQL have no meaning for vfps and are ignored",
          database.ignoredConnectionKeywords().size());
    }
    if (database.forceRunMigrations()) {
      migrate(connection);
    }
    return new Storage(
        connection, connection.host() + ":" + connection.port() + "/" + connection.database());
  }

  /** Vert.x with the meters and the tracer, clustered when configured. */
  private static Runtime runtime(
      ClusterConfig cluster, Metrics metrics, Tracing tracing, Teardown teardown) {
    VertxBuilder builder = Vertx.builder();
    tracing.vertxTracerFactory().ifPresent(builder::withTracer);
    if (!cluster.enabled()) {
      Vertx vertx = metrics.instrument(builder, new VertxOptions()).build();
      teardown.add("Vert.x", vertx, VfpsServer::closeVertx);
      return new Runtime(vertx, ClusterMembership.alone());
    }
    HazelcastCluster.ClusteredVertx clustered =
        joinCluster(cluster, metrics.instrument(builder, HazelcastCluster.options(cluster)));
    teardown.add("Vert.x", clustered.vertx(), VfpsServer::closeVertx);
    return new Runtime(clustered.vertx(), clustered.membership());
  }

  /** The pool, the shared keys and the services on them. */
  private static Future<Services> services(
      VfpsConfig config,
      Storage storage,
      Optional<ObjectStore> objectStore,
      Metrics metrics,
      Tracing tracing,
      Runtime runtime,
      Caches caches,
      Teardown teardown) {
    Vertx vertx = runtime.vertx();
    Admission admission = Instrumentation.admission(config.admission(), metrics);
    Database database =
        teardown.add(
            "The database pool",
            Database.connect(vertx, storage.connection(), metrics.upsertTimer(), admission),
            Database::close);
    // this server's own, so that each server (several run in one test JVM) logs its first lines
    EdgeWarnings warnings =
        teardown.add(
            "The edge warnings",
            new EdgeWarnings(vertx, config.logging().clientErrors()),
            EdgeWarnings::close);
    caches.bind(metrics);
    AuthorizationConfig authorization = config.authorization();
    warnAboutSignIn(authorization);
    AccessStore accessStore = database.access();
    AccessSnapshots snapshots =
        new AccessSnapshots(accessStore::snapshot, authorization.grantCacheDuration());
    Evictions evictions = new Evictions(vertx, caches.shared().orElse(null), snapshots);
    EventBusAccessEvents accessEvents =
        new EventBusAccessEvents(vertx, runtime.membership(), config.cluster().evictionTimeout());
    return sharedKeys(database, authorization)
        .compose(keys -> accessSnapshots(snapshots, vertx, authorization).map(keys))
        .compose(
            keys ->
                followInvalidations(vertx, runtime.membership(), evictions, database, authorization)
                    .map(keys))
        .map(
            keys -> {
              Audit audit = new Audit(tracing::currentTraceId, config.logging().auditBatchReads());
              Permissions permissions = Permissions.of(authorization, snapshots);
              Access access =
                  authorization.enabled()
                      ? new Access(permissions, audit, metrics.deniedCalls())
                      : Access.open(audit);
              GenerationSupport generation = generationSupport(config);
              KeyedGenerator voprf =
                  config.voprf().enabled()
                      ? teardown.add(
                          "The VOPRF client",
                          VoprfGenerator.start(vertx, config.voprf()),
                          VoprfGenerator::close)
                      : KeyedGenerator.NONE;
              EventBusNamespaceEvents events =
                  new EventBusNamespaceEvents(
                      vertx, runtime.membership(), evictions, config.cluster().evictionTimeout());
              NamespaceService namespaces =
                  new NamespaceService(
                      caches.namespaces(database.namespaces()),
                      events,
                      Clock.systemUTC(),
                      access,
                      generation);
              Authenticator authenticator =
                  teardown.add(
                      "The authenticator",
                      Authenticator.start(
                          vertx,
                          authorization,
                          audit,
                          access,
                          keys.uiSessions().orElse(null),
                          database.endedSessions(),
                          snapshots,
                          accessStore),
                      Authenticator::close);
              PseudonymService pseudonyms =
                  new PseudonymService(
                      namespaces,
                      caches.pseudonyms(database.pseudonyms()),
                      new PageTokens(keys.pageTokens()),
                      Instrumentation.generators(tracing),
                      access,
                      config.batch().maxSize(),
                      generation,
                      events,
                      voprf);
              CsvJobService csvJobs =
                  CsvJobs.start(
                      config,
                      vertx,
                      objectStore,
                      database.csvJobs(),
                      access,
                      namespaces,
                      pseudonyms,
                      new PseudonymTransfer(namespaces, database.pseudonyms(), access),
                      metrics.csvJobPhases(),
                      teardown);
              return new Services(
                  database,
                  admission,
                  warnings,
                  permissions,
                  authenticator,
                  namespaces,
                  pseudonyms,
                  new AccessAdmin(
                      accessStore,
                      snapshots,
                      accessEvents,
                      access,
                      authorization.accessTokens(),
                      Clock.systemUTC()),
                  csvJobs);
            });
  }

  /**
   * Applies the changes other replicas make to this one's caches, as the event bus and the
   * database's invalidation log bring them; failing, the log cannot be read.
   */
  private static Future<Void> followInvalidations(
      Vertx vertx,
      ClusterMembership membership,
      Evictions evictions,
      Database database,
      AuthorizationConfig authorization) {
    boolean accessCopiesKept =
        authorization.enabled() && authorization.grantCacheDuration().compareTo(Duration.ZERO) > 0;
    return vertx
        .deployVerticle(
            new CacheInvalidationVerticle(
                evictions, membership, database.invalidations(), accessCopiesKept))
        .<Void>mapEmpty()
        .recover(
            failure ->
                Future.failedFuture(
                    new StartupException(
                        "The cache invalidation log (tables vfps_cache_generation and"
                            + " vfps_cache_invalidations) cannot be read: "
                            + rootMessage(failure)
                            + ". Is the database migrated, and may the service's role read and"
                            + " write them (see the production grants)?",
                        failure)));
  }

  /**
   * Reads the grants and tokens a first time when authorization is on (they are not used
   * otherwise); failing, the database is not ready.
   */
  private static Future<Void> accessSnapshots(
      AccessSnapshots snapshots, Vertx vertx, AuthorizationConfig authorization) {
    if (!authorization.enabled()) {
      return Future.succeededFuture();
    }
    return snapshots
        .start(vertx)
        .recover(
            failure ->
                Future.failedFuture(
                    new StartupException(
                        "The access grants and tokens cannot be read: "
                            + rootMessage(failure)
                            + ". Is the database migrated?",
                        failure)));
  }

  /**
   * The keys shared by the replicas through the database (see {@link Database#pageTokenKey()});
   * failing, the database is not ready.
   */
  private static Future<SharedKeys> sharedKeys(
      Database database, AuthorizationConfig authorization) {
    Future<Optional<byte[]>> uiSessions =
        authorization.enabled() && authorization.signIn().configured()
            ? database.uiSessionKey().map(Optional::of)
            : Future.succeededFuture(Optional.empty());
    Future<byte[]> pageTokens = database.pageTokenKey();
    return Future.all(pageTokens, uiSessions)
        .map(loaded -> new SharedKeys(pageTokens.result(), uiSessions.result()))
        .recover(
            failure ->
                Future.failedFuture(
                    new StartupException(
                        "The database is not ready: "
                            + rootMessage(failure)
                            + ". Is it migrated? Run 'vfps migrate' or set"
                            + " ForceRunDatabaseMigrations=true.",
                        failure)));
  }

  /** Creates the configured namespaces that do not exist yet, one after the other. */
  private static Future<Services> seedNamespaces(Services services, List<NamespaceSeed> seeds) {
    Future<Void> seeded = Future.succeededFuture();
    for (NamespaceSeed seed : seeds) {
      seeded = seeded.compose(previous -> seedNamespace(services.namespaces(), seed));
    }
    return seeded.map(services);
  }

  private static Future<Void> seedNamespace(NamespaceService namespaces, NamespaceSeed seed) {
    return namespaces
        .createIfAbsent(draft(seed))
        .map(
            created -> {
              LOG.info(
                  "Initial namespace '{}' {}",
                  seed.name(),
                  created ? "created" : "exists, left as is");
              return (Void) null;
            })
        .recover(
            failure ->
                Future.failedFuture(
                    failure instanceof ServiceException
                        ? new StartupException(seed.key() + ": " + failure.getMessage(), failure)
                        : failure));
  }

  /**
   * The namespace a seed describes. The generation method is checked here rather than at load: the
   * names are the domain's ({@link GenerationMethod}), which the configuration does not see.
   */
  private static NamespaceDraft draft(NamespaceSeed seed) {
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
    return new NamespaceDraft(
        seed.name(),
        seed.description(),
        method,
        seed.pseudonymLength(),
        seed.prefix(),
        seed.suffix());
  }

  /**
   * The listeners, one after the other: metrics, gRPC, then HTTP. The REST contract and HAPI's
   * first parse each take most of a second of CPU: they start once gRPC serves, on workers side by
   * side, so they do not slow the way to the first Create.
   */
  private static Future<Listening> listen(Edges edges, Metrics metrics, Tracing tracing) {
    Future<Integer> metricsPort =
        metrics.listen(edges.vertx(), edges.config(), edges.services().database());
    Future<List<GrpcApiVerticle>> grpc =
        metricsPort.compose(
            port -> listenGrpc(edges, Instrumentation.callObserver(metrics, tracing)));
    Future<List<HttpApiVerticle>> http =
        grpc.compose(serving -> httpParts(edges.vertx(), edges.services()))
            .compose(parts -> listenHttp(edges, parts));
    return Future.all(metricsPort, grpc, http)
        .map(all -> new Listening(grpc.result(), http.result(), metricsPort.result()));
  }

  private static Future<List<GrpcApiVerticle>> listenGrpc(Edges edges, CallObserver observer) {
    VfpsConfig config = edges.config();
    Services services = edges.services();
    Lifecycle lifecycle = edges.lifecycle();
    Database database = services.database();
    // gRPC serves from before the HTTP side is up, but is ready only with it, as /readyz
    Supplier<Future<Boolean>> ready =
        () ->
            lifecycle.startup().future().succeeded() && !lifecycle.stopping().future().isComplete()
                ? database.healthy()
                : Future.succeededFuture(false);
    return Listeners.deploy(
        edges.vertx(),
        "gRPC",
        "Grpc__Port",
        config.server().grpcPort(),
        Stream.generate(
                () ->
                    new GrpcApiVerticle(
                        config.server().grpcPort(),
                        config.server().grpcReflectionEnabled(),
                        services.namespaces(),
                        services.pseudonyms(),
                        services.accessAdmin(),
                        services.csvJobs(),
                        ready,
                        observer,
                        edges.tls(),
                        services.authenticator(),
                        grpcConnections(config.connections()),
                        services.admission(),
                        services.warnings()))
            .limit(Listeners.PER_EVENT_LOOP)
            .toList());
  }

  private static Future<HttpParts> httpParts(Vertx vertx, Services services) {
    Future<ApiContract> contract = ApiContract.load(vertx);
    Future<FhirOperations> fhir =
        FhirOperations.start(vertx, services.pseudonyms(), services.warnings());
    return Future.all(contract, fhir).map(both -> new HttpParts(contract.result(), fhir.result()));
  }

  private static Future<List<HttpApiVerticle>> listenHttp(Edges edges, HttpParts parts) {
    VfpsConfig config = edges.config();
    Services services = edges.services();
    Lifecycle lifecycle = edges.lifecycle();
    AuthorizationConfig authorization = config.authorization();
    HttpApiVerticle.Dependencies http =
        new HttpApiVerticle.Dependencies(
            config.server().httpPort(),
            config.server().httpMaxRequestBodyBytes(),
            parts.contract(),
            services.namespaces(),
            services.pseudonyms(),
            services.accessAdmin(),
            services.csvJobs(),
            parts.fhir(),
            lifecycle.startup().future(),
            lifecycle.stopping().future(),
            services.database()::healthy,
            edges.tls(),
            services.authenticator(),
            new UiRoutes(
                    new UiRoutes.Dependencies(
                        version(),
                        config.server().httpMaxRequestBodyBytes(),
                        authorization.enabled(),
                        services.authenticator().signIn(),
                        services.permissions(),
                        services.namespaces(),
                        new UiRoutes.AccessTokenSettings(
                            authorization.accessTokens().enabled(),
                            authorization.accessTokens().defaultLifetime(),
                            authorization.accessTokens().maximumLifetime()),
                        generationSupport(config),
                        services.csvJobs().transferOrigin(),
                        config.server().trustedProxies()::trusts))
                ::mount,
            httpConnections(config.connections()),
            services.admission(),
            config.admission().httpRequestTimeout(),
            services.warnings());
    return Listeners.deploy(
        edges.vertx(),
        "HTTP",
        "Http__Port",
        config.server().httpPort(),
        Stream.generate(() -> new HttpApiVerticle(http)).limit(Listeners.PER_EVENT_LOOP).toList());
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
    if (authorization.accessTokens().enabled()) {
      ways.add("access tokens");
    }
    return "on (" + String.join(", ", ways) + ")";
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

  private static EmbeddedDatabase startEmbedded(DatabaseConfig database) {
    LOG.warn(
        "No ConnectionStrings__PostgreSQL configured: starting an embedded PostgreSQL in {}. This"
            + " is a development database; configure a PostgreSQL server for production.",
        database.embeddedDataDirectory());
    try {
      if (!database.embeddedDurable()) {
        LOG.warn(
            "Database__Embedded__Durable=false: the embedded PostgreSQL does not flush commits to"
                + " disk, and acknowledged pseudonyms may be lost on a crash or power failure");
      }
      return EmbeddedDatabase.start(database.embeddedDataDirectory(), database.embeddedDurable());
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

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
  }

  /** Closes Vert.x, bounded, so that a failed start always comes to its exit. */
  private static void closeVertx(Vertx vertx) {
    vertx.close().timeout(CLOSE_TIMEOUT_SECONDS, TimeUnit.SECONDS).await();
  }

  /** The version in the jar's manifest, or {@code dev} when run from classes. */
  public static String version() {
    String version = VfpsServer.class.getPackage().getImplementationVersion();
    return version == null ? "dev" : version;
  }
}
