package org.vfps.server;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.audit.AuditChain;
import org.vfps.config.AuthorizationConfig;
import org.vfps.config.CachingConfig;
import org.vfps.config.VfpsConfig;
import org.vfps.objectstore.ObjectStore;
import org.vfps.seal.SealingKeys;
import org.vfps.tracing.Tracing;

/**
 * What a start tells the operator: the warnings about settings that are risky or of no use, and
 * once started, the one line that says what runs where.
 */
final class StartupReport {

  // the server's logger: operators find the start's lines under that name
  private static final Logger LOG = LoggerFactory.getLogger(VfpsServer.class);

  private StartupReport() {}

  /**
   * Logs the line that says the service started and what runs where: ports, database, cluster,
   * caches, tracing, reflection, authorization, CSV jobs, sealed originals.
   *
   * @param started when the start began ({@link System#nanoTime()})
   */
  static void started(
      VfpsConfig config,
      long started,
      ApiListeners.Listening listening,
      Storage storage,
      VertxRuntime runtime,
      Optional<ObjectStore> objectStore) {
    LOG.info(
        "vfps {} started in {} ms: gRPC on port {}, HTTP on port {}, metrics {}, database {},"
            + " cluster {}, caches {}, tracing {}, reflection {}, authorization {}, CSV jobs {},"
            + " sealing {}",
        BuildInfo.current().describe(),
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
        caches(config.caching()),
        Tracing.describe(config.tracing()),
        config.server().grpcReflectionEnabled() ? "on" : "off",
        authorization(config.authorization()),
        CsvJobs.describe(config, objectStore),
        config.sealing().keyFile().isPresent() ? "on" : "off");
  }

  /**
   * Logs the versions of the sealing key file read at start, as a replica logs them when it reads
   * the file again: what an operator waits for before re-encrypting after a rotation.
   */
  static void reportSealingKeys(Path keyFile, SealingKeys keys) {
    LOG.info(
        "Sealing__KeyFile {}: data key versions {}, sealing with {}; index key {} for new"
            + " namespaces",
        keyFile,
        keys.versions(),
        keys.currentVersion(),
        keys.currentIndexVersion());
  }

  /**
   * Warns once when authorization is off, and when the admin UI's sign-in client is missing (the UI
   * then says sign-in is not configured; the API is unaffected) or set without use.
   */
  static void warnAboutSignIn(AuthorizationConfig authorization) {
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

  /**
   * Says which chain this replica's audit lines carry, and whether signed checkpoints cover it: an
   * operator needs the chain's id and the key's to verify a log.
   */
  static void reportAuditChain(AuditChain chain) {
    if (chain.signingKeyId() == null) {
      LOG.info(
          "Audit lines are chained (chain {}) without checkpoints (Audit__SigningKeyFile is not"
              + " set): a cut tail of the audit log would not show",
          chain.id());
    } else {
      LOG.info(
          "Audit lines are chained (chain {}), checkpoints signed by key {}",
          chain.id(),
          chain.signingKeyId());
    }
  }

  private static String caches(CachingConfig caching) {
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

  private static String authorization(AuthorizationConfig authorization) {
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
}
