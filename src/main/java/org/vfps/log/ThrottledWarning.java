package org.vfps.log;

import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.Locale;
import org.slf4j.Logger;
import org.vfps.config.TimeSpans;

/**
 * One kind of WARN line written at most once per interval. The first occurrence after a quiet
 * interval is logged at once, in full; the ones that follow are only counted, and while they go on
 * one summary line per interval says how many there were. An occurrence after an interval without
 * any is logged in full again. Thread-safe; the summary lines are written from a Vert.x timer.
 */
final class ThrottledWarning {

  private final Vertx vertx;
  private final Logger log;
  private final Duration interval;
  private final String counted;

  // guarded by this
  private long quietUntil;
  private long suppressed;
  private boolean summaryPending;
  private boolean closed;

  /**
   * @param counted what the summary counts, in the plural, e.g. {@code calls failed UNAVAILABLE}
   */
  ThrottledWarning(Vertx vertx, Logger log, Duration interval, String counted) {
    this.vertx = vertx;
    this.log = log;
    this.interval = interval;
    this.counted = counted;
    this.quietUntil = System.nanoTime();
  }

  /** Logs the line now, or counts it for the next summary line when one was written lately. */
  void warn(String format, Object... arguments) {
    long delayMillis;
    synchronized (this) {
      long now = System.nanoTime();
      if (!summaryPending && now - quietUntil >= 0) {
        quietUntil = now + interval.toNanos();
        delayMillis = -1;
      } else {
        suppressed++;
        if (summaryPending || closed) {
          return;
        }
        summaryPending = true;
        delayMillis = Math.max(1, Duration.ofNanos(quietUntil - now).toMillis());
      }
    }
    if (delayMillis < 0) {
      log.warn(format, arguments);
    } else {
      vertx.setTimer(delayMillis, timer -> summarize());
    }
  }

  /** Writes the summary still pending, if any, and no timer after it (at the server's close). */
  void close() {
    synchronized (this) {
      closed = true;
    }
    summarize();
  }

  private void summarize() {
    long count;
    synchronized (this) {
      count = suppressed;
      suppressed = 0;
      summaryPending = false;
      // the occurrences go on: the next full line only after an interval without any
      quietUntil = System.nanoTime() + interval.toNanos();
    }
    if (count > 0) {
      log.warn(
          "{} more {} in the last {}",
          String.format(Locale.ROOT, "%,d", count),
          counted,
          TimeSpans.format(interval));
    }
  }
}
