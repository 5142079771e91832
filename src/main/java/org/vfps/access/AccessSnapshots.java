package org.vfps.access;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/**
 * This replica's copy of the grants and tokens ({@link AccessSnapshot}), as fresh as the
 * configuration asks: never older than {@code Authorization__GrantCacheDuration}, read on every
 * check when that is zero, and read again before the next check once {@link #invalidate()} is
 * called (by a change on this replica, or on any replica through the cluster). A background reload
 * at half the duration keeps checks from waiting for the database; a check that finds the copy too
 * old or invalidated waits for one reload, which concurrent checks share. When the copy is too old
 * and the database cannot be read, checks fail {@code UNAVAILABLE}: a revocation made meanwhile
 * must not be missed. Thread-safe.
 */
public final class AccessSnapshots {

  private static final Logger LOG = LoggerFactory.getLogger(AccessSnapshots.class);

  /** A copy, the generation it was asked for in, and when its read began. */
  private record Loaded(
      AccessSnapshot snapshot, long generation, long startedNanos, Future<AccessSnapshot> future) {}

  /** A read in flight and the generation it serves. */
  private record Loading(Future<AccessSnapshot> future, long generation) {}

  private final Supplier<Future<AccessSnapshot>> reader;
  private final long maxAgeNanos;
  private final AtomicLong generation = new AtomicLong();
  private volatile Loaded loaded;
  private Loading loading;

  /**
   * @param reader reads the grants and tokens, as {@link AccessStore#snapshot()} does
   * @param maxAge how old a copy may be; zero or less reads the database on every check
   */
  public AccessSnapshots(Supplier<Future<AccessSnapshot>> reader, Duration maxAge) {
    this.reader = reader;
    this.maxAgeNanos = maxAge.isNegative() ? 0 : maxAge.toNanos();
  }

  /**
   * Reads the first copy and, when copies may be kept, starts reloading them in the background at
   * half their allowed age; fails when the database cannot be read.
   */
  public Future<Void> start(Vertx vertx) {
    return reload()
        .map(
            first -> {
              if (maxAgeNanos > 0) {
                long period = Math.max(1, maxAgeNanos / 2_000_000);
                vertx.setPeriodic(period, period, timer -> refreshInBackground());
              }
              return null;
            });
  }

  /**
   * A copy that is current: at once when the kept one is, else after a read of the database. Fails
   * {@code UNAVAILABLE} when a read is needed and fails.
   */
  public Future<AccessSnapshot> fresh() {
    Loaded current = loaded;
    if (current != null
        && maxAgeNanos > 0
        && current.generation() == generation.get()
        && System.nanoTime() - current.startedNanos() < maxAgeNanos) {
      return current.future();
    }
    return reload();
  }

  /**
   * The kept copy, however old, for what only informs (the admin UI's hints, the expiry marker);
   * {@link AccessSnapshot#EMPTY} before the first read.
   */
  public AccessSnapshot kept() {
    Loaded current = loaded;
    return current == null ? AccessSnapshot.EMPTY : current.snapshot();
  }

  /** The kept copy is out of date: the next check reads the database first. */
  public void invalidate() {
    generation.incrementAndGet();
  }

  private void refreshInBackground() {
    Loaded current = loaded;
    if (current == null || System.nanoTime() - current.startedNanos() >= maxAgeNanos / 2) {
      reload()
          .onFailure(
              failure ->
                  LOG.warn(
                      "The access grants and tokens could not be read again: {}",
                      failure.getMessage()));
    }
  }

  /**
   * A read of the database for the current generation; a read in flight for it is shared, unless
   * every check must read for itself (a zero duration).
   */
  private Future<AccessSnapshot> reload() {
    long wanted = generation.get();
    synchronized (this) {
      if (loading != null && loading.generation() == wanted && maxAgeNanos > 0) {
        return loading.future();
      }
      long started = System.nanoTime();
      Future<AccessSnapshot> read =
          reader
              .get()
              .map(
                  snapshot -> {
                    keep(new Loaded(snapshot, wanted, started, Future.succeededFuture(snapshot)));
                    return snapshot;
                  })
              .recover(
                  failure ->
                      Future.failedFuture(
                          new ServiceException(
                              ErrorCode.UNAVAILABLE,
                              "The access grants and tokens cannot be read from the database"
                                  + " right now; try again shortly.",
                              Map.of(),
                              failure)));
      Loading flight = new Loading(read, wanted);
      loading = flight;
      read.onComplete(
          done -> {
            synchronized (this) {
              if (loading == flight) {
                loading = null;
              }
            }
          });
      return read;
    }
  }

  /** Keeps a copy unless a later one is kept already. */
  private synchronized void keep(Loaded read) {
    Loaded current = loaded;
    if (current == null
        || read.generation() > current.generation()
        || (read.generation() == current.generation()
            && read.startedNanos() - current.startedNanos() > 0)) {
      loaded = read;
    }
  }
}
