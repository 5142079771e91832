package org.vfps.cluster;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.namespace.NamespaceEvents;
import org.vfps.pseudonym.WithdrawalEvents;

/**
 * Namespace and withdrawal events: this replica applies its own change to its caches at once,
 * without the event bus; the bus carries the change to the other members. Both namespace events are
 * published for every listener on every replica; a namespace delete and a withdrawal also ask each
 * other current member to confirm its eviction, and complete when all have, or when the eviction
 * timeout has passed. A member that did not confirm is named in the log (and, for a withdrawal, in
 * the audit); it learns the change from the database's invalidation log, or stops using its caches,
 * within two seconds of the commit ({@link InvalidationLogFollower}), and the change completes no
 * sooner than that: when it returns, no replica answers from a copy it made wrong.
 */
public final class EventBusNamespaceEvents implements NamespaceEvents, WithdrawalEvents {

  private static final String EVICT = "vfps.cache.evict.";
  private static final String WITHDRAWN = "vfps.cache.withdrawn.";
  private static final Logger LOG = LoggerFactory.getLogger(EventBusNamespaceEvents.class);

  private final EventBus eventBus;
  private final Evictions local;
  private final MemberConfirmations members;

  /**
   * @param local this replica's caches
   * @param timeout how long a change waits for the other members to confirm
   */
  public EventBusNamespaceEvents(
      Vertx vertx, ClusterMembership membership, Evictions local, Duration timeout) {
    this.eventBus = vertx.eventBus();
    this.local = local;
    this.members = new MemberConfirmations(vertx, membership, timeout);
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
    local.namespaceDeleted(name);
    eventBus.publish(DELETED_ADDRESS, name);
    return confirmed(EventBusNamespaceEvents::evictAddress, name, "namespace '" + name + "'")
        .mapEmpty();
  }

  @Override
  public Future<Set<String>> withdrawn(String namespace, Collection<String> pseudonymValues) {
    if (pseudonymValues.isEmpty()) {
      return Future.succeededFuture(Set.of());
    }
    JsonObject event =
        new JsonObject()
            .put("namespace", namespace)
            .put("pseudonyms", new JsonArray(List.copyOf(pseudonymValues)));
    return local
        .pseudonymsWithdrawn(namespace, Set.copyOf(pseudonymValues))
        .compose(
            evicted ->
                confirmed(
                    EventBusNamespaceEvents::withdrawnAddress,
                    event,
                    pseudonymValues.size()
                        + " withdrawn pseudonyms of namespace '"
                        + namespace
                        + "'"));
  }

  /**
   * Asks every other member to evict; completes with the members that did not confirm in time, once
   * all have answered or timed out.
   */
  private Future<Set<String>> confirmed(
      Function<String, String> address, Object event, String what) {
    return members.ask(
        address,
        event,
        (node, failure) ->
            LOG.warn(
                "Member {} did not confirm evicting {} ({}); it stops using its caches within 2 s,"
                    + " when it reads the change from the database's invalidation log or fails to"
                    + " read it",
                node,
                what,
                failure.getMessage()));
  }
}
