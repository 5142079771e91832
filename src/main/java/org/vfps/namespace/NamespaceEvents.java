package org.vfps.namespace;

import io.vertx.core.Future;

/**
 * Tells the rest of the deployment (other verticles, other replicas) that a namespace came or went,
 * so that caches and metrics follow.
 */
public interface NamespaceEvents {

  /** Nobody listens: a single replica without caches. */
  NamespaceEvents NONE =
      new NamespaceEvents() {
        @Override
        public void created(String name) {}

        @Override
        public Future<Void> deleted(String name) {
          return Future.succeededFuture();
        }
      };

  /** The namespace was created and committed; fire and forget. */
  void created(String name);

  /**
   * The namespace was deleted and the deletion committed. The future completes once every replica
   * that may have cached it has evicted it, or after a bounded wait; it never fails.
   */
  Future<Void> deleted(String name);
}
