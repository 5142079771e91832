package org.vfps.cluster;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.cache.Invalidation;
import org.vfps.cache.InvalidationLog;
import org.vfps.config.TimeSpans;

/**
 * Follows the database's {@link InvalidationLog}: every {@link #INTERVAL} it reads the changes
 * committed since the last one it applied and applies them ({@link Evictions}), so that a change
 * reaches this replica's caches even when the cluster's event bus did not bring it (a member that
 * did not confirm, a replica outside the cluster). A replica that has not read the log for {@link
 * #TRUST} empties its caches and serves nothing from them, and reads the grants and tokens again at
 * every tick, until it reads the log again. So no replica answers from a copy older than a change
 * committed two seconds ago ({@link #TRUST} plus one {@link #INTERVAL}), whatever happens to the
 * bus or to its connection to the database. Runs on the event loop of the verticle that starts it.
 */
final class InvalidationLogFollower {

  /** How often the log is read. */
  static final Duration INTERVAL = Duration.ofMillis(500);

  /** How long after the start of the last read of the log the caches are trusted. */
  static final Duration TRUST = Duration.ofMillis(1500);

  /**
   * How long after a change's commit no replica answers from a copy the change made wrong, at the
   * latest, whether or not the event bus reached it: by then each has read the change from the log
   * or stopped trusting its caches.
   */
  static final Duration STALE_BOUND = TRUST.plus(INTERVAL);

  /** At most this many entries in one read; more than that and the caches are emptied instead. */
  static final int MAX_ENTRIES = 1000;

  private static final Logger LOG = LoggerFactory.getLogger(InvalidationLogFollower.class);

  private final Vertx vertx;
  private final InvalidationLog log;
  private final Evictions evictions;
  private long applied;
  private long lastReadStartedNanos;
  private boolean reading;
  private boolean trusted = true;
  private long timer = -1;

  private InvalidationLogFollower(Vertx vertx, InvalidationLog log, Evictions evictions) {
    this.vertx = vertx;
    this.log = log;
    this.evictions = evictions;
  }

  /**
   * Reads the newest generation (fails when the log cannot be read: the database is not migrated,
   * or the service's role may not read it) and, when {@code follow}, starts following the log from
   * there; this replica has nothing cached yet that an older change could concern.
   */
  static Future<InvalidationLogFollower> start(
      Vertx vertx, InvalidationLog log, Evictions evictions, boolean follow) {
    InvalidationLogFollower follower = new InvalidationLogFollower(vertx, log, evictions);
    long started = System.nanoTime();
    return log.after(Long.MAX_VALUE, 0)
        .map(
            newest -> {
              follower.applied = newest.newest();
              follower.lastReadStartedNanos = started;
              if (follow) {
                follower.timer = vertx.setPeriodic(INTERVAL.toMillis(), id -> follower.tick());
              }
              return follower;
            });
  }

  /**
   * Completes once {@link #STALE_BOUND} has passed since {@code committedNanos} ({@link
   * System#nanoTime()}): what a change waits for when some member did not confirm it, so that it
   * returns only when no replica answers from a copy it made wrong. Never fails.
   */
  static Future<Void> staleBoundPassed(Vertx vertx, long committedNanos) {
    long left = STALE_BOUND.toMillis() - (System.nanoTime() - committedNanos) / 1_000_000;
    return left <= 0 ? Future.succeededFuture() : vertx.timer(left).mapEmpty();
  }

  /** Stops following. */
  void stop() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
    }
  }

  private void tick() {
    if (System.nanoTime() - lastReadStartedNanos > TRUST.toNanos()) {
      if (trusted) {
        trusted = false;
        LOG.warn(
            "The cache invalidation log has not been read for {}: the caches are emptied and"
                + " not used, and the access grants and tokens are read again, until it is read"
                + " again",
            TimeSpans.format(TRUST));
      }
      evictions.distrust();
    }
    if (reading) {
      return;
    }
    reading = true;
    long started = System.nanoTime();
    log.after(applied, MAX_ENTRIES)
        .compose(this::apply)
        .onComplete(
            done -> {
              reading = false;
              if (done.failed()) {
                LOG.debug("Reading the cache invalidation log failed: {}", done.cause().toString());
                return;
              }
              lastReadStartedNanos = started;
              if (!trusted) {
                trusted = true;
                evictions.trust();
                LOG.info("The cache invalidation log is read again: the caches are used again");
              }
            });
  }

  /** Applies the entries after the last one applied, or empties the caches if some are missing. */
  private Future<Void> apply(InvalidationLog.Entries read) {
    if (!read.complete(applied)) {
      LOG.info(
          "The cache invalidation log holds {} entries after generation {}, but its newest is {}:"
              + " clearing the caches",
          read.entries().size(),
          applied,
          read.newest());
      evictions.clear();
      applied = read.newest();
      return Future.succeededFuture();
    }
    if (read.entries().isEmpty()) {
      return Future.succeededFuture();
    }
    // one scan of the cache per namespace for all its withdrawn pseudonyms
    Map<String, Set<String>> withdrawn = new HashMap<>();
    List<Future<Void>> applying = new ArrayList<>();
    for (Invalidation invalidation : read.entries()) {
      if (invalidation.kind() == Invalidation.Kind.PSEUDONYMS) {
        withdrawn
            .computeIfAbsent(invalidation.namespace(), namespace -> new HashSet<>())
            .addAll(invalidation.pseudonymValues());
      } else {
        applying.add(evictions.apply(invalidation));
      }
    }
    withdrawn.forEach(
        (namespace, values) -> applying.add(evictions.pseudonymsWithdrawn(namespace, values)));
    return Future.all(applying)
        .map(
            all -> {
              applied = read.newest();
              return null;
            });
  }
}
