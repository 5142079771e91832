package org.vfps.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The REST and FHIR edges read a Content-Type header and decode a body one way. */
class MediaTypeTest {

  @Test
  void theTypeIsLowerCaseWithoutParameters() {
    assertThat(MediaType.of(" Application/FHIR+JSON ; charset=utf-8").type())
        .isEqualTo("application/fhir+json");
    assertThat(MediaType.of("application/json").type()).isEqualTo("application/json");
    assertThat(MediaType.of("").type()).isEmpty();
  }

  @Test
  void aParameterIsFoundWhateverTheCaseOfItsNameAndUnquoted() {
    assertThat(MediaType.of("application/json; Charset=\"UTF-16LE\"").charset())
        .contains("UTF-16LE");
    assertThat(MediaType.of("application/json;q=1; charset=utf8").charset()).contains("utf8");
    assertThat(MediaType.of("application/json").charset()).isEmpty();
    assertThat(MediaType.of("application/json; =utf-8").charset()).isEmpty();
  }

  @Test
  void bytesNotValidInTheirCharsetAreNoText() {
    assertThat(StrictDecoding.decode("é".getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8))
        .contains("é");
    assertThat(StrictDecoding.decode(new byte[] {(byte) 0xC3}, StandardCharsets.UTF_8)).isEmpty();
    assertThat(StrictDecoding.decode(new byte[] {(byte) 0xC0, (byte) 0x80}, StandardCharsets.UTF_8))
        .isEmpty();
  }

  @Test
  void aPercentEncodedComponentIsTextOnlyWhenItsEscapesSpellUtf8() {
    assertThat(StrictDecoding.decodePercentEncoded("https%3A%2F%2Fexample.org%2F%C3%A9"))
        .contains("https://example.org/é");
    assertThat(StrictDecoding.decodePercentEncoded("/ui/csv")).contains("/ui/csv");
    assertThat(StrictDecoding.decodePercentEncoded("%E0%A4")).isEmpty();
    assertThat(StrictDecoding.decodePercentEncoded("%C3")).isEmpty();
    assertThat(StrictDecoding.decodePercentEncoded("100%")).isEmpty();
    assertThat(StrictDecoding.decodePercentEncoded("%zz")).isEmpty();
  }

  @Test
  void percentDecodedBytesKeepPlusSignsAndAnyBytesButRefuseMalformedEscapes() {
    assertThat(StrictDecoding.percentDecodedBytes("a+b%20é%C3"))
        .hasValueSatisfying(
            bytes -> assertThat(bytes).containsExactly('a', '+', 'b', ' ', 0xC3, 0xA9, 0xC3));
    assertThat(StrictDecoding.percentDecodedBytes("%2")).isEmpty();
    assertThat(StrictDecoding.percentDecodedBytes("%g0")).isEmpty();
    assertThat(StrictDecoding.percentDecodedBytes("%0g")).isEmpty();
  }
}
