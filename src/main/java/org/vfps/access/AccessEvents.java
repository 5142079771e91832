package org.vfps.access;

import io.vertx.core.Future;

/**
 * Tells every replica that grants, service accounts or tokens changed, after the change is
 * committed, so that each drops its copy ({@link AccessSnapshots#invalidate()}).
 */
public interface AccessEvents {

  /** No other replica to tell. */
  AccessEvents ALONE = () -> Future.succeededFuture();

  /**
   * The change is committed; completes once every replica has dropped its copy, or after a bounded
   * wait. Never fails.
   */
  Future<Void> changed();
}
