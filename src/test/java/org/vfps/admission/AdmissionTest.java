package org.vfps.admission;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.vfps.error.ErrorCode;

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
  void aRefusalIsOverloadedAndNamesTheBoundsKey() {
    assertThat(Admission.overloaded(Admission.Limit.CONCURRENT_REQUESTS))
        .satisfies(e -> assertThat(e.code()).isEqualTo(ErrorCode.OVERLOADED))
        .hasMessageContaining("Admission__MaxConcurrentRequests");
    assertThat(Admission.overloaded(Admission.Limit.QUEUED_WRITES))
        .hasMessageContaining("Admission__MaxQueuedWrites");
  }
}
