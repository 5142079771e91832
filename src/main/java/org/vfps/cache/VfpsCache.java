package org.vfps.cache;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.vfps.pseudonym.Pseudonym;

/**
 * The one cache of a replica: at most {@code maximumSize} entries of either kind (one budget, as
 * the .NET service shares one memory cache), each expiring {@code expireAfterWrite} after it was
 * stored. Loads are cached as they start, so an eviction that happens while a load is in flight
 * wins: the load's result is handed to its callers but not kept. Failed loads and loads that yield
 * {@code null} are not kept. While {@linkplain #distrust() distrusted} it keeps and serves nothing.
 * Thread-safe.
 */
public final class VfpsCache {

  private final AsyncCache<Object, Object> cache;
  private volatile boolean trusted = true;

  public VfpsCache(long maximumSize, Duration expireAfterWrite) {
    this(maximumSize, expireAfterWrite, Ticker.systemTicker());
  }

  VfpsCache(long maximumSize, Duration expireAfterWrite, Ticker ticker) {
    this.cache =
        Caffeine.newBuilder()
            .maximumSize(maximumSize)
            .expireAfterWrite(expireAfterWrite)
            .ticker(ticker)
            .executor(Runnable::run)
            .recordStats()
            .buildAsync();
  }

  /**
   * The cached value, or the loader's, which is then cached unless it is {@code null} or fails.
   * Completes on the caller's Vert.x context.
   */
  @SuppressWarnings("unchecked")
  <V> Future<V> get(Object key, Supplier<Future<V>> loader) {
    if (!trusted) {
      return loader.get();
    }
    Context context = Vertx.currentContext();
    CompletableFuture<Object> value =
        cache.get(
            key,
            (ignored, executor) ->
                loader
                    .get()
                    .map(v -> (Object) v)
                    .otherwise(FailedLoad::new)
                    .toCompletionStage()
                    .toCompletableFuture());
    if (value.isDone() && !(value.join() instanceof FailedLoad)) {
      return Future.succeededFuture((V) value.join());
    }
    Future<Object> loaded =
        context == null
            ? Future.fromCompletionStage(value)
            : Future.fromCompletionStage(value, context);
    return loaded.compose(
        result -> {
          if (result instanceof FailedLoad failed) {
            cache.asMap().remove(key, value);
            return Future.failedFuture(failed.cause());
          }
          return Future.succeededFuture((V) result);
        });
  }

  /** The cached value of the key if it is loaded, else null; starts no load. */
  @SuppressWarnings("unchecked")
  <V> V getIfLoaded(Object key) {
    if (!trusted) {
      return null;
    }
    CompletableFuture<Object> value = cache.getIfPresent(key);
    if (value == null || !value.isDone() || value.isCompletedExceptionally()) {
      return null;
    }
    Object result = value.join();
    return result instanceof FailedLoad ? null : (V) result;
  }

  /**
   * A load that failed, kept as a value for the moment until its callers remove it: Caffeine logs
   * every exceptionally completed load at WARNING with a stack trace, and a failed load (the
   * database unavailable) is the caller's to report, once, under its own error policy.
   */
  private record FailedLoad(Throwable cause) {}

  /** Removes the namespace and every pseudonym of it, loads in flight included. */
  public void evictNamespace(String namespace) {
    cache
        .asMap()
        .keySet()
        .removeIf(
            key ->
                key instanceof PseudonymKey pseudonym
                    ? pseudonym.namespace().equals(namespace)
                    : key.equals(new NamespaceKey(namespace)));
  }

  /**
   * Removes the namespace's pseudonyms whose values are among {@code pseudonymValues} (they were
   * withdrawn), and every load of the namespace's pseudonyms still in flight, whose result may be
   * one of them read before the withdrawal was committed. Scans the whole cache: for withdrawals,
   * which are rare.
   */
  public void evictPseudonyms(String namespace, Set<String> pseudonymValues) {
    cache
        .asMap()
        .entrySet()
        .removeIf(
            entry ->
                entry.getKey() instanceof PseudonymKey key
                    && key.namespace().equals(namespace)
                    && (!entry.getValue().isDone()
                        || entry.getValue().join() instanceof Pseudonym pseudonym
                            && pseudonymValues.contains(pseudonym.pseudonymValue())));
  }

  /** Removes everything, e.g. after this replica may have missed evictions. */
  public void clear() {
    cache.synchronous().invalidateAll();
  }

  /**
   * Removes everything and keeps nothing until {@link #trust()}: every lookup goes to its loader,
   * for as long as this replica cannot tell which evictions it may have missed.
   */
  public void distrust() {
    trusted = false;
    clear();
  }

  /** Keeps and serves entries again, after {@link #distrust()}. */
  public void trust() {
    trusted = true;
  }

  /** Runs pending maintenance (expiry, size eviction) now rather than on later accesses. */
  void cleanUp() {
    cache.synchronous().cleanUp();
  }

  /** Entries, hits and misses since start, for the cache metrics. */
  public Counts counts() {
    CacheStats stats = cache.synchronous().stats();
    return new Counts(cache.synchronous().estimatedSize(), stats.hitCount(), stats.missCount());
  }

  /** What the cache metrics report. */
  public record Counts(long entries, long hits, long misses) {}

  /** The key of a namespace. */
  record NamespaceKey(String name) {}

  /** The key of the pseudonym of an original value. */
  record PseudonymKey(String namespace, String originalValue) {}
}
