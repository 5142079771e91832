package org.vfps.cluster;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.namespace.NamespaceEvents;

/**
 * Namespace events on the (clustered) event bus. Both events are published for every listener on
 * every replica; a delete also asks each current member to confirm its eviction, and completes when
 * all have, or when the eviction timeout has passed (a member that did not confirm is logged; its
 * entries still expire).
 */
public final class EventBusNamespaceEvents implements NamespaceEvents {

  private static final String EVICT = "vfps.cache.evict.";
  private static final Logger LOG = LoggerFactory.getLogger(EventBusNamespaceEvents.class);

  private final EventBus eventBus;
  private final ClusterMembership membership;
  private final boolean confirmEvictions;
  private final DeliveryOptions requestOptions;

  /**
   * @param confirmEvictions whether members cache namespaces and so must confirm evictions
   */
  public EventBusNamespaceEvents(
      Vertx vertx, ClusterMembership membership, boolean confirmEvictions, Duration timeout) {
    this.eventBus = vertx.eventBus();
    this.membership = membership;
    this.confirmEvictions = confirmEvictions;
    this.requestOptions = new DeliveryOptions().setSendTimeout(timeout.toMillis());
  }

  /** The address on which the member confirms evictions. */
  static String evictAddress(String nodeId) {
    return EVICT + nodeId;
  }

  @Override
  public void created(String name) {
    eventBus.publish(CREATED_ADDRESS, name);
  }

  @Override
  public Future<Void> deleted(String name) {
    eventBus.publish(DELETED_ADDRESS, name);
    if (!confirmEvictions) {
      return Future.succeededFuture();
    }
    List<String> members = membership.nodeIds();
    List<Future<Object>> confirmations =
        members.stream()
            .map(
                node ->
                    eventBus
                        .request(evictAddress(node), name, requestOptions)
                        .map(reply -> reply.body())
                        .onFailure(
                            failure ->
                                LOG.warn(
                                    "Member {} did not confirm evicting namespace '{}' ({}); its"
                                        + " entries expire by themselves",
                                    node,
                                    name,
                                    failure.getMessage())))
            .toList();
    return Future.join(confirmations).<Void>mapEmpty().otherwiseEmpty();
  }
}
