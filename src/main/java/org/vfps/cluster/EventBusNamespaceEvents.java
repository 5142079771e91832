package org.vfps.cluster;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.namespace.NamespaceEvents;
import org.vfps.pseudonym.WithdrawalEvents;

/**
 * Namespace and withdrawal events on the (clustered) event bus. Both namespace events are published
 * for every listener on every replica; a namespace delete and a withdrawal also ask each current
 * member to confirm its eviction, and complete when all have, or when the eviction timeout has
 * passed (a member that did not confirm is logged; its entries still expire).
 */
public final class EventBusNamespaceEvents implements NamespaceEvents, WithdrawalEvents {

  private static final String EVICT = "vfps.cache.evict.";
  private static final String WITHDRAWN = "vfps.cache.withdrawn.";
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

  /** The address on which the member confirms evictions of namespaces. */
  static String evictAddress(String nodeId) {
    return EVICT + nodeId;
  }

  /**
   * The address on which the member confirms evictions of withdrawn pseudonyms: a {@link
   * JsonObject} with {@code namespace} and the array {@code pseudonyms}.
   */
  static String withdrawnAddress(String nodeId) {
    return WITHDRAWN + nodeId;
  }

  @Override
  public void created(String name) {
    eventBus.publish(CREATED_ADDRESS, name);
  }

  @Override
  public Future<Void> deleted(String name) {
    eventBus.publish(DELETED_ADDRESS, name);
    return confirmed(EventBusNamespaceEvents::evictAddress, name, "namespace '" + name + "'");
  }

  @Override
  public Future<Void> withdrawn(String namespace, Collection<String> pseudonymValues) {
    if (pseudonymValues.isEmpty()) {
      return Future.succeededFuture();
    }
    JsonObject event =
        new JsonObject()
            .put("namespace", namespace)
            .put("pseudonyms", new JsonArray(List.copyOf(pseudonymValues)));
    return confirmed(
        EventBusNamespaceEvents::withdrawnAddress,
        event,
        pseudonymValues.size() + " withdrawn pseudonyms of namespace '" + namespace + "'");
  }

  /** Asks every member to evict, and completes when all confirmed or timed out. */
  private Future<Void> confirmed(Function<String, String> address, Object event, String what) {
    if (!confirmEvictions) {
      return Future.succeededFuture();
    }
    List<Future<Object>> confirmations =
        membership.nodeIds().stream()
            .map(
                node ->
                    eventBus
                        .request(address.apply(node), event, requestOptions)
                        .map(reply -> reply.body())
                        .onFailure(
                            failure ->
                                LOG.warn(
                                    "Member {} did not confirm evicting {} ({}); its entries"
                                        + " expire by themselves",
                                    node,
                                    what,
                                    failure.getMessage())))
            .toList();
    return Future.join(confirmations).<Void>mapEmpty().otherwiseEmpty();
  }
}
