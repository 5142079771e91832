package org.vfps.server;

import io.vertx.core.Future;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.config.NamespaceSeed;
import org.vfps.error.ServiceException;
import org.vfps.namespace.GenerationMethod;
import org.vfps.namespace.NamespaceDraft;
import org.vfps.namespace.NamespaceService;

/**
 * Creates the configured initial namespaces ({@code Init__v1__Namespaces__*}) that do not exist
 * yet; one that exists is left as it is.
 */
final class NamespaceSeeding {

  // the server's logger: operators find the start's lines under that name
  private static final Logger LOG = LoggerFactory.getLogger(VfpsServer.class);

  private NamespaceSeeding() {}

  /**
   * Creates the seeds' namespaces, one after the other; fails with a {@link StartupException}
   * naming the seed's key when the service refuses one.
   */
  static Future<Void> seed(NamespaceService namespaces, List<NamespaceSeed> seeds) {
    Future<Void> seeded = Future.succeededFuture();
    for (NamespaceSeed seed : seeds) {
      seeded = seeded.compose(previous -> seedNamespace(namespaces, seed));
    }
    return seeded;
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
  static NamespaceDraft draft(NamespaceSeed seed) {
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
}
