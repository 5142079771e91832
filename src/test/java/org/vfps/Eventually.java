package org.vfps;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/** Waits, with a deadline, for something another thread or process brings about. */
public final class Eventually {

  private Eventually() {}

  /**
   * Returns the first value of {@code probe} that {@code done} accepts, probing every 20 ms.
   *
   * @throws AssertionError with {@code what} and the last value when the deadline passes
   */
  public static <T> T await(
      String what, Duration deadline, Supplier<T> probe, java.util.function.Predicate<T> done) {
    long end = System.nanoTime() + deadline.toNanos();
    while (true) {
      T value = probe.get();
      if (done.test(value)) {
        return value;
      }
      if (System.nanoTime() > end) {
        throw new AssertionError(what + " did not happen within " + deadline + "; last: " + value);
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
    }
  }
}
