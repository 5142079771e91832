package org.vfps.cache;

import io.vertx.core.Future;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.vfps.pseudonym.ListCursor;
import org.vfps.pseudonym.Pseudonym;
import org.vfps.pseudonym.PseudonymRepository;

/**
 * Remembers the pseudonym of every (namespace, original value) that Create stored or found, so that
 * a repeated Create needs no database round trip. Lookups, lists and counts go to the database.
 */
public final class CachingPseudonymRepository implements PseudonymRepository {

  private final PseudonymRepository delegate;
  private final VfpsCache cache;

  public CachingPseudonymRepository(PseudonymRepository delegate, VfpsCache cache) {
    this.delegate = delegate;
    this.cache = cache;
  }

  @Override
  public Future<Pseudonym> upsert(
      String namespace, String originalValue, Supplier<String> candidates) {
    return cache.get(
        new VfpsCache.PseudonymKey(namespace, originalValue),
        () -> delegate.upsert(namespace, originalValue, candidates));
  }

  @Override
  public Future<Optional<Pseudonym>> findByValue(String namespace, String pseudonymValue) {
    return delegate.findByValue(namespace, pseudonymValue);
  }

  @Override
  public Future<List<PageRow>> list(String namespace, int limit, Optional<ListCursor> after) {
    return delegate.list(namespace, limit, after);
  }

  @Override
  public Future<Long> count(String namespace) {
    return delegate.count(namespace);
  }

  @Override
  public Future<Map<String, Pseudonym>> findAllByOriginal(
      String namespace, List<String> originalValues) {
    return delegate.findAllByOriginal(namespace, originalValues);
  }
}
