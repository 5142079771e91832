package org.vfps.storage;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** How many collisions a create tolerates grows with the namespace's fill, and ends when full. */
class CandidateLimitTest {

  @Test
  void aFullNamespaceToleratesNoMoreCollisions() {
    assertThat(Collisions.candidateLimit(256, 256)).isZero();
    assertThat(Collisions.candidateLimit(300, 256)).isZero();
  }

  @Test
  void theFullerTheNamespaceTheMoreCandidatesAreTried() {
    int empty = Collisions.candidateLimit(0, 256);
    int half = Collisions.candidateLimit(128, 256);
    int nearlyFull = Collisions.candidateLimit(239, 256);

    assertThat(empty).isGreaterThan(Collisions.COUNT_AFTER_COLLISIONS);
    assertThat(half).isGreaterThan(empty);
    // a free pseudonym is found in all but one of a million creates: 0.934^k <= 10^-6
    assertThat(Math.pow(239 / 256.0, nearlyFull)).isLessThanOrEqualTo(1e-6);
    assertThat(Collisions.candidateLimit(255, 256)).isEqualTo(Collisions.MAX_COLLISIONS);
  }

  @Test
  void aVastSpaceNeedsNoMoreThanTheFirstFewCandidates() {
    assertThat(Collisions.candidateLimit(1_000_000, Math.pow(256, 32)))
        .isEqualTo(Collisions.COUNT_AFTER_COLLISIONS + 1);
    assertThat(Collisions.candidateLimit(1_000_000, Double.POSITIVE_INFINITY))
        .isEqualTo(Collisions.COUNT_AFTER_COLLISIONS + 1);
  }
}
