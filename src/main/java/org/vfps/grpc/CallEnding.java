package org.vfps.grpc;

import io.vertx.core.Timer;
import io.vertx.core.Vertx;
import io.vertx.grpc.server.GrpcServerRequest;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.vfps.admission.Admission;
import org.vfps.admission.CallDeadline;
import org.vfps.admission.CallLocals;

/**
 * The end of one call, reported once: by the service with its reply, at the call's deadline, or by
 * the client, which reset the stream (it cancelled the call, or its deadline passed) or lost the
 * connection first. Whichever comes first gives the call's place back to {@link Admission}, if it
 * was {@linkplain #admit() admitted}, and marks its {@link CallDeadline} passed, so that work still
 * queued for it is not sent. A call the client has left is not answered, since its stream is gone.
 * Used on the call's context only.
 */
final class CallEnding {

  private final CallDeadline deadline;
  private final Admission admission;
  private Timer timer;

  /** The key of the caller whose place the call holds; null while it holds none. */
  private Object admitted;

  private boolean ended;

  /**
   * Watches the call; {@code whenClientLeaves} runs if the client leaves before the call is ended
   * otherwise.
   */
  CallEnding(
      GrpcServerRequest<?, ?> call,
      CallDeadline deadline,
      Admission admission,
      Runnable whenClientLeaves) {
    this.deadline = deadline;
    this.admission = admission;
    Runnable left =
        () -> {
          if (finish()) {
            whenClientLeaves.run();
          }
        };
    call.errorHandler(error -> left.run());
    call.exceptionHandler(failure -> left.run());
    // a connection that closes once the request is in reaches neither handler above
    CallLocals.streamClosed().onComplete(closed -> left.run());
  }

  /**
   * Runs {@code answer} at the call's deadline, unless the call has ended before (the answer then
   * is the service's, e.g. {@code DEADLINE_EXCEEDED}, and must call {@link #end()} itself); at once
   * when the deadline has passed already.
   */
  void atDeadline(Runnable answer) {
    timer = schedule(deadline, answer);
  }

  /**
   * A timer that runs {@code action} on the current context when {@code deadline} passes; none
   * (null) for a call without a deadline. An action due already runs at once.
   */
  static Timer schedule(CallDeadline deadline, Runnable action) {
    if (!deadline.bounded()) {
      return null;
    }
    long remaining = deadline.remainingNanos(System.nanoTime());
    if (remaining <= 0) {
      action.run();
      return null;
    }
    Timer timer = Vertx.currentContext().owner().timer(remaining, TimeUnit.NANOSECONDS);
    timer.onSuccess(fired -> action.run());
    return timer;
  }

  /**
   * Takes a place for the call's work from {@link Admission}, for the caller known by {@code
   * caller}, given back when the call ends; empty when admitted, else the bound that refused it
   * (the refusal counted). A call that has ended already is refused as if the service were full;
   * its answer is not sent anyway.
   */
  Optional<Admission.Limit> admit(Object caller) {
    if (ended) {
      return Optional.of(Admission.Limit.CONCURRENT_REQUESTS);
    }
    Optional<Admission.Limit> refusal = admission.tryStartRequest(caller);
    if (refusal.isEmpty()) {
      admitted = caller;
    }
    return refusal;
  }

  /** Ends the call on the service's side; false when it has ended already. */
  boolean end() {
    return finish();
  }

  private boolean finish() {
    if (ended) {
      return false;
    }
    ended = true;
    if (timer != null) {
      timer.cancel();
    }
    // answered or left: whatever is still queued for the call goes unsent
    deadline.abandon();
    if (admitted != null) {
      admission.endRequest(admitted);
    }
    return true;
  }
}
