package org.vfps.text;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
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
}
