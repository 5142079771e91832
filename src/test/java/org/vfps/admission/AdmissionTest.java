package org.vfps.admission;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

class AdmissionTest {

  private final List<Admission.Limit> refused = new ArrayList<>();

  @Test
  void admitsRequestsUpToTheBoundAndOneMoreOnlyOnceAPlaceIsGivenBack() {
    Admission admission = new Admission(2, 10, Long.MAX_VALUE, refused::add);

    assertThat(admission.tryStartRequest()).isTrue();
    assertThat(admission.tryStartRequest()).isTrue();
    assertThat(admission.tryStartRequest()).isFalse();
    assertThat(admission.requestsInFlight()).isEqualTo(2);
    assertThat(refused).containsExactly(Admission.Limit.CONCURRENT_REQUESTS);

    admission.endRequest();
    assertThat(admission.tryStartRequest()).isTrue();
    assertThat(admission.requestsInFlight()).isEqualTo(2);
  }

  @Test
  void boundsTheQueuedWritesButAlwaysAdmitsWritesThatFindTheQueuesEmpty() {
    Admission admission = new Admission(10, 3, Long.MAX_VALUE, refused::add);

    assertThat(admission.tryQueueWrites(512)).as("alone, larger than the bound").isTrue();
    assertThat(admission.tryQueueWrites(1)).isFalse();
    admission.writesDequeued(512);
    assertThat(admission.tryQueueWrites(2)).isTrue();
    assertThat(admission.tryQueueWrites(1)).isTrue();
    assertThat(admission.tryQueueWrites(1)).isFalse();
    assertThat(admission.queuedWrites()).isEqualTo(3);
    assertThat(refused)
        .containsExactly(Admission.Limit.QUEUED_WRITES, Admission.Limit.QUEUED_WRITES);
  }

  @Test
  void replyBytesAreReservedPieceByPieceWithinTheBudgetAndGivenBackAllAtOnce() {
    Admission admission = new Admission(10, 10, 100, refused::add);
    ReplyBytes first = admission.replyBytes();
    ReplyBytes second = admission.replyBytes();

    assertThat(first.reserve(60).succeeded()).isTrue();
    assertThat(second.reserve(30).succeeded()).isTrue();
    assertThat(first.reserve(20).cause())
        .isInstanceOfSatisfying(
            ServiceException.class,
            refusal -> assertThat(refusal.code()).isEqualTo(ErrorCode.OVERLOADED));
    assertThat(admission.replyBytesHeld()).as("the refused piece is not held").isEqualTo(90);
    assertThat(refused).containsExactly(Admission.Limit.REPLY_BYTES);

    first.release();
    first.release();
    assertThat(admission.replyBytesHeld()).isEqualTo(30);
    assertThat(second.reserve(70).succeeded()).isTrue();
    second.release();
    assertThat(admission.replyBytesHeld()).isZero();
  }

  @Test
  void aReleasedReservationReservesNothingMoreSoThatWorkOfAnEndedCallStops() {
    Admission admission = new Admission(10, 10, 100, refused::add);
    ReplyBytes bytes = admission.replyBytes();
    assertThat(bytes.reserve(40).succeeded()).isTrue();
    bytes.release();

    assertThat(bytes.reserve(10).cause())
        .isInstanceOfSatisfying(
            ServiceException.class,
            late -> assertThat(late.code()).isEqualTo(ErrorCode.DEADLINE_EXCEEDED));
    bytes.release();
    assertThat(admission.replyBytesHeld()).isZero();
    assertThat(refused).as("the call was over, not refused").isEmpty();
  }

  @Test
  void outsideACallRepliesReserveWithoutBound() {
    ReplyBytes none = ReplyBytes.current();
    assertThat(none.reserve(Long.MAX_VALUE / 2).succeeded()).isTrue();
    assertThat(none.reserve(Long.MAX_VALUE / 2).succeeded()).isTrue();
    none.release();
  }

  @Test
  void aRefusalIsOverloadedAndNamesTheBoundsKey() {
    assertThat(Admission.overloaded(Admission.Limit.CONCURRENT_REQUESTS))
        .satisfies(e -> assertThat(e.code()).isEqualTo(ErrorCode.OVERLOADED))
        .hasMessageContaining("Admission__MaxConcurrentRequests");
    assertThat(Admission.overloaded(Admission.Limit.QUEUED_WRITES))
        .hasMessageContaining("Admission__MaxQueuedWrites");
    assertThat(Admission.overloaded(Admission.Limit.REPLY_BYTES))
        .hasMessageContaining("Admission__MaxReplyBytes");
  }
}
