package org.vfps.admission;

import io.vertx.core.Context;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/**
 * When the client of one call stops waiting for its answer: at the deadline it sent, or when it
 * leaves the call. An edge {@linkplain #begin begins} it on the call's Vert.x context, and the
 * storage, some futures further on, finds it there ({@link #current()}) and does not send work for
 * a call that has {@linkplain #passed() passed}; both go through {@link CallLocals}, which says who
 * does. Times are {@link System#nanoTime()} values. Thread-safe.
 */
public final class CallDeadline {

  /** The deadline of work outside a call (start-up, a request without a timeout): never passes. */
  public static final CallDeadline NONE = new CallDeadline(false, 0);

  private final boolean bounded;
  private final long at;
  private volatile boolean abandoned;

  private CallDeadline(boolean bounded, long at) {
    this.bounded = bounded;
    this.at = at;
  }

  /**
   * The deadline of a call that arrived at {@code startNanos} with a timeout of {@code
   * timeoutNanos} (none when negative), kept on {@code context} when that is the call's own
   * (duplicated) context, so that work of other calls never sees it.
   */
  public static CallDeadline begin(Context context, long startNanos, long timeoutNanos) {
    CallDeadline deadline =
        new CallDeadline(timeoutNanos >= 0, startNanos + Math.max(timeoutNanos, 0));
    CallLocals.putDeadline(context, deadline);
    return deadline;
  }

  /**
   * The deadline of the call whose context the current thread runs on, as {@link CallLocals} keeps
   * it; {@link #NONE} if none.
   */
  public static CallDeadline current() {
    return CallLocals.deadline(NONE);
  }

  /** Whether the call has a deadline in time. */
  public boolean bounded() {
    return bounded;
  }

  /** The nanoseconds left at {@code now} until a {@linkplain #bounded() bounded} deadline. */
  public long remainingNanos(long now) {
    return at - now;
  }

  /** Whether the answer is no longer awaited: the deadline has passed or the client has left. */
  public boolean passed() {
    return abandoned || (bounded && System.nanoTime() - at >= 0);
  }

  /** As {@link #passed()}, at {@code now}. */
  public boolean passed(long now) {
    return abandoned || (bounded && now - at >= 0);
  }

  /** The client left the call (or was answered at its deadline): nothing more is awaited. */
  public void abandon() {
    if (this != NONE) {
      abandoned = true;
    }
  }

  /** The failure of work whose call's deadline passed before it was done. */
  public static ServiceException exceeded() {
    return new ServiceException(
        ErrorCode.DEADLINE_EXCEEDED, "The call's deadline passed before its work was done.");
  }
}
