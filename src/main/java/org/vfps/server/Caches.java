package org.vfps.server;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.vfps.cache.CachingNamespaceRepository;
import org.vfps.cache.CachingPseudonymRepository;
import org.vfps.cache.VfpsCache;
import org.vfps.cluster.CacheInvalidationVerticle;
import org.vfps.cluster.ClusterMembership;
import org.vfps.config.CachingConfig;
import org.vfps.namespace.NamespaceRepository;
import org.vfps.pseudonym.PseudonymRepository;

/**
 * The cache of namespaces and pseudonyms in front of the repositories, or none at all when both
 * caches are off: then the repositories are used as they are.
 */
sealed interface Caches {

  /** The caches the configuration asks for. */
  static Caches of(CachingConfig config) {
    return config.namespacesEnabled() || config.pseudonymsEnabled()
        ? new On(config, new VfpsCache(config.sizeLimit(), config.absoluteExpiration()))
        : new Off();
  }

  /** Whether there is a cache whose entries other replicas must evict with a namespace's. */
  boolean enabled();

  NamespaceRepository namespaces(NamespaceRepository repository);

  PseudonymRepository pseudonyms(PseudonymRepository repository);

  /** Exports the cache's statistics, when metrics are on. */
  void bind(Metrics metrics);

  /** Evicts what other replicas ask evicted (and all when membership changes). */
  Future<?> invalidate(Vertx vertx, ClusterMembership membership);

  /** Both caches off. */
  record Off() implements Caches {

    @Override
    public boolean enabled() {
      return false;
    }

    @Override
    public NamespaceRepository namespaces(NamespaceRepository repository) {
      return repository;
    }

    @Override
    public PseudonymRepository pseudonyms(PseudonymRepository repository) {
      return repository;
    }

    @Override
    public void bind(Metrics metrics) {}

    @Override
    public Future<?> invalidate(Vertx vertx, ClusterMembership membership) {
      return Future.succeededFuture();
    }
  }

  /** One cache, in front of the repositories whose caching {@code config} turns on. */
  record On(CachingConfig config, VfpsCache cache) implements Caches {

    @Override
    public boolean enabled() {
      return true;
    }

    @Override
    public NamespaceRepository namespaces(NamespaceRepository repository) {
      return config.namespacesEnabled()
          ? new CachingNamespaceRepository(repository, cache)
          : repository;
    }

    @Override
    public PseudonymRepository pseudonyms(PseudonymRepository repository) {
      return config.pseudonymsEnabled()
          ? new CachingPseudonymRepository(repository, cache)
          : repository;
    }

    @Override
    public void bind(Metrics metrics) {
      metrics.bindCache(cache);
    }

    @Override
    public Future<?> invalidate(Vertx vertx, ClusterMembership membership) {
      return vertx.deployVerticle(new CacheInvalidationVerticle(cache, membership));
    }
  }
}
