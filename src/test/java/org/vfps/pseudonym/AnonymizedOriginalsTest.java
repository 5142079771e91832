package org.vfps.pseudonym;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AnonymizedOriginalsTest {

  @Test
  void anAnonymizedValueIsBlankSoThatNoCreatableValueEqualsIt() {
    String anonymized = AnonymizedOriginals.next();

    assertThat(anonymized).hasSize(128).isBlank().containsOnlyWhitespaces();
    assertThat(anonymized.chars()).allMatch(c -> c == ' ' || c == '\t');
    assertThat(PseudonymService.isStorable(anonymized)).isFalse();
    assertThat(AnonymizedOriginals.is(anonymized)).isTrue();
  }

  @Test
  void everyAnonymizedValueIsNewAndOnlyBlankValuesCountAsAnonymized() {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < 1000; i++) {
      seen.add(AnonymizedOriginals.next());
    }

    assertThat(seen).hasSize(1000);
    assertThat(AnonymizedOriginals.is("patient-1")).isFalse();
    assertThat(AnonymizedOriginals.is(" patient ")).isFalse();
    assertThat(AnonymizedOriginals.is(null)).isFalse();
  }
}
