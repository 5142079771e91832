package org.vfps.alphabet;

import java.util.Objects;
import java.util.Optional;

/**
 * How a pseudonym's characters are written in groups: a delimiter after every {@code size}
 * characters but the last group's; size 0 writes them in one piece. Immutable.
 *
 * @param size the characters per group, 0 for none
 * @param delimiter what stands between two groups; empty exactly when {@code size} is 0
 */
public record Grouping(int size, String delimiter) {

  /** No groups. */
  public static final Grouping NONE = new Grouping(0, "");

  /** The longest delimiter. */
  public static final int MAX_DELIMITER_LENGTH = 8;

  /**
   * Checks the settings.
   *
   * @throws IllegalArgumentException if {@code size} is negative; if it is 0 and {@code delimiter}
   *     is not empty, or positive and {@code delimiter} is empty, longer than 8 characters or has a
   *     character outside printable ASCII (space to {@code ~})
   */
  public Grouping {
    Objects.requireNonNull(delimiter, "delimiter");
    if (size < 0) {
      throw new IllegalArgumentException("The group size is " + size + "; it must be 0 or more.");
    }
    if (size == 0 && !delimiter.isEmpty()) {
      throw new IllegalArgumentException(
          "A group delimiter needs a group size: set group_size, or leave group_delimiter empty.");
    }
    if (size > 0 && (delimiter.isEmpty() || delimiter.length() > MAX_DELIMITER_LENGTH)) {
      throw new IllegalArgumentException(
          "The group delimiter has "
              + delimiter.length()
              + " characters; groups need 1 to "
              + MAX_DELIMITER_LENGTH
              + ".");
    }
    if (!delimiter.chars().allMatch(c -> c >= ' ' && c <= '~')) {
      throw new IllegalArgumentException(
          "The group delimiter may hold only printable ASCII characters (space to '~').");
    }
  }

  /** {@code characters} with the delimiter between its groups. */
  public String format(String characters) {
    if (size == 0 || characters.length() <= size) {
      return characters;
    }
    StringBuilder grouped =
        new StringBuilder(characters.length() + delimiter.length() * (characters.length() / size));
    for (int start = 0; start < characters.length(); start += size) {
      if (start > 0) {
        grouped.append(delimiter);
      }
      grouped.append(characters, start, Math.min(start + size, characters.length()));
    }
    return grouped.toString();
  }

  /**
   * The characters of {@code written}, which holds {@code length} of them either as {@link #format}
   * writes them or without any delimiter; empty if it is neither (a delimiter missing, misplaced or
   * doubled, or the wrong number of characters).
   */
  public Optional<String> parse(String written, int length) {
    if (written.length() == length) {
      return size == 0 || !written.contains(delimiter) ? Optional.of(written) : Optional.empty();
    }
    if (size == 0 || length <= size) {
      return Optional.empty();
    }
    int delimiters = (length - 1) / size;
    if (written.length() != length + delimiters * delimiter.length()) {
      return Optional.empty();
    }
    StringBuilder characters = new StringBuilder(length);
    int at = 0;
    for (int group = 0; group <= delimiters; group++) {
      if (group > 0) {
        if (!written.startsWith(delimiter, at)) {
          return Optional.empty();
        }
        at += delimiter.length();
      }
      int groupLength = Math.min(size, length - group * size);
      String groupText = written.substring(at, at + groupLength);
      if (groupText.contains(delimiter)) {
        return Optional.empty();
      }
      characters.append(groupText);
      at += groupLength;
    }
    return Optional.of(characters.toString());
  }
}
