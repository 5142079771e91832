package org.vfps.namespace;

import io.vertx.core.Future;

/**
 * Tells the rest of the deployment (other verticles, other replicas) that a namespace came or went,
 * after the change is committed, so that caches and metrics follow. The service publishes these on
 * the event bus ({@link #CREATED_ADDRESS}, {@link #DELETED_ADDRESS}) with the namespace name as a
 * {@code String} body.
 */
public interface NamespaceEvents {

  /** The event bus address of namespace creations. */
  String CREATED_ADDRESS = "vfps.namespace.created";

  /** The event bus address of namespace deletions. */
  String DELETED_ADDRESS = "vfps.namespace.deleted";

  /** The namespace was created and committed; fire and forget. */
  void created(String name);

  /**
   * The namespace was deleted and the deletion committed. The future completes once every replica
   * that may have cached it has evicted it, or after a bounded wait; it never fails.
   */
  Future<Void> deleted(String name);
}
