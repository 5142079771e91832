package org.vfps.cache;

import io.vertx.core.CompositeFuture;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;
import org.vfps.namespace.Namespace;
import org.vfps.pseudonym.Candidates;
import org.vfps.pseudonym.ImportStatus;
import org.vfps.pseudonym.ImportedPair;
import org.vfps.pseudonym.ListCursor;
import org.vfps.pseudonym.Pseudonym;
import org.vfps.pseudonym.PseudonymRepository;
import org.vfps.pseudonym.Upserted;
import org.vfps.pseudonym.Withdrawal;

/**
 * Remembers the pseudonym of every (namespace, original value) that Create stored or found, so that
 * a repeated Create needs no database round trip. Lookups, lists and counts go to the database.
 * Serves namespaces of one pseudonym per value only: the others reach the database through {@link
 * #uncached()}, as the .NET vfps caches them.
 */
public final class CachingPseudonymRepository implements PseudonymRepository {

  private final PseudonymRepository delegate;
  private final VfpsCache cache;

  public CachingPseudonymRepository(PseudonymRepository delegate, VfpsCache cache) {
    this.delegate = delegate;
    this.cache = cache;
  }

  /**
   * The cached pseudonym, not inserted by this call; else the delegate's, loaded once for the
   * concurrent callers of the pair: only the caller that ran the load may be told it inserted it.
   */
  @Override
  public Future<Upserted> insertIfAbsent(
      Namespace namespace, String originalValue, Candidates candidates) {
    // the cache runs the loader on this thread, within get, or not at all
    AtomicReference<Future<Upserted>> ownLoad = new AtomicReference<>();
    Future<Pseudonym> cached =
        cache.get(
            new VfpsCache.PseudonymKey(namespace.name(), originalValue),
            () -> {
              Future<Upserted> load = delegate.insertIfAbsent(namespace, originalValue, candidates);
              ownLoad.set(load);
              return load.map(Upserted::pseudonym);
            });
    Future<Upserted> own = ownLoad.get();
    return own != null ? own : cached.map(pseudonym -> new Upserted(pseudonym, false));
  }

  /**
   * The cached pseudonyms, and the others from one call of the delegate, whose loads enter the
   * cache as they start, as single upserts' loads do.
   */
  @Override
  public Future<List<Pseudonym>> upsertAll(
      Namespace namespace, List<String> originalValues, Function<String, Candidates> candidates) {
    Map<String, Promise<Pseudonym>> loads = new LinkedHashMap<>();
    List<Future<Pseudonym>> results = new ArrayList<>(originalValues.size());
    for (String originalValue : originalValues) {
      results.add(
          cache.get(
              new VfpsCache.PseudonymKey(namespace.name(), originalValue),
              () -> loads.computeIfAbsent(originalValue, value -> Promise.promise()).future()));
    }
    if (!loads.isEmpty()) {
      List<String> missing = List.copyOf(loads.keySet());
      delegate
          .upsertAll(namespace, missing, candidates)
          .onComplete(
              done -> {
                for (int i = 0; i < missing.size(); i++) {
                  Promise<Pseudonym> load = loads.get(missing.get(i));
                  if (done.succeeded()) {
                    load.complete(done.result().get(i));
                  } else {
                    load.fail(done.cause());
                  }
                }
              });
    }
    return Future.all(results).map(CompositeFuture::list);
  }

  @Override
  public PseudonymRepository uncached() {
    return delegate.uncached();
  }

  @Override
  public Future<Optional<Pseudonym>> findByValue(String namespace, String pseudonymValue) {
    return delegate.findByValue(namespace, pseudonymValue);
  }

  @Override
  public Future<Map<String, Pseudonym>> findAllByValue(
      String namespace, List<String> pseudonymValues) {
    return delegate.findAllByValue(namespace, pseudonymValues);
  }

  @Override
  public Future<List<PageRow>> list(String namespace, int limit, Optional<ListCursor> after) {
    return delegate.list(namespace, limit, after);
  }

  @Override
  public Future<Long> count(String namespace) {
    return delegate.count(namespace);
  }

  /**
   * The cached pseudonyms, and the others from the delegate: a cached pair is stored (only stored
   * pairs are cached, and withdrawals evict theirs), so a keyed namespace's repeated values need no
   * statement before they are answered.
   */
  @Override
  public Future<Map<String, Pseudonym>> findAllByOriginal(
      String namespace, List<String> originalValues) {
    Map<String, Pseudonym> cached = new HashMap<>();
    List<String> missing = new ArrayList<>(originalValues.size());
    for (String originalValue : originalValues) {
      Pseudonym pseudonym = cache.getIfLoaded(new VfpsCache.PseudonymKey(namespace, originalValue));
      if (pseudonym != null) {
        cached.put(originalValue, pseudonym);
      } else {
        missing.add(originalValue);
      }
    }
    if (missing.isEmpty()) {
      return Future.succeededFuture(cached);
    }
    if (cached.isEmpty()) {
      return delegate.findAllByOriginal(namespace, originalValues);
    }
    return delegate
        .findAllByOriginal(namespace, missing)
        .map(
            found -> {
              Map<String, Pseudonym> all = new HashMap<>(found);
              all.putAll(cached);
              return all;
            });
  }

  /** From the database: the cache holds each value's pseudonym of sequence number 0 only. */
  @Override
  public Future<List<Pseudonym>> findAllOfOriginal(String namespace, String originalValue) {
    return delegate.findAllOfOriginal(namespace, originalValue);
  }

  /**
   * Through the database: a value's full set is never cached, and its pseudonym of sequence number
   * 0, which the cache may hold, never changes.
   */
  @Override
  public Future<List<Pseudonym>> growTo(
      Namespace namespace, String originalValue, int count, Supplier<Candidates> candidates) {
    return delegate.growTo(namespace, originalValue, count, candidates);
  }

  /**
   * Through the database; the cache entries of the values are dropped by the {@link
   * org.vfps.pseudonym.WithdrawalEvents} the caller sends once this completes: on this replica
   * directly, on the others through the event bus and the database's invalidation log.
   */
  @Override
  public Future<Map<String, List<Pseudonym>>> withdraw(
      String namespace, List<String> originalValues, Withdrawal withdrawal) {
    return delegate.withdraw(namespace, originalValues, withdrawal);
  }

  /** Passed on: an import stores only pairs of values without a stored pseudonym to cache. */
  @Override
  public Future<List<ImportStatus>> importPairs(
      Namespace namespace, boolean multiple, List<ImportedPair> pairs) {
    return delegate.importPairs(namespace, multiple, pairs);
  }

  @Override
  public Future<Set<String>> existingPseudonymValues(String namespace, List<String> values) {
    return delegate.existingPseudonymValues(namespace, values);
  }
}
