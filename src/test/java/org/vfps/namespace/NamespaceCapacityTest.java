package org.vfps.namespace;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** When a namespace is full, and how its figures are written. */
class NamespaceCapacityTest {

  @Test
  void aNamespaceIsFullFromNinetyPercentOfWhatItsSettingsMake() {
    assertThat(new NamespaceCapacity(10_000, 8_999).full()).isFalse();
    assertThat(new NamespaceCapacity(10_000, 9_000).full()).isTrue();
    assertThat(new NamespaceCapacity(10_000, 10_000).full()).isTrue();
    // 90 % of 256 is 230.4
    assertThat(new NamespaceCapacity(256, 230).full()).isFalse();
    assertThat(new NamespaceCapacity(256, 231).full()).isTrue();
  }

  @Test
  void aDerivedOrAnEndlessSpaceIsNeverFull() {
    assertThat(new NamespaceCapacity(1, 5_000_000).full()).isFalse();
    assertThat(new NamespaceCapacity(Double.POSITIVE_INFINITY, Long.MAX_VALUE).full()).isFalse();
  }

  @Test
  void figuresAreWrittenWithThousandsSeparatorsOrAsPowersWhenHuge() {
    assertThat(NamespaceCapacity.figure(900)).isEqualTo("900");
    assertThat(NamespaceCapacity.figure(10_000)).isEqualTo("10,000");
    assertThat(NamespaceCapacity.figure(Math.pow(32, 6))).isEqualTo("1,073,741,824");
    assertThat(NamespaceCapacity.figure(Math.pow(2, 122))).isEqualTo("5.32e+36");
    assertThat(NamespaceCapacity.figure(Double.POSITIVE_INFINITY)).isEqualTo("infinitely many");
  }
}
