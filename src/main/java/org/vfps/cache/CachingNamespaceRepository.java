package org.vfps.cache;

import io.vertx.core.Future;
import java.util.List;
import java.util.Optional;
import org.vfps.namespace.Namespace;
import org.vfps.namespace.NamespaceRepository;

/**
 * Serves namespace lookups from the cache. Only found namespaces are cached, so a namespace created
 * right after a failed lookup is seen at once; listing is never cached.
 */
public final class CachingNamespaceRepository implements NamespaceRepository {

  private final NamespaceRepository delegate;
  private final VfpsCache cache;

  public CachingNamespaceRepository(NamespaceRepository delegate, VfpsCache cache) {
    this.delegate = delegate;
    this.cache = cache;
  }

  @Override
  public Future<Namespace> insert(Namespace namespace) {
    return delegate.insert(namespace);
  }

  @Override
  public Future<Boolean> insertIfAbsent(Namespace namespace) {
    return delegate.insertIfAbsent(namespace);
  }

  @Override
  public Future<Optional<Namespace>> find(String name) {
    return cache
        .<Namespace>get(
            new VfpsCache.NamespaceKey(name),
            () -> delegate.find(name).map(found -> found.orElse(null)))
        .map(Optional::ofNullable);
  }

  @Override
  public Future<List<Namespace>> findPage(String after, int limit) {
    return delegate.findPage(after, limit);
  }

  /** Children are read from the database: a child created on another replica is seen at once. */
  @Override
  public Future<List<Namespace>> findChildren(String parentName) {
    return delegate.findChildren(parentName);
  }

  @Override
  public Future<Deletion> delete(String name) {
    return delegate.delete(name).onSuccess(deletion -> cache.evictNamespace(name));
  }
}
