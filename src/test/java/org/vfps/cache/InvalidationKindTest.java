package org.vfps.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

class InvalidationKindTest {

  @Test
  void namesEachKindAsTheLogsKindColumnHoldsIt() {
    assertThat(Invalidation.Kind.NAMESPACE.stored()).isEqualTo("namespace");
    assertThat(Invalidation.Kind.PSEUDONYMS.stored()).isEqualTo("pseudonyms");
    assertThat(Invalidation.Kind.ACCESS.stored()).isEqualTo("access");
    for (Invalidation.Kind kind : Invalidation.Kind.values()) {
      assertThat(Invalidation.Kind.of(kind.stored())).isSameAs(kind);
    }
  }

  @Test
  void refusesAKindTheLogNeverHeld() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Invalidation.Kind.of("grants"))
        .withMessage("unknown invalidation kind 'grants'");
  }
}
