package org.vfps.cluster;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.access.AccessEvents;
import org.vfps.access.AccessSnapshots;
import org.vfps.namespace.NamespaceEvents;

/**
 * Access changes on the (clustered) event bus: the changing replica asks every current member to
 * drop its copy of the grants and tokens, and completes when all have confirmed, or when the
 * eviction timeout has passed (a member that did not confirm is logged; its copy still ages out
 * within {@code Authorization__GrantCacheDuration}). A member also drops its copy when a namespace
 * is deleted (its grants go with it), and whenever the membership changes, since it may have missed
 * a change meanwhile.
 */
public final class EventBusAccessEvents implements AccessEvents {

  private static final String INVALIDATE = "vfps.access.invalidate.";
  private static final Logger LOG = LoggerFactory.getLogger(EventBusAccessEvents.class);

  private final EventBus eventBus;
  private final ClusterMembership membership;
  private final DeliveryOptions requestOptions;

  private EventBusAccessEvents(Vertx vertx, ClusterMembership membership, Duration timeout) {
    this.eventBus = vertx.eventBus();
    this.membership = membership;
    this.requestOptions = new DeliveryOptions().setSendTimeout(timeout.toMillis());
  }

  /**
   * Starts dropping {@code snapshots} on every change any replica announces, and on membership
   * changes; completes once this replica listens.
   */
  public static Future<EventBusAccessEvents> listen(
      Vertx vertx, ClusterMembership membership, AccessSnapshots snapshots, Duration timeout) {
    membership.onChange(snapshots::invalidate);
    EventBusAccessEvents events = new EventBusAccessEvents(vertx, membership, timeout);
    EventBus eventBus = vertx.eventBus();
    return Future.all(
            eventBus
                .<String>consumer(
                    INVALIDATE + membership.localNodeId(),
                    message -> {
                      snapshots.invalidate();
                      message.reply(membership.localNodeId());
                    })
                .completion(),
            // a deleted namespace's grants went with it; one re-created under its name has none
            eventBus
                .<String>consumer(
                    NamespaceEvents.DELETED_ADDRESS, message -> snapshots.invalidate())
                .completion())
        .map(events);
  }

  @Override
  public Future<Void> changed() {
    List<String> members = membership.nodeIds();
    List<Future<Object>> confirmations =
        members.stream()
            .map(
                node ->
                    eventBus
                        .request(INVALIDATE + node, "", requestOptions)
                        .map(reply -> reply.body())
                        .onFailure(
                            failure ->
                                LOG.warn(
                                    "Member {} did not confirm dropping its access grants and"
                                        + " tokens ({}); it reads them again within"
                                        + " Authorization__GrantCacheDuration",
                                    node,
                                    failure.getMessage())))
            .toList();
    return Future.join(confirmations).<Void>mapEmpty().otherwiseEmpty();
  }
}
