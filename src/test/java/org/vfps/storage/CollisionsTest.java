package org.vfps.storage;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/** A run of collisions ends in a refusal once the count finds the namespace full. */
class CollisionsTest {

  private static Collisions afterARun() {
    Collisions collisions = new Collisions();
    while (collisions.mayTryAnother()) {
      collisions.seenAnother();
    }
    return collisions;
  }

  @Test
  void aNamespaceAtNinetyPercentIsRefusedAtOnceWithItsFigures() {
    Collisions collisions = afterARun();

    collisions.counted(9_000, 10_000);

    assertThat(collisions.mayTryAnother()).isFalse();
    ServiceException refused = collisions.exhausted("digits", null);
    assertThat(refused.code()).isEqualTo(ErrorCode.RESOURCE_EXHAUSTED);
    assertThat(refused.getMessage())
        .isEqualTo(
            "The namespace 'digits' is full: it holds 9,000 of the 10,000 pseudonyms its settings"
                + " make, and new values are refused from 90 % on. Create a namespace with a longer"
                + " pseudonym length for further values.");
    assertThat(refused.metadata()).containsEntry("namespace", "digits");
  }

  @Test
  void aNamespaceBelowNinetyPercentTriesMoreCandidates() {
    Collisions collisions = afterARun();

    collisions.counted(8_999, 10_000);

    assertThat(collisions.mayTryAnother()).isTrue();
  }

  @Test
  void aRunOfCollisionsInANearlyEmptyNamespaceIsNoFullNamespace() {
    Collisions collisions = afterARun();
    collisions.counted(10, 10_000);
    while (collisions.mayTryAnother()) {
      collisions.seenAnother();
    }

    assertThat(collisions.exhausted("digits", null).code()).isEqualTo(ErrorCode.INTERNAL);
  }
}
