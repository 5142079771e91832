package org.vfps.pseudonym;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.namespace.TextLimits;

class PageTokensTest {

  private static final byte[] KEY = new byte[32];
  private final PageTokens tokens = new PageTokens(KEY);
  private final ListCursor cursor =
      new ListCursor(Instant.parse("2026-11-30T10:15:30.123456Z"), "Zoë 👷 patient-4711", 0);

  @Test
  void aTokenDecodesToItsCursor() {
    String token = tokens.encode("ns", cursor);

    assertThat(tokens.decode("ns", token)).isEqualTo(cursor);
    assertThat(token).matches("[A-Za-z0-9_-]+");
  }

  @Test
  void aTokenKeepsTheSequenceNumber() {
    for (long sequenceNumber : new long[] {1, 2, 255, Long.MAX_VALUE}) {
      ListCursor sequenced = new ListCursor(cursor.createdAt(), "a", sequenceNumber);

      assertThat(tokens.decode("ns", tokens.encode("ns", sequenced))).isEqualTo(sequenced);
    }
  }

  /**
   * A token of the versions from before sequence numbers: the time and the original value, sealed
   * the same way. It points at sequence number 0.
   */
  @Test
  void aTokenFromBeforeSequenceNumbersPointsAtSequenceNumberZero() throws Exception {
    for (String original : new String[] {"", "a", "nine-byte", "Zoë 👷 patient-4711"}) {
      byte[] value = original.getBytes(StandardCharsets.UTF_8);
      ByteBuffer plain = ByteBuffer.allocate(Long.BYTES + value.length);
      plain.putLong(ChronoUnit.MICROS.between(Instant.EPOCH, cursor.createdAt())).put(value);
      ListCursor decoded = tokens.decode("ns", sealUnpadded(plain.array()));

      assertThat(decoded).isEqualTo(new ListCursor(cursor.createdAt(), original, 0));
    }
  }

  /**
   * A token of the versions before padding: the time, the original value and, for a sequence number
   * other than 0, the mark byte 0xFF and the sequence number. It still reads.
   */
  @Test
  void aTokenFromBeforePaddingStillReads() throws Exception {
    ByteBuffer plain = ByteBuffer.allocate(Long.BYTES + 3 + 1 + Long.BYTES);
    plain
        .putLong(ChronoUnit.MICROS.between(Instant.EPOCH, cursor.createdAt()))
        .put("abc".getBytes(StandardCharsets.UTF_8))
        .put((byte) 0xFF)
        .putLong(7);

    assertThat(tokens.decode("ns", sealUnpadded(plain.array())))
        .isEqualTo(new ListCursor(cursor.createdAt(), "abc", 7));
  }

  @Test
  void tokensOfTheShortestAndTheLongestValuesHaveOneLength() {
    int max = TextLimits.MAX_ORIGINAL_VALUE_BYTES;
    List<String> originals =
        List.of(
            "a",
            "é",
            "patient-4711",
            "x".repeat(max / 2),
            "x".repeat(max - 1),
            "x".repeat(max),
            "é".repeat(max / 2),
            "👷".repeat(max / 4));
    Set<Integer> lengths = new HashSet<>();
    for (String original : originals) {
      for (long sequenceNumber : new long[] {0, 1, Long.MAX_VALUE}) {
        ListCursor each = new ListCursor(cursor.createdAt(), original, sequenceNumber);
        String token = tokens.encode("ns", each);

        assertThat(tokens.decode("ns", token)).isEqualTo(each);
        lengths.add(token.length());
      }
    }

    assertThat(lengths).as("token lengths").hasSize(1);
  }

  /**
   * The .NET vfps stored values of any length; a value longer than vfps accepts still pages, its
   * token padded to a whole number of the longest values' size.
   */
  @Test
  void aValueLongerThanTheLimitStillMakesAToken() {
    int max = TextLimits.MAX_ORIGINAL_VALUE_BYTES;
    int ordinary = tokens.encode("ns", cursor).length();
    ListCursor longer = new ListCursor(cursor.createdAt(), "y".repeat(max + 1), 3);
    ListCursor longest = new ListCursor(cursor.createdAt(), "y".repeat(2 * max), 3);

    String token = tokens.encode("ns", longer);

    assertThat(tokens.decode("ns", token)).isEqualTo(longer);
    assertThat(token.length()).isGreaterThan(ordinary);
    assertThat(tokens.encode("ns", longest)).hasSameSizeAs(token);
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

  /** A token as the versions before padding sealed it: with the namespace alone as the AAD. */
  private static String sealUnpadded(byte[] plain) throws Exception {
    byte[] nonce = new byte[12];
    Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
    cipher.init(
        Cipher.ENCRYPT_MODE, new SecretKeySpec(KEY, "AES"), new GCMParameterSpec(128, nonce));
    cipher.updateAAD("ns".getBytes(StandardCharsets.UTF_8));
    byte[] sealed = cipher.doFinal(plain);
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(ByteBuffer.allocate(12 + sealed.length).put(nonce).put(sealed).array());
  }
}
