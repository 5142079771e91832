package org.vfps.pseudonym;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

class PageTokensTest {

  private static final byte[] KEY = new byte[32];
  private final PageTokens tokens = new PageTokens(KEY);
  private final ListCursor cursor =
      new ListCursor(Instant.parse("2026-11-30T10:15:30.123456Z"), "Zoë 👷 patient-4711");

  @Test
  void aTokenDecodesToItsCursor() {
    String token = tokens.encode("ns", cursor);

    assertThat(tokens.decode("ns", token)).isEqualTo(cursor);
    assertThat(token).matches("[A-Za-z0-9_-]+");
  }

  @Test
  void aTokenDoesNotContainTheOriginalValue() {
    byte[] decoded = Base64.getUrlDecoder().decode(tokens.encode("ns", cursor));

    assertThat(new String(decoded, StandardCharsets.ISO_8859_1)).doesNotContain("patient");
    assertThat(new String(decoded, StandardCharsets.UTF_8)).doesNotContain("patient");
  }

  @Test
  void twoTokensForTheSameCursorDiffer() {
    assertThat(tokens.encode("ns", cursor)).isNotEqualTo(tokens.encode("ns", cursor));
  }

  @Test
  void everyChangedByteIsRejected() {
    byte[] token = Base64.getUrlDecoder().decode(tokens.encode("ns", cursor));
    for (int i = 0; i < token.length; i++) {
      byte[] changed = Arrays.copyOf(token, token.length);
      changed[i] ^= 1;
      String tampered = Base64.getUrlEncoder().withoutPadding().encodeToString(changed);
      assertThatThrownBy(() -> tokens.decode("ns", tampered))
          .isInstanceOfSatisfying(
              ServiceException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
    }
  }

  @Test
  void aTokenOfAnotherNamespaceOrKeyIsRejected() {
    String token = tokens.encode("ns", cursor);
    byte[] otherKey = new byte[32];
    otherKey[0] = 1;

    assertThatThrownBy(() -> tokens.decode("other", token)).isInstanceOf(ServiceException.class);
    assertThatThrownBy(() -> new PageTokens(otherKey).decode("ns", token))
        .isInstanceOf(ServiceException.class);
  }

  @Test
  void malformedTokensAreInvalidArgument() {
    for (String bad : new String[] {"!", "AAAA", "a b", "=="}) {
      assertThatThrownBy(() -> tokens.decode("ns", bad))
          .as(bad)
          .isInstanceOfSatisfying(
              ServiceException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
    }
  }
}
