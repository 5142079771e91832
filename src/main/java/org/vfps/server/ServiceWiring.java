package org.vfps.server;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;
import org.vfps.access.Access;
import org.vfps.access.AccessAdmin;
import org.vfps.access.AccessSnapshots;
import org.vfps.access.AccessStore;
import org.vfps.access.Audit;
import org.vfps.access.Permissions;
import org.vfps.admission.Admission;
import org.vfps.audit.AuditChain;
import org.vfps.auth.Authenticator;
import org.vfps.cluster.CacheInvalidationVerticle;
import org.vfps.cluster.EventBusAccessEvents;
import org.vfps.cluster.EventBusNamespaceEvents;
import org.vfps.cluster.Evictions;
import org.vfps.config.AuthorizationConfig;
import org.vfps.config.SealingConfig;
import org.vfps.config.VfpsConfig;
import org.vfps.job.CsvJobService;
import org.vfps.log.EdgeWarnings;
import org.vfps.namespace.GenerationSupport;
import org.vfps.namespace.NamespaceService;
import org.vfps.objectstore.ObjectStore;
import org.vfps.pseudonym.KeyedGenerator;
import org.vfps.pseudonym.PageTokens;
import org.vfps.pseudonym.PseudonymService;
import org.vfps.pseudonym.PseudonymTransfer;
import org.vfps.seal.SealingException;
import org.vfps.seal.SealingKeyFile;
import org.vfps.storage.Database;
import org.vfps.tracing.Tracing;
import org.vfps.voprf.client.VoprfGenerator;

/**
 * Builds the server's object graph, the {@link Services}, in steps: the pool and what stands beside
 * it, then the first reads of the database (shared keys, access grants, the invalidation log), then
 * the domain services on them. What needs closing goes into the teardown as it is built.
 */
final class ServiceWiring {

  /** What to do when the first reads find a table missing. */
  private static final String UNMIGRATED =
      "Is the database migrated? Run 'vfps migrate' or set ForceRunDatabaseMigrations=true.";

  private final VfpsConfig config;
  private final Vertx vertx;
  private final VertxRuntime runtime;
  private final MeterHooks meters;
  private final Tracing tracing;
  private final Caches caches;
  private final Optional<ObjectStore> objectStore;
  private final Teardown teardown;

  ServiceWiring(
      VfpsConfig config,
      VertxRuntime runtime,
      MeterHooks meters,
      Tracing tracing,
      Caches caches,
      Optional<ObjectStore> objectStore,
      Teardown teardown) {
    this.config = config;
    this.vertx = runtime.vertx();
    this.runtime = runtime;
    this.meters = meters;
    this.tracing = tracing;
    this.caches = caches;
    this.objectStore = objectStore;
    this.teardown = teardown;
  }

  /** The keys the replicas share through the database; the UI's only with a sign-in client. */
  private record SharedKeys(byte[] pageTokens, Optional<byte[]> uiSessions) {}

  /** What the domain services stand on: the pool and the objects beside it. */
  private record Foundation(
      Database database,
      Admission admission,
      EdgeWarnings warnings,
      AccessStore accessStore,
      AccessSnapshots snapshots,
      Evictions evictions,
      EventBusAccessEvents accessEvents) {}

  /**
   * The pool, the shared keys and the services on them; fails with a {@link StartupException} when
   * the database is not ready.
   */
  Future<Services> services(Storage storage) {
    SealingKeyFile keyFile;
    try {
      keyFile = sealingKeyFile(config.sealing());
    } catch (StartupException e) {
      return Future.failedFuture(e);
    }
    Foundation foundation = foundation(storage, keyFile);
    AuthorizationConfig authorization = config.authorization();
    // the shared keys first: their read names an unmigrated database as such
    return sharedKeys(foundation.database(), authorization)
        .compose(keys -> sealingReady(foundation.database(), keyFile).map(keys))
        .compose(keys -> accessSnapshots(foundation.snapshots(), authorization).map(keys))
        .compose(keys -> followInvalidations(foundation, authorization).map(keys))
        .map(keys -> domain(foundation, keys));
  }

  /** The methods that make new pseudonyms here, and VOPRF's length, from the settings. */
  static GenerationSupport generationSupport(VfpsConfig config) {
    return new GenerationSupport(
        config.generation().sha256Enabled(),
        config.voprf().enabled()
            ? OptionalInt.of(config.voprf().pseudonymLength())
            : OptionalInt.empty());
  }

  /**
   * The key file {@code Sealing__KeyFile} names, read, or null when it names none.
   *
   * @throws StartupException when the file cannot be used, naming the setting
   */
  static SealingKeyFile sealingKeyFile(SealingConfig sealing) {
    if (sealing.keyFile().isEmpty()) {
      return null;
    }
    try {
      SealingKeyFile keyFile = SealingKeyFile.open(sealing.keyFile().get());
      StartupReport.reportSealingKeys(sealing.keyFile().get(), keyFile.sealer().keys());
      return keyFile;
    } catch (SealingException e) {
      throw new StartupException(SealingConfig.KEY_FILE_SETTING + ": " + e.getMessage(), e);
    }
  }

  /**
   * Refuses to start on a database that holds a sealed namespace without a key file, or with
   * another key file than the one it was sealed with: this replica could neither open its values
   * nor find them by value.
   */
  private static Future<Void> sealingReady(Database database, SealingKeyFile keyFile) {
    // a first read of the sealing table in any case, so that the first calls find it
    return database
        .anySealedNamespace()
        .compose(
            anySealed -> {
              if (anySealed && keyFile == null) {
                return Future.failedFuture(
                    new StartupException(
                        "The database holds sealed namespaces, and "
                            + SealingConfig.KEY_FILE_SETTING
                            + " is not set: set it to their key file.",
                        null));
              }
              return database.sealedWithOtherKey();
            })
        .compose(
            others ->
                others.isEmpty()
                    ? Future.<Void>succeededFuture()
                    : Future.failedFuture(
                        new StartupException(
                            SealingConfig.KEY_FILE_SETTING
                                + ": "
                                + others.size()
                                + " namespaces are sealed with another key file than this one,"
                                + " e.g. '"
                                + others.iterator().next()
                                + "'. Give every replica the key file they were sealed with.",
                            null)));
  }

  private Foundation foundation(Storage storage, SealingKeyFile keyFile) {
    Admission admission = Instrumentation.admission(config.admission(), meters);
    Database database =
        teardown.add(
            "The database pool",
            Database.connect(vertx, storage.connection(), meters.upsertTimer(), admission, keyFile),
            Database::close);
    // this server's own, so that each server (several run in one test JVM) logs its first lines
    EdgeWarnings warnings =
        teardown.add(
            "The edge warnings",
            new EdgeWarnings(vertx, config.logging().clientErrors()),
            EdgeWarnings::close);
    caches.bind(meters);
    AuthorizationConfig authorization = config.authorization();
    StartupReport.warnAboutSignIn(authorization);
    AccessStore accessStore = database.access();
    AccessSnapshots snapshots =
        new AccessSnapshots(accessStore::snapshot, authorization.grantCacheDuration());
    Evictions evictions = new Evictions(vertx, caches.shared().orElse(null), snapshots);
    EventBusAccessEvents accessEvents =
        new EventBusAccessEvents(vertx, runtime.membership(), config.cluster().evictionTimeout());
    return new Foundation(
        database, admission, warnings, accessStore, snapshots, evictions, accessEvents);
  }

  /** The domain services, on a database whose first reads succeeded. */
  private Services domain(Foundation foundation, SharedKeys keys) {
    Database database = foundation.database();
    AuthorizationConfig authorization = config.authorization();
    AuditChain auditChain =
        teardown.add(
            "The audit chain", AuditChain.start(config.logging().auditChain()), AuditChain::close);
    StartupReport.reportAuditChain(auditChain);
    Audit audit =
        new Audit(tracing::currentTraceId, config.logging().auditBatchReads(), auditChain);
    Permissions permissions = Permissions.of(authorization, foundation.snapshots());
    Access access =
        authorization.enabled()
            ? new Access(permissions, audit, meters.deniedCalls())
            : Access.open(audit);
    GenerationSupport generation = generationSupport(config);
    KeyedGenerator voprf = voprfClient();
    EventBusNamespaceEvents events =
        new EventBusNamespaceEvents(
            vertx,
            runtime.membership(),
            foundation.evictions(),
            config.cluster().evictionTimeout());
    NamespaceService namespaces =
        new NamespaceService(
            caches.namespaces(database.namespaces()),
            events,
            Clock.systemUTC(),
            access,
            generation);
    Authenticator authenticator = authenticator(foundation, keys, audit, access);
    PseudonymService pseudonyms =
        pseudonymService(database, keys, namespaces, access, generation, events, voprf);
    CsvJobService csvJobs = csvJobs(database, access, namespaces, pseudonyms);
    return new Services(
        database,
        foundation.admission(),
        foundation.warnings(),
        permissions,
        authenticator,
        namespaces,
        pseudonyms,
        new AccessAdmin(
            foundation.accessStore(),
            foundation.snapshots(),
            foundation.accessEvents(),
            access,
            authorization.accessTokens(),
            Clock.systemUTC()),
        csvJobs);
  }

  /** The keyed generator of VOPRF pseudonyms, when configured. */
  private KeyedGenerator voprfClient() {
    return config.voprf().enabled()
        ? teardown.add(
            "The VOPRF client", VoprfGenerator.start(vertx, config.voprf()), VoprfGenerator::close)
        : KeyedGenerator.NONE;
  }

  private Authenticator authenticator(
      Foundation foundation, SharedKeys keys, Audit audit, Access access) {
    return teardown.add(
        "The authenticator",
        Authenticator.start(
            new Authenticator.Dependencies(
                vertx,
                config.authorization(),
                audit,
                access,
                keys.uiSessions().orElse(null),
                foundation.database().endedSessions(),
                foundation.snapshots(),
                foundation.accessStore())),
        Authenticator::close);
  }

  /** The pseudonym service: the hot path's domain entry, behind the pseudonym cache. */
  private PseudonymService pseudonymService(
      Database database,
      SharedKeys keys,
      NamespaceService namespaces,
      Access access,
      GenerationSupport generation,
      EventBusNamespaceEvents events,
      KeyedGenerator voprf) {
    return new PseudonymService(
        namespaces,
        caches.pseudonyms(database.pseudonyms()),
        new PageTokens(keys.pageTokens()),
        Instrumentation.generators(tracing),
        access,
        config.batch().maxSize(),
        generation,
        events,
        voprf);
  }

  private CsvJobService csvJobs(
      Database database, Access access, NamespaceService namespaces, PseudonymService pseudonyms) {
    return CsvJobs.start(
        config,
        vertx,
        objectStore,
        database.csvJobs(),
        access,
        namespaces,
        pseudonyms,
        new PseudonymTransfer(namespaces, database.pseudonyms(), access),
        meters.csvJobPhases(),
        teardown);
  }

  /**
   * Applies the changes other replicas make to this one's caches, as the event bus and the
   * database's invalidation log bring them; failing, the log cannot be read.
   */
  private Future<Void> followInvalidations(
      Foundation foundation, AuthorizationConfig authorization) {
    boolean accessCopiesKept =
        authorization.enabled() && authorization.grantCacheDuration().compareTo(Duration.ZERO) > 0;
    return vertx
        .deployVerticle(
            new CacheInvalidationVerticle(
                foundation.evictions(),
                runtime.membership(),
                foundation.database().invalidations(),
                accessCopiesKept))
        .<Void>mapEmpty()
        .recover(
            failure ->
                Future.failedFuture(
                    StartupException.database(
                        "The cache invalidation log (tables vfps_cache_generation and"
                            + " vfps_cache_invalidations) cannot be read",
                        failure,
                        UNMIGRATED)));
  }

  /**
   * Reads the grants and tokens a first time when authorization is on (they are not used
   * otherwise); failing, the database is not ready.
   */
  private Future<Void> accessSnapshots(
      AccessSnapshots snapshots, AuthorizationConfig authorization) {
    if (!authorization.enabled()) {
      return Future.succeededFuture();
    }
    return snapshots
        .start(vertx)
        .recover(
            failure ->
                Future.failedFuture(
                    StartupException.database(
                        "The access grants and tokens cannot be read", failure, UNMIGRATED)));
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
                    StartupException.database("The database is not ready", failure, UNMIGRATED)));
  }
}
