package org.vfps.cluster;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.Set;
import org.vfps.access.AccessSnapshots;
import org.vfps.cache.Invalidation;
import org.vfps.cache.VfpsCache;

/**
 * What each kind of change takes out of this replica's caches (namespaces, pseudonyms and the copy
 * of the grants and tokens): the one place that applies a change made here, one the event bus
 * brings from another replica, and one read from the database's invalidation log. Scans of the
 * whole cache run on a worker. Thread-safe.
 */
public final class Evictions {

  private final Vertx vertx;
  private final VfpsCache cache;
  private final AccessSnapshots snapshots;

  /**
   * @param cache the cache of namespaces and pseudonyms; null when both caches are off
   */
  public Evictions(Vertx vertx, VfpsCache cache, AccessSnapshots snapshots) {
    this.vertx = vertx;
    this.cache = cache;
    this.snapshots = snapshots;
  }

  /** Whether a change can leave anything stale here: both caches off keep only the access copy. */
  boolean keepsCopies(boolean accessCopiesKept) {
    return cache != null || accessCopiesKept;
  }

  /** A namespace was created: a lookup of the name that found nothing may not be kept. */
  void namespaceCreated(String namespace) {
    if (cache != null) {
      cache.evictNamespace(namespace);
    }
  }

  /** A namespace was deleted, and with it its pseudonyms and its grants. */
  public void namespaceDeleted(String namespace) {
    if (cache != null) {
      cache.evictNamespace(namespace);
    }
    snapshots.invalidate();
  }

  /**
   * Pseudonyms of the namespace were withdrawn: their entries go, with every load of the
   * namespace's pseudonyms in flight. Completes once they are gone.
   */
  public Future<Void> pseudonymsWithdrawn(String namespace, Set<String> pseudonymValues) {
    if (cache == null || pseudonymValues.isEmpty()) {
      return Future.succeededFuture();
    }
    return vertx.executeBlocking(
        () -> {
          cache.evictPseudonyms(namespace, pseudonymValues);
          return null;
        },
        false);
  }

  /** Grants, service accounts or tokens changed: the next check reads them again. */
  public void accessChanged() {
    snapshots.invalidate();
  }

  /** Applies one entry of the invalidation log; completes once it is applied. */
  Future<Void> apply(Invalidation invalidation) {
    return switch (invalidation.kind()) {
      case NAMESPACE -> {
        namespaceDeleted(invalidation.namespace());
        yield Future.succeededFuture();
      }
      case PSEUDONYMS ->
          pseudonymsWithdrawn(invalidation.namespace(), invalidation.pseudonymValues());
      case ACCESS -> {
        accessChanged();
        yield Future.succeededFuture();
      }
    };
  }

  /** Drops everything: this replica may have missed changes. */
  void clear() {
    if (cache != null) {
      cache.clear();
    }
    snapshots.invalidate();
  }

  /**
   * Drops everything and keeps no cache entries until {@link #trust()}; the copy of the grants and
   * tokens is dropped again by each call, so call it as long as changes cannot be learnt.
   */
  void distrust() {
    if (cache != null) {
      cache.distrust();
    }
    snapshots.invalidate();
  }

  /** Keeps cache entries again. */
  void trust() {
    if (cache != null) {
      cache.trust();
    }
  }
}
