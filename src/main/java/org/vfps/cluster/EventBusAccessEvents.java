package org.vfps.cluster;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.access.AccessEvents;

/**
 * Access changes on the (clustered) event bus: the changing replica, which has dropped its own copy
 * of the grants and tokens already, asks every other current member to drop theirs ({@link
 * CacheInvalidationVerticle} answers), and completes when all have confirmed, or when the eviction
 * timeout has passed. A member that did not confirm is logged; it learns the change from the
 * database's invalidation log, or stops trusting its copy, within two seconds of the commit, and
 * the change completes no sooner than that.
 */
public final class EventBusAccessEvents implements AccessEvents {

  private static final String INVALIDATE = "vfps.access.invalidate.";
  private static final Logger LOG = LoggerFactory.getLogger(EventBusAccessEvents.class);

  private final MemberConfirmations members;

  public EventBusAccessEvents(Vertx vertx, ClusterMembership membership, Duration timeout) {
    this.members = new MemberConfirmations(vertx, membership, timeout);
  }

  /** The address on which the member drops its copy and confirms it. */
  static String invalidateAddress(String nodeId) {
    return INVALIDATE + nodeId;
  }

  @Override
  public Future<Void> changed() {
    return members
        .ask(
            EventBusAccessEvents::invalidateAddress,
            "",
            (node, failure) ->
                LOG.warn(
                    "Member {} did not confirm dropping its access grants and tokens ({}); it"
                        + " reads them again within 2 s, when it reads the change from the"
                        + " database's invalidation log or fails to read it",
                    node,
                    failure.getMessage()))
        .mapEmpty();
  }
}
