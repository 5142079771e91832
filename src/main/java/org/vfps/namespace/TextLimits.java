package org.vfps.namespace;

import java.util.Map;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/**
 * The size limits of stored text. They keep every value within PostgreSQL's index row limit (about
 * 2,700 bytes), so that no value fails deep in the database, and reject NUL, which PostgreSQL text
 * cannot hold.
 */
public final class TextLimits {

  /** Namespace names, in UTF-8 bytes. */
  public static final int MAX_NAME_BYTES = 256;

  /** Original values, in UTF-8 bytes. */
  public static final int MAX_ORIGINAL_VALUE_BYTES = 2048;

  /** Pseudonym prefixes and suffixes, each, in UTF-8 bytes. */
  public static final int MAX_AFFIX_BYTES = 256;

  /** Namespace descriptions, in UTF-8 bytes. */
  public static final int MAX_DESCRIPTION_BYTES = 4096;

  /** Original value validation regexes, in UTF-8 bytes. */
  public static final int MAX_REGEX_BYTES = 1024;

  /** The core pseudonym length a namespace may ask for. */
  public static final long MAX_PSEUDONYM_LENGTH = 1024;

  private TextLimits() {}

  /**
   * Fails with {@code INVALID_ARGUMENT} if the value contains NUL or is longer than {@code
   * maxBytes} in UTF-8; the message names the field, never the value.
   */
  public static void check(String field, String value, int maxBytes, Map<String, String> metadata) {
    if (value.indexOf('\0') >= 0) {
      throw new ServiceException(
          ErrorCode.INVALID_ARGUMENT,
          "The " + field + " must not contain NUL characters.",
          metadata);
    }
    if (!fits(value, maxBytes)) {
      throw new ServiceException(
          ErrorCode.INVALID_ARGUMENT,
          "The " + field + " must not be longer than " + maxBytes + " bytes in UTF-8.",
          metadata);
    }
  }

  /** Whether the value could have been stored: no NUL, at most {@code maxBytes} in UTF-8. */
  public static boolean fits(String value, int maxBytes) {
    return value.indexOf('\0') < 0
        && (value.length() <= maxBytes / 3 || utf8Length(value) <= maxBytes);
  }

  /** The length of the value in UTF-8 bytes, without encoding it. */
  static int utf8Length(String value) {
    int bytes = 0;
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 0x80) {
        bytes += 1;
      } else if (c < 0x800) {
        bytes += 2;
      } else if (Character.isHighSurrogate(c)) {
        bytes += 4;
        i++;
      } else {
        bytes += 3;
      }
    }
    return bytes;
  }
}
