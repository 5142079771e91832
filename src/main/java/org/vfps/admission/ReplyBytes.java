package org.vfps.admission;

import io.vertx.core.Context;
import io.vertx.core.Future;

/**
 * The bytes one reply holds in memory while it is built whole and sent, reserved from {@link
 * Admission}'s budget ({@code Admission__MaxReplyBytes}) piece by piece as the reply grows, and
 * given back, all at once, when the reply has been written or dropped. An edge {@linkplain #begin
 * begins} one per call on the call's Vert.x context and {@linkplain #release() releases} it when
 * the call ends; the storage finds it there ({@link #current()}) and reserves the bytes of the rows
 * it reads for the reply. Used on the call's context only.
 */
public final class ReplyBytes {

  /** The reservation of work outside a call (start-up, tools): reserves without bound. */
  private static final ReplyBytes NONE = new ReplyBytes(null);

  private final Admission admission;
  private long reserved;
  private boolean released;

  ReplyBytes(Admission admission) {
    this.admission = admission;
  }

  /**
   * A new, empty reservation of {@code admission}'s budget for the reply of the call that runs on
   * {@code context}, kept there when that is the call's own (duplicated) context.
   */
  public static ReplyBytes begin(Context context, Admission admission) {
    ReplyBytes bytes = admission.replyBytes();
    CallLocals.putReplyBytes(context, bytes);
    return bytes;
  }

  /**
   * The reservation of the call whose context the current thread runs on, as {@link CallLocals}
   * keeps it; outside a call one that reserves without bound.
   */
  public static ReplyBytes current() {
    return CallLocals.replyBytes(NONE);
  }

  /**
   * Reserves {@code bytes} more; fails with {@link Admission#overloaded} ({@code OVERLOADED}, the
   * refusal counted) when they do not fit the budget, keeping what was reserved before, and with
   * {@link CallDeadline#exceeded()} once {@linkplain #release() released}: the call is over, and
   * work still running for it stops.
   */
  public Future<Void> reserve(long bytes) {
    if (admission == null) {
      return Future.succeededFuture();
    }
    if (released) {
      return Future.failedFuture(CallDeadline.exceeded());
    }
    if (!admission.tryReserveReplyBytes(bytes)) {
      return Future.failedFuture(Admission.overloaded(Admission.Limit.REPLY_BYTES));
    }
    reserved += bytes;
    return Future.succeededFuture();
  }

  /** Gives every byte reserved back and reserves no more; later calls give back nothing more. */
  public void release() {
    if (admission == null) {
      return;
    }
    admission.releaseReplyBytes(reserved);
    reserved = 0;
    released = true;
  }
}
