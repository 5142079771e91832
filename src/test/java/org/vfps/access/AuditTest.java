package org.vfps.access;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What the audit trail writes of values a client chose. */
class AuditTest {

  @Test
  void valuesCannotEndALineOrFakeAField() {
    assertThat(Audit.safe("plain-name_1 ü")).isEqualTo("plain-name_1 ü");
    assertThat(Audit.safe("a\"b\\c\nd\u0000e\u2028"))
        .isEqualTo("a\\\"b\\\\c\\u000ad\\u0000e\\u2028");
  }
}
