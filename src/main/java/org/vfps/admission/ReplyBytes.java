package org.vfps.admission;

import io.vertx.core.Future;

/**
 * The bytes one reply holds in memory while it is built whole and sent, reserved from {@link
 * Admission}'s budget ({@code Admission__MaxReplyBytes}) piece by piece as the reply grows, and
 * given back, all at once, when the reply has been written or dropped. Used on the call's context
 * only.
 */
public final class ReplyBytes {

  private final Admission admission;
  private long reserved;

  ReplyBytes(Admission admission) {
    this.admission = admission;
  }

  /**
   * Reserves {@code bytes} more; fails with {@link Admission#overloaded} ({@code OVERLOADED}, the
   * refusal counted) when they do not fit the budget, keeping what was reserved before.
   */
  public Future<Void> reserve(int bytes) {
    if (!admission.tryReserveReplyBytes(bytes)) {
      return Future.failedFuture(Admission.overloaded(Admission.Limit.REPLY_BYTES));
    }
    reserved += bytes;
    return Future.succeededFuture();
  }

  /** Gives every byte reserved back; later calls give back nothing more. */
  public void release() {
    admission.releaseReplyBytes(reserved);
    reserved = 0;
  }
}
