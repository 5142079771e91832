package org.vfps.admission;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

class AdmissionTest {

  private final List<Admission.Limit> refused = new ArrayList<>();

  @Test
  void admitsRequestsUpToTheBoundAndOneMoreOnlyOnceAPlaceIsGivenBack() {
    Admission admission = new Admission(2, 10, Long.MAX_VALUE, refused::add);

    assertThat(admission.tryStartRequest("a")).isEmpty();
    assertThat(admission.tryStartRequest("b")).isEmpty();
    assertThat(admission.tryStartRequest("c")).hasValue(Admission.Limit.CONCURRENT_REQUESTS);
    assertThat(admission.requestsInFlight()).isEqualTo(2);
    assertThat(refused).containsExactly(Admission.Limit.CONCURRENT_REQUESTS);

    admission.endRequest("a");
    assertThat(admission.tryStartRequest("c")).isEmpty();
    assertThat(admission.requestsInFlight()).isEqualTo(2);
  }

  @Test
  void aCallerTakesNoMoreThanItsShareOfRequestsAndLeavesTheRestToOthers() {
    Admission admission =
        new Admission(8, 3, 2, 10, Long.MAX_VALUE, Duration.ofMinutes(1), refused::add);

    for (int i = 0; i < 3; i++) {
      assertThat(admission.tryStartRequest("hog")).isEmpty();
    }
    assertThat(admission.tryStartRequest("hog")).hasValue(Admission.Limit.CALLER_REQUESTS);
    assertThat(admission.tryStartRequest("other")).isEmpty();
    assertThat(admission.requestsInFlight()).as("the refused one holds nothing").isEqualTo(4);
    assertThat(refused).containsExactly(Admission.Limit.CALLER_REQUESTS);

    admission.endRequest("hog");
    assertThat(admission.tryStartRequest("hog")).isEmpty();
  }

  @Test
  void aCallerOpensNoMoreThanItsShareOfStreamsWhichHoldRequestPlacesToo() {
    Admission admission =
        new Admission(8, 3, 2, 10, Long.MAX_VALUE, Duration.ofMinutes(1), refused::add);

    assertThat(admission.tryOpenStream("streamer")).isEmpty();
    assertThat(admission.tryOpenStream("streamer")).isEmpty();
    assertThat(admission.tryOpenStream("streamer")).hasValue(Admission.Limit.CALLER_STREAMS);
    assertThat(admission.requestsInFlight()).isEqualTo(2);
    assertThat(admission.tryStartRequest("streamer")).as("its third place").isEmpty();
    assertThat(admission.tryStartRequest("streamer")).hasValue(Admission.Limit.CALLER_REQUESTS);
    assertThat(admission.tryOpenStream("other")).isEmpty();

    admission.closeStream("streamer");
    assertThat(admission.tryOpenStream("streamer")).isEmpty();
    assertThat(refused)
        .containsExactly(Admission.Limit.CALLER_STREAMS, Admission.Limit.CALLER_REQUESTS);
  }

  @Test
  void aCallerRefusedForTheWholeKeepsNoPlaceOfItsShare() {
    Admission admission = new Admission(2, 2, 2, 10, Long.MAX_VALUE, Duration.ZERO, refused::add);
    assertThat(admission.tryStartRequest("a")).isEmpty();
    assertThat(admission.tryOpenStream("b")).isEmpty();

    assertThat(admission.tryStartRequest("c")).hasValue(Admission.Limit.CONCURRENT_REQUESTS);
    assertThat(admission.tryOpenStream("c")).hasValue(Admission.Limit.CONCURRENT_REQUESTS);
    assertThat(admission.tryStartRequest("a"))
        .as("the replica's bound named first")
        .hasValue(Admission.Limit.CONCURRENT_REQUESTS);
    assertThat(admission.callersHoldingPlaces()).as("a and b").isEqualTo(2);
    admission.endRequest("a");
    admission.closeStream("b");
    assertThat(admission.callersHoldingPlaces()).isZero();
    assertThat(admission.requestsInFlight()).isZero();
  }

  @Test
  void aCallerIsKeptOnlyWhileItHoldsAPlaceHoweverManyComeAndGo() throws Exception {
    Admission admission = new Admission(64, 4, 2, 10, Long.MAX_VALUE, Duration.ZERO, refused::add);
    int threads = 8;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Integer>> admitted = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        admitted.add(
            pool.submit(
                () -> {
                  int count = 0;
                  for (int i = 0; i < 20_000; i++) {
                    // few callers shared by every thread, and many that come once
                    String caller = i % 2 == 0 ? "shared-" + (i % 3) : thread + "-" + i;
                    boolean stream = i % 5 == 0;
                    Optional<Admission.Limit> refusal =
                        stream
                            ? admission.tryOpenStream(caller)
                            : admission.tryStartRequest(caller);
                    if (refusal.isEmpty()) {
                      count++;
                      if (stream) {
                        admission.closeStream(caller);
                      } else {
                        admission.endRequest(caller);
                      }
                    }
                  }
                  return count;
                }));
      }
      for (Future<Integer> done : admitted) {
        assertThat(done.get(1, TimeUnit.MINUTES)).isPositive();
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(admission.callersHoldingPlaces()).isZero();
    assertThat(admission.requestsInFlight()).isZero();
    for (String caller : List.of("shared-0", "shared-1", "shared-2")) {
      for (int i = 0; i < 4; i++) {
        assertThat(admission.tryStartRequest(caller)).as("no place of %s lost", caller).isEmpty();
      }
      assertThat(admission.tryStartRequest(caller)).hasValue(Admission.Limit.CALLER_REQUESTS);
    }
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
    assertThat(Admission.overloaded(Admission.Limit.CALLER_REQUESTS))
        .satisfies(e -> assertThat(e.code()).isEqualTo(ErrorCode.OVERLOADED))
        .hasMessageContaining("Admission__MaxConcurrentRequestsPerCaller");
    assertThat(Admission.overloaded(Admission.Limit.CALLER_STREAMS))
        .hasMessageContaining("Admission__MaxOpenStreamsPerCaller");
    assertThat(Admission.overloaded(Admission.Limit.QUEUED_WRITES))
        .hasMessageContaining("Admission__MaxQueuedWrites");
    assertThat(Admission.overloaded(Admission.Limit.REPLY_BYTES))
        .hasMessageContaining("Admission__MaxReplyBytes");
  }
}
