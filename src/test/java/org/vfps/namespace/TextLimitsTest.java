package org.vfps.namespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

class TextLimitsTest {

  @Test
  void utf8LengthMatchesTheEncodedLength() {
    for (String text : new String[] {"", "abc", "Zoë", "€", "👷‍♂️", "患者", "a\u0000b"}) {
      assertThat(TextLimits.utf8Length(text))
          .as(text)
          .isEqualTo(text.getBytes(StandardCharsets.UTF_8).length);
    }
  }

  @Test
  void valuesFitUpToTheLimitInBytes() {
    assertThat(TextLimits.fits("€".repeat(3), 9)).isTrue();
    assertThat(TextLimits.fits("€".repeat(3), 8)).isFalse();
    assertThat(TextLimits.fits("a\0", 10)).isFalse();
  }

  @Test
  void checkNamesTheFieldButNeverTheValue() {
    assertThatThrownBy(() -> TextLimits.check("original value", "secret-x", 4, Map.of()))
        .isInstanceOfSatisfying(
            ServiceException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
              assertThat(e.getMessage()).contains("original value").doesNotContain("secret");
            });
  }
}
