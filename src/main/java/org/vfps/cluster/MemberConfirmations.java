package org.vfps.cluster;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Asks every other current member of the cluster to confirm that it applied a change this replica
 * committed, over the event bus, each within the eviction timeout. Thread-safe.
 */
final class MemberConfirmations {

  private final Vertx vertx;
  private final EventBus eventBus;
  private final ClusterMembership membership;
  private final DeliveryOptions requestOptions;

  /**
   * @param timeout how long each member has to confirm
   */
  MemberConfirmations(Vertx vertx, ClusterMembership membership, Duration timeout) {
    this.vertx = vertx;
    this.eventBus = vertx.eventBus();
    this.membership = membership;
    this.requestOptions = new DeliveryOptions().setSendTimeout(timeout.toMillis());
  }

  /**
   * Sends {@code event} to each other member's address and completes, once all have answered or
   * timed out, with the members that did not confirm (sorted, unmodifiable). When some did not, it
   * completes no sooner than {@link InvalidationLogFollower#staleBoundPassed} after this call, by
   * when those members have stopped answering from their copies. Never fails.
   *
   * @param address a member's address, by its node id
   * @param notConfirmed told of each member that did not confirm and why, as soon as it is known
   */
  Future<Set<String>> ask(
      Function<String, String> address, Object event, BiConsumer<String, Throwable> notConfirmed) {
    long committed = System.nanoTime();
    String self = membership.localNodeId();
    Map<String, Future<Object>> confirmations = new TreeMap<>();
    for (String node : membership.nodeIds()) {
      if (!node.equals(self)) {
        confirmations.put(
            node,
            eventBus
                .request(address.apply(node), event, requestOptions)
                .map(reply -> reply.body())
                .onFailure(failure -> notConfirmed.accept(node, failure)));
      }
    }
    return Future.join(List.copyOf(confirmations.values()))
        .transform(
            all -> {
              Set<String> unconfirmed = new TreeSet<>();
              confirmations.forEach(
                  (node, confirmation) -> {
                    if (confirmation.failed()) {
                      unconfirmed.add(node);
                    }
                  });
              Set<String> result = Collections.unmodifiableSet(unconfirmed);
              return unconfirmed.isEmpty()
                  ? Future.succeededFuture(result)
                  : InvalidationLogFollower.staleBoundPassed(vertx, committed).map(result);
            });
  }
}
