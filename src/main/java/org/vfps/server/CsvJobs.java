package org.vfps.server;

import io.vertx.core.Vertx;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.access.Access;
import org.vfps.config.VfpsConfig;
import org.vfps.job.CsvJobRepository;
import org.vfps.job.CsvJobService;
import org.vfps.job.CsvJobWorkers;
import org.vfps.job.JobPhases;
import org.vfps.namespace.NamespaceService;
import org.vfps.objectstore.EmbeddedObjectStore;
import org.vfps.objectstore.ObjectStore;
import org.vfps.objectstore.ObjectStoreException;
import org.vfps.objectstore.S3ObjectStore;
import org.vfps.pseudonym.PseudonymService;
import org.vfps.pseudonym.PseudonymTransfer;

/**
 * The CSV jobs of a replica: their object store (the configured bucket, or with the embedded
 * database and no bucket the embedded development store), the service the edges call, and the
 * workers when this replica runs jobs.
 */
final class CsvJobs {

  private static final Logger LOG = LoggerFactory.getLogger(CsvJobs.class);

  private CsvJobs() {}

  /**
   * The object store: the bucket of {@code S3__*} when {@code S3__IsEnabled}; the embedded
   * development store when the database is the embedded one too; else none, and CSV jobs are off.
   *
   * @throws StartupException when the configured bucket cannot be used
   */
  static Optional<ObjectStore> objectStore(VfpsConfig config, Teardown teardown) {
    try {
      if (config.s3().enabled()) {
        return Optional.of(
            teardown.add(
                "The object store", S3ObjectStore.connect(config.s3()), ObjectStore::close));
      }
      if (config.database().connection().isPresent()) {
        return Optional.empty();
      }
      List<String> origins = new ArrayList<>(config.s3().allowedOrigins());
      int http = config.server().httpPort();
      origins.add("http://localhost:" + http);
      origins.add("http://127.0.0.1:" + http);
      EmbeddedObjectStore embedded =
          teardown.add(
              "The embedded object store",
              embeddedStore(config, origins),
              EmbeddedObjectStore::close);
      LOG.warn(
          "CSV jobs keep their files in an embedded S3 store in {} on 127.0.0.1:{}: a development"
              + " store, for trying vfps out; point S3__ServiceUrl at a real one in production",
          embedded.dataDirectory(),
          embedded.port());
      return Optional.of(
          teardown.add(
              "The object store client",
              S3ObjectStore.connect(embedded.config()),
              ObjectStore::close));
    } catch (ObjectStoreException e) {
      throw new StartupException(e.getMessage(), e);
    }
  }

  /**
   * Starts the embedded S3 store; a port another process holds stops the start naming {@code
   * S3__Embedded__Port}, as the listeners' ports do.
   */
  private static EmbeddedObjectStore embeddedStore(VfpsConfig config, List<String> origins) {
    int port = config.s3().embeddedPort();
    try {
      return EmbeddedObjectStore.start(
          config.s3().embeddedDataDirectory(), port, origins, config.s3());
    } catch (ObjectStoreException e) {
      if (Listeners.isBindFailure(e)) {
        throw Listeners.portInUse("embedded S3 store", "S3__Embedded__Port", port);
      }
      throw e;
    }
  }

  /** The service, and the workers when this replica runs jobs and jobs are on. */
  static CsvJobService start(
      VfpsConfig config,
      Vertx vertx,
      Optional<ObjectStore> store,
      CsvJobRepository repository,
      Access access,
      NamespaceService namespaces,
      PseudonymService pseudonyms,
      PseudonymTransfer transfer,
      JobPhases phases,
      Teardown teardown) {
    AtomicReference<CsvJobWorkers> workers = new AtomicReference<>();
    CsvJobService service =
        new CsvJobService(
            repository,
            store,
            access,
            namespaces,
            config.csvProcessing(),
            Clock.systemUTC(),
            vertx,
            () -> {
              CsvJobWorkers started = workers.get();
              if (started != null) {
                started.wake();
              }
            });
    if (store.isPresent() && config.csvProcessing().processJobs()) {
      workers.set(
          teardown.add(
              "The CSV job workers",
              CsvJobWorkers.start(
                  vertx,
                  repository,
                  store.get(),
                  pseudonyms,
                  transfer,
                  config.csvProcessing(),
                  workerName(),
                  phases,
                  access),
              CsvJobWorkers::close));
    }
    return service;
  }

  /** How a replica's workers name themselves in the database: its host and a random part. */
  private static String workerName() {
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      host = "vfps";
    }
    return host + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  /** For the start-up line. */
  static String describe(VfpsConfig config, Optional<ObjectStore> store) {
    if (store.isEmpty()) {
      return "off";
    }
    return store.get().description()
        + (config.csvProcessing().processJobs()
            ? ", " + config.csvProcessing().workerCount() + " workers"
            : ", no workers here");
  }
}
