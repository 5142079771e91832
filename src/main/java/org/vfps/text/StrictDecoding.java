package org.vfps.text;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/** Decodes bytes that must be valid in their charset: malformed input is no text, not U+FFFD. */
public final class StrictDecoding {

  private StrictDecoding() {}

  /** The text of {@code bytes}; empty when they are not valid in {@code charset}. */
  public static Optional<String> decode(byte[] bytes, Charset charset) {
    try {
      return Optional.of(
          charset
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes))
              .toString());
    } catch (CharacterCodingException e) {
      return Optional.empty();
    }
  }

  /**
   * The text of a percent-encoded URI component in UTF-8; empty when an escape is malformed or the
   * bytes are no valid UTF-8.
   */
  public static Optional<String> decodePercentEncoded(String component) {
    return percentDecodedBytes(component).flatMap(bytes -> decode(bytes, StandardCharsets.UTF_8));
  }

  /**
   * The bytes a percent-encoded URI component stands for: each escape its byte, each other
   * character its UTF-8 bytes ({@code +} stays a plus sign, unlike form decoding); empty when an
   * escape is malformed (not {@code %} and two hexadecimal digits).
   */
  public static Optional<byte[]> percentDecodedBytes(String component) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(component.length());
    for (int i = 0; i < component.length(); i++) {
      char c = component.charAt(i);
      if (c != '%') {
        bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
        continue;
      }
      int high = i + 2 < component.length() ? Character.digit(component.charAt(i + 1), 16) : -1;
      int low = high >= 0 ? Character.digit(component.charAt(i + 2), 16) : -1;
      if (low < 0) {
        return Optional.empty();
      }
      bytes.write(high * 16 + low);
      i += 2;
    }
    return Optional.of(bytes.toByteArray());
  }
}
