package org.vfps.cluster;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonObject;
import java.util.HashSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.cache.InvalidationLog;
import org.vfps.namespace.NamespaceEvents;

/**
 * Keeps this replica's caches coherent with the changes of other replicas: applies the namespace,
 * withdrawal and access events they send over the event bus and confirms those they ask to be
 * confirmed, clears everything when the membership changes (this replica may have missed events
 * meanwhile), and follows the database's invalidation log, which reaches it when the bus does not.
 * What an event takes out of the caches is {@link Evictions}'s to say. Its start fails when the log
 * cannot be read.
 */
public final class CacheInvalidationVerticle extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(CacheInvalidationVerticle.class);

  private final Evictions evictions;
  private final ClusterMembership membership;
  private final InvalidationLog log;
  private final boolean accessCopiesKept;
  private InvalidationLogFollower follower;

  /**
   * @param accessCopiesKept whether this replica keeps a copy of the grants and tokens between
   *     checks (authorization on with a grant cache duration)
   */
  public CacheInvalidationVerticle(
      Evictions evictions,
      ClusterMembership membership,
      InvalidationLog log,
      boolean accessCopiesKept) {
    this.evictions = evictions;
    this.membership = membership;
    this.log = log;
    this.accessCopiesKept = accessCopiesKept;
  }

  @Override
  public Future<?> start() {
    EventBus eventBus = vertx.eventBus();
    membership.onChange(
        () -> {
          LOG.info("Cluster membership changed: clearing the caches");
          evictions.clear();
        });
    String self = membership.localNodeId();
    return Future.all(
            eventBus
                .<String>consumer(
                    NamespaceEvents.CREATED_ADDRESS,
                    message -> evictions.namespaceCreated(message.body()))
                .completion(),
            eventBus
                .<String>consumer(
                    NamespaceEvents.DELETED_ADDRESS,
                    message -> evictions.namespaceDeleted(message.body()))
                .completion(),
            eventBus
                .<String>consumer(
                    EventBusNamespaceEvents.evictAddress(self),
                    message -> {
                      evictions.namespaceDeleted(message.body());
                      message.reply(self);
                    })
                .completion(),
            eventBus
                .<JsonObject>consumer(
                    EventBusNamespaceEvents.withdrawnAddress(self),
                    message ->
                        evictWithdrawn(message.body())
                            .onComplete(
                                done -> {
                                  if (done.failed()) {
                                    LOG.warn(
                                        "Evicting withdrawn pseudonyms failed ({}): clearing the"
                                            + " cache",
                                        done.cause().toString());
                                    evictions.clear();
                                  }
                                  message.reply(self);
                                }))
                .completion(),
            eventBus
                .<String>consumer(
                    EventBusAccessEvents.invalidateAddress(self),
                    message -> {
                      evictions.accessChanged();
                      message.reply(self);
                    })
                .completion())
        .compose(
            listening ->
                InvalidationLogFollower.start(
                    vertx, log, evictions, evictions.keepsCopies(accessCopiesKept)))
        .onSuccess(started -> follower = started);
  }

  @Override
  public Future<?> stop() {
    if (follower != null) {
      follower.stop();
    }
    return Future.succeededFuture();
  }

  private Future<Void> evictWithdrawn(JsonObject event) {
    Set<String> pseudonyms = new HashSet<>();
    event.getJsonArray("pseudonyms").forEach(value -> pseudonyms.add((String) value));
    return evictions.pseudonymsWithdrawn(event.getString("namespace"), pseudonyms);
  }
}
