package org.vfps.cluster;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonObject;
import java.util.HashSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.cache.VfpsCache;
import org.vfps.namespace.NamespaceEvents;

/**
 * Keeps this replica's cache coherent: evicts a namespace and its pseudonyms when any replica
 * creates or deletes it, confirms evictions a deleting replica asks for, evicts withdrawn
 * pseudonyms and confirms that to the withdrawing replica, and clears the whole cache when the
 * membership changes, since this replica may have missed events meanwhile.
 */
public final class CacheInvalidationVerticle extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(CacheInvalidationVerticle.class);

  private final VfpsCache cache;
  private final ClusterMembership membership;

  public CacheInvalidationVerticle(VfpsCache cache, ClusterMembership membership) {
    this.cache = cache;
    this.membership = membership;
  }

  @Override
  public Future<?> start() {
    EventBus eventBus = vertx.eventBus();
    membership.onChange(
        () -> {
          LOG.info("Cluster membership changed: clearing the cache");
          cache.clear();
        });
    return Future.all(
        eventBus
            .<String>consumer(
                NamespaceEvents.CREATED_ADDRESS, message -> cache.evictNamespace(message.body()))
            .completion(),
        eventBus
            .<String>consumer(
                NamespaceEvents.DELETED_ADDRESS, message -> cache.evictNamespace(message.body()))
            .completion(),
        eventBus
            .<String>consumer(
                EventBusNamespaceEvents.evictAddress(membership.localNodeId()),
                message -> {
                  cache.evictNamespace(message.body());
                  message.reply(membership.localNodeId());
                })
            .completion(),
        eventBus
            .<JsonObject>consumer(
                EventBusNamespaceEvents.withdrawnAddress(membership.localNodeId()),
                message ->
                    evictWithdrawn(message.body())
                        .onComplete(
                            done -> {
                              if (done.failed()) {
                                LOG.warn(
                                    "Evicting withdrawn pseudonyms failed ({}): clearing the cache",
                                    done.cause().toString());
                                cache.clear();
                              }
                              message.reply(membership.localNodeId());
                            }))
            .completion());
  }

  /** Evicts the withdrawn pseudonyms on a worker thread: it scans the whole cache. */
  private Future<Void> evictWithdrawn(JsonObject event) {
    String namespace = event.getString("namespace");
    Set<String> pseudonyms = new HashSet<>();
    event.getJsonArray("pseudonyms").forEach(value -> pseudonyms.add((String) value));
    return vertx.executeBlocking(
        () -> {
          cache.evictPseudonyms(namespace, pseudonyms);
          return null;
        },
        false);
  }
}
