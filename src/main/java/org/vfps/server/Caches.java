package org.vfps.server;

import java.util.Optional;
import org.vfps.cache.CachingNamespaceRepository;
import org.vfps.cache.CachingPseudonymRepository;
import org.vfps.cache.VfpsCache;
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

  /** The cache, unless both caches are off. */
  Optional<VfpsCache> shared();

  NamespaceRepository namespaces(NamespaceRepository repository);

  PseudonymRepository pseudonyms(PseudonymRepository repository);

  /** Exports the cache's statistics, when metrics are on. */
  void bind(MeterHooks meters);

  /** Both caches off. */
  record Off() implements Caches {

    @Override
    public Optional<VfpsCache> shared() {
      return Optional.empty();
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
    public void bind(MeterHooks meters) {}
  }

  /** One cache, in front of the repositories whose caching {@code config} turns on. */
  record On(CachingConfig config, VfpsCache cache) implements Caches {

    @Override
    public Optional<VfpsCache> shared() {
      return Optional.of(cache);
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
    public void bind(MeterHooks meters) {
      meters.bindCache(cache);
    }
  }
}
