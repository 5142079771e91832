package org.vfps.storage;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** How many collisions a create tolerates grows with the namespace's fill, and ends when full. */
class CandidateLimitTest {

  @Test
  void aFullNamespaceToleratesNoMoreCollisions() {
    assertThat(PgPseudonymRepository.candidateLimit(256, 256)).isZero();
    assertThat(PgPseudonymRepository.candidateLimit(300, 256)).isZero();
  }

  @Test
  void theFullerTheNamespaceTheMoreCandidatesAreTried() {
    int empty = PgPseudonymRepository.candidateLimit(0, 256);
    int half = PgPseudonymRepository.candidateLimit(128, 256);
    int nearlyFull = PgPseudonymRepository.candidateLimit(239, 256);

    assertThat(empty).isGreaterThan(PgPseudonymRepository.COUNT_AFTER_COLLISIONS);
    assertThat(half).isGreaterThan(empty);
    // a free pseudonym is found in all but one of a million creates: 0.934^k <= 10^-6
    assertThat(Math.pow(239 / 256.0, nearlyFull)).isLessThanOrEqualTo(1e-6);
    assertThat(PgPseudonymRepository.candidateLimit(255, 256))
        .isEqualTo(PgPseudonymRepository.MAX_COLLISIONS);
  }

  @Test
  void aVastSpaceNeedsNoMoreThanTheFirstFewCandidates() {
    assertThat(PgPseudonymRepository.candidateLimit(1_000_000, Math.pow(256, 32)))
        .isEqualTo(PgPseudonymRepository.COUNT_AFTER_COLLISIONS + 1);
    assertThat(PgPseudonymRepository.candidateLimit(1_000_000, Double.POSITIVE_INFINITY))
        .isEqualTo(PgPseudonymRepository.COUNT_AFTER_COLLISIONS + 1);
  }
}
