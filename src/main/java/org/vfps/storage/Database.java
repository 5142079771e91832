package org.vfps.storage;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.ClientSSLOptions;
import io.vertx.core.tracing.TracingPolicy;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.SslMode;
import io.vertx.sqlclient.ClientBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Tuple;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.vfps.access.EndedSessions;
import org.vfps.admission.Admission;
import org.vfps.config.ConnectionSettings;
import org.vfps.namespace.NamespaceRepository;
import org.vfps.pseudonym.PseudonymGenerators;
import org.vfps.pseudonym.PseudonymRepository;
import org.vfps.seal.SealingKeyFile;

/**
 * The one connection pool of the process, shared by every verticle, and the repositories on it. The
 * pool reconnects by itself: while PostgreSQL is away, statements fail with {@code UNAVAILABLE},
 * and succeed again once it is back. Connections are opened through {@link PgConnector}, so that an
 * attempt that stalls gives its pool slot back after the connect timeout.
 */
public final class Database implements AutoCloseable {

  /** How long {@link #healthy()} waits for PostgreSQL: short of the probes' 2 s budget. */
  public static final Duration HEALTH_CHECK_TIMEOUT = Duration.ofMillis(1500);

  /** Namespaces read per page by {@link #distinctPseudonyms}. */
  private static final int NAMESPACE_PAGE = 500;

  private static final String PAGE_TOKEN_KEY = "page_token_key";
  private static final String UI_SESSION_KEY = "ui_session_key";

  private final Vertx vertx;
  private final Pool pool;
  private final StoredOriginals originals;
  private final long sealingReloads;
  private final long keyFileReloads;

  /** How often a replica looks whether its key file changed (a rotation), in ms. */
  public static final long KEY_FILE_CHECK_MILLIS = 5000;

  private final PgPseudonymRepository pseudonyms;

  private Database(
      Vertx vertx, Pool pool, UpsertTimer timer, Admission admission, SealingKeyFile keyFile) {
    this.vertx = vertx;
    this.pool = pool;
    SealingStates states = new SealingStates(pool);
    this.originals = new StoredOriginals(keyFile, states);
    this.sealingReloads = states.startReloading(vertx);
    this.keyFileReloads =
        keyFile == null
            ? -1
            : vertx.setPeriodic(
                KEY_FILE_CHECK_MILLIS,
                id -> vertx.executeBlocking(keyFile::reloadIfChanged, false));
    this.pseudonyms = new PgPseudonymRepository(vertx, pool, timer, admission, originals);
  }

  /** Builds the pool; connections are opened on first use. The write queues are unbounded. */
  public static Database connect(Vertx vertx, ConnectionSettings settings) {
    return connect(vertx, settings, UpsertTimer.NONE);
  }

  /** Builds the pool, reporting upsert statement durations to {@code timer}; unbounded queues. */
  public static Database connect(Vertx vertx, ConnectionSettings settings, UpsertTimer timer) {
    return connect(vertx, settings, timer, Admission.unbounded());
  }

  /**
   * Builds the pool, reporting upsert statement durations to {@code timer}, with the values that
   * wait for an upsert statement bounded by {@code admission}. Statements are traced when Vert.x
   * has a tracer and the statement runs within a traced request; statements outside requests
   * (start-up, periodic gauges) are not.
   */
  public static Database connect(
      Vertx vertx, ConnectionSettings settings, UpsertTimer timer, Admission admission) {
    return connect(vertx, settings, timer, admission, null);
  }

  /**
   * {@link #connect(Vertx, ConnectionSettings, UpsertTimer, Admission)}, sealing the original
   * values of the namespaces it creates with the keys of {@code keyFile}, and opening sealed ones
   * ({@code Sealing__KeyFile}, read again when it changes); without one (null), a sealed namespace
   * is refused.
   */
  public static Database connect(
      Vertx vertx,
      ConnectionSettings settings,
      UpsertTimer timer,
      Admission admission,
      SealingKeyFile keyFile) {
    PgConnectOptions connect =
        new PgConnectOptions()
            .setHost(settings.host())
            .setPort(settings.port())
            .setDatabase(settings.database())
            .setUser(settings.user())
            .setSslMode(SslMode.valueOf(settings.sslMode().name()))
            .setCachePreparedStatements(true)
            .setPipeliningLimit(256)
            .setTracingPolicy(TracingPolicy.PROPAGATE);
    if (settings.password() != null) {
      connect.setPassword(settings.password());
    }
    if (settings.applicationName() != null) {
      connect.addProperty("application_name", settings.applicationName());
    }
    if (settings.sslMode() == ConnectionSettings.SslMode.PREFER
        || settings.sslMode() == ConnectionSettings.SslMode.REQUIRE) {
      // as in Npgsql and libpq, these modes encrypt without verifying the server's certificate
      connect.setSslOptions(new ClientSSLOptions().setTrustAll(true));
    }
    PoolOptions pool =
        new PoolOptions()
            .setMaxSize(settings.maxPoolSize())
            .setName("vfps")
            .setConnectionTimeout((int) settings.connectTimeout().toMillis())
            .setConnectionTimeoutUnit(TimeUnit.MILLISECONDS);
    return new Database(
        vertx,
        ClientBuilder.pool(new PgConnector(settings.connectTimeout()))
            .with(pool)
            .connectingTo(connect)
            .using(vertx)
            .build(),
        timer,
        admission,
        keyFile);
  }

  public NamespaceRepository namespaces() {
    return new PgNamespaceRepository(
        pool, originals.keyFile() == null ? null : originals.keyFile().sealer().keyCheck());
  }

  /** The CSV jobs and their runs. */
  public PgCsvJobRepository csvJobs() {
    return new PgCsvJobRepository(pool);
  }

  /** The log of changes that every replica applies to its caches. */
  public PgInvalidationLog invalidations() {
    return new PgInvalidationLog(pool);
  }

  /** The grants, service accounts and access tokens. */
  public PgAccessStore access() {
    return new PgAccessStore(pool);
  }

  /** The admin UI's signed-out sessions. */
  public EndedSessions endedSessions() {
    return new PgEndedSessions(pool);
  }

  /** The pool, for the commands of this package that run on it ({@link SealingCommands}). */
  Pool pool() {
    return pool;
  }

  public PseudonymRepository pseudonyms() {
    return pseudonyms;
  }

  /**
   * Whether any namespace is sealed, or being sealed or unsealed: a replica without a key file must
   * not serve then.
   */
  public Future<Boolean> anySealedNamespace() {
    return originals.states().anySealed();
  }

  /**
   * The namespaces sealed, or being sealed or unsealed, with another index key than this replica's
   * key file holds, as the database holds them now; empty without a key file.
   */
  public Future<java.util.Set<String>> sealedWithOtherKey() {
    return originals
        .states()
        .reload()
        .map(
            view ->
                view.namespaces().entrySet().stream()
                    .filter(entry -> keyFile() != null && originals.cannotServe(entry.getValue()))
                    .map(Map.Entry::getKey)
                    .collect(java.util.stream.Collectors.toUnmodifiableSet()));
  }

  private SealingKeyFile keyFile() {
    return originals.keyFile();
  }

  /**
   * The number of pseudonyms per namespace, for the {@code vfps_pseudonyms} gauge; namespaces
   * without pseudonyms are absent.
   */
  public Future<Map<String, Long>> pseudonymCounts() {
    return pseudonyms.countByNamespace();
  }

  /**
   * The distinct pseudonyms each namespace's settings make ({@link
   * PseudonymGenerators#distinctPseudonyms}), for the {@code vfps_namespace_capacity_used_ratio}
   * gauge; the namespaces are read a page of {@value #NAMESPACE_PAGE} at a time.
   */
  public Future<Map<String, Double>> distinctPseudonyms() {
    return distinctPseudonymsAfter("", new HashMap<>());
  }

  private Future<Map<String, Double>> distinctPseudonymsAfter(
      String after, Map<String, Double> found) {
    return namespaces()
        .findPage(after, NAMESPACE_PAGE)
        .compose(
            page -> {
              page.forEach(
                  namespace ->
                      found.put(
                          namespace.name(), PseudonymGenerators.distinctPseudonyms(namespace)));
              return page.size() < NAMESPACE_PAGE
                  ? Future.succeededFuture(Collections.unmodifiableMap(found))
                  : distinctPseudonymsAfter(page.getLast().name(), found);
            });
  }

  /**
   * Whether PostgreSQL answers a trivial statement within {@link #HEALTH_CHECK_TIMEOUT}; never
   * fails. The readiness probe and the gRPC health service both ask this, so that both answer
   * within their 2 s budget however PostgreSQL fails.
   */
  public Future<Boolean> healthy() {
    return pool.query(ServerQueries.PING)
        .execute()
        .timeout(HEALTH_CHECK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
        .map(true)
        .otherwise(false);
  }

  /**
   * The 32-byte key that seals List page tokens, created by the first replica that asks and then
   * shared by all through the database.
   */
  public Future<byte[]> pageTokenKey() {
    return sharedKey(PAGE_TOKEN_KEY);
  }

  /**
   * The 32-byte key that seals the admin UI's session cookies, created and shared as {@link
   * #pageTokenKey()} is, so that every replica serves every session.
   */
  public Future<byte[]> uiSessionKey() {
    return sharedKey(UI_SESSION_KEY);
  }

  private Future<byte[]> sharedKey(String name) {
    byte[] candidate = new byte[32];
    new SecureRandom().nextBytes(candidate);
    return pool.preparedQuery(SecretQueries.INSERT_IF_ABSENT)
        .execute(Tuple.of(name, Buffer.buffer(candidate)))
        .compose(inserted -> pool.preparedQuery(SecretQueries.FIND).execute(Tuple.of(name)))
        .map(rows -> rows.iterator().next().getBuffer("value").getBytes());
  }

  @Override
  public void close() {
    vertx.cancelTimer(sealingReloads);
    if (keyFileReloads >= 0) {
      vertx.cancelTimer(keyFileReloads);
    }
    pool.close();
  }
}
