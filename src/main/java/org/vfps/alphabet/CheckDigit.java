package org.vfps.alphabet;

/**
 * A check digit scheme over an alphabet: one character appended to the drawn ones, computed from
 * them, so that a mistyped pseudonym is caught. Implementations are immutable and thread-safe.
 */
public interface CheckDigit {

  /** Which scheme this is. */
  CheckDigitKind kind();

  /** The alphabet the drawn characters and the check digit come from. */
  Alphabet alphabet();

  /**
   * The check digit of {@code drawn}, to append to it.
   *
   * @throws IllegalArgumentException if {@code drawn} is empty or has a character outside the
   *     alphabet
   */
  char compute(String drawn);

  /**
   * Whether the last character of {@code withCheckDigit} is the check digit of the ones before it;
   * false for fewer than two characters or any character outside the alphabet.
   */
  default boolean isValid(String withCheckDigit) {
    int last = withCheckDigit.length() - 1;
    return last >= 1
        && alphabet().spells(withCheckDigit)
        && compute(withCheckDigit.substring(0, last)) == withCheckDigit.charAt(last);
  }

  /**
   * The values of {@code drawn}'s characters in {@code alphabet}, checked as {@link #compute} says.
   */
  static int[] values(Alphabet alphabet, String drawn) {
    if (drawn.isEmpty()) {
      throw new IllegalArgumentException("a check digit needs at least one drawn character");
    }
    int[] values = new int[drawn.length()];
    for (int i = 0; i < values.length; i++) {
      values[i] = alphabet.indexOf(drawn.charAt(i));
      if (values[i] < 0) {
        throw new IllegalArgumentException(
            String.format(
                "character %d of the drawn characters (U+%04X) is not in the alphabet",
                i + 1, (int) drawn.charAt(i)));
      }
    }
    return values;
  }
}
