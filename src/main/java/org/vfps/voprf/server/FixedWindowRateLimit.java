package org.vfps.voprf.server;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * A fixed-window rate limit over all calls of the server: at most {@code permits} calls per window,
 * the windows following each other from the first call. Thread-safe.
 */
final class FixedWindowRateLimit {

  private final int permits;
  private final long windowNanos;
  private final LongSupplier nanoTime;
  private long windowStart;
  private int used;
  private boolean started;

  FixedWindowRateLimit(int permits, Duration window, LongSupplier nanoTime) {
    this.permits = permits;
    this.windowNanos = window.toNanos();
    this.nanoTime = nanoTime;
  }

  /** Takes a permit of the current window; false when they are used up. */
  synchronized boolean tryAcquire() {
    long now = nanoTime.getAsLong();
    if (!started || now - windowStart >= windowNanos) {
      windowStart = !started ? now : now - (now - windowStart) % windowNanos;
      started = true;
      used = 0;
    }
    if (used >= permits) {
      return false;
    }
    used++;
    return true;
  }
}
