package org.vfps.alphabet;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Objects;
import java.util.Random;

/**
 * The characters a pseudonym is drawn from, in their order: 2 to 64 distinct characters of
 * printable ASCII without the space ({@code !} to {@code ~}). A character's index in the alphabet
 * is its value for the check digits. Immutable and thread-safe.
 */
public final class Alphabet {

  /** The fewest characters an alphabet may have. */
  public static final int MIN_SIZE = 2;

  /** The most characters an alphabet may have. */
  public static final int MAX_SIZE = 64;

  private static final char FIRST_PRINTABLE = '!';
  private static final char LAST_PRINTABLE = '~';
  private static final int BYTE_VALUES = 256;
  private static final int NOT_IN_ALPHABET = -1;

  private static final ThreadLocal<SecureRandom> RANDOM =
      ThreadLocal.withInitial(SecureRandom::new);

  private final String symbols;
  private final int[] indexByChar = new int[LAST_PRINTABLE + 1];

  /**
   * Byte values below it map onto the alphabet without bias: the largest multiple of the size that
   * fits in a byte.
   */
  private final int acceptBelow;

  private Alphabet(String symbols) {
    this.symbols = symbols;
    Arrays.fill(indexByChar, NOT_IN_ALPHABET);
    for (int i = 0; i < symbols.length(); i++) {
      indexByChar[symbols.charAt(i)] = i;
    }
    this.acceptBelow = BYTE_VALUES - BYTE_VALUES % symbols.length();
  }

  /**
   * The alphabet of {@code symbols}, in their order.
   *
   * @throws IllegalArgumentException if {@code symbols} has fewer than 2 or more than 64
   *     characters, a character outside {@code !} to {@code ~}, or a character twice; the message
   *     says which
   */
  public static Alphabet of(String symbols) {
    Objects.requireNonNull(symbols, "symbols");
    if (symbols.length() < MIN_SIZE || symbols.length() > MAX_SIZE) {
      throw new IllegalArgumentException(
          "The alphabet needs "
              + MIN_SIZE
              + " to "
              + MAX_SIZE
              + " characters; it has "
              + symbols.length()
              + ".");
    }
    for (int i = 0; i < symbols.length(); i++) {
      char c = symbols.charAt(i);
      if (c < FIRST_PRINTABLE || c > LAST_PRINTABLE) {
        throw new IllegalArgumentException(
            String.format(
                "The alphabet's character %d is U+%04X; it may hold only printable ASCII"
                    + " characters from '!' to '~' (no space).",
                i + 1, (int) c));
      }
      int first = symbols.indexOf(c);
      if (first != i) {
        throw new IllegalArgumentException(
            String.format(
                "The alphabet has '%c' twice (characters %d and %d); its characters must be"
                    + " distinct.",
                c, first + 1, i + 1));
      }
    }
    return new Alphabet(symbols);
  }

  /** The characters, in their order. */
  public String symbols() {
    return symbols;
  }

  /** How many characters the alphabet has. */
  public int size() {
    return symbols.length();
  }

  /** The character with value {@code index}, from 0 to {@code size() - 1}. */
  public char symbol(int index) {
    return symbols.charAt(index);
  }

  /** The value of {@code c}, or -1 if the alphabet does not have it. */
  public int indexOf(char c) {
    return c < indexByChar.length ? indexByChar[c] : NOT_IN_ALPHABET;
  }

  /** Whether every character of {@code text} is in the alphabet. */
  public boolean spells(CharSequence text) {
    for (int i = 0; i < text.length(); i++) {
      if (indexOf(text.charAt(i)) == NOT_IN_ALPHABET) {
        return false;
      }
    }
    return true;
  }

  /**
   * {@code count} characters drawn uniformly and independently from the calling thread's {@link
   * SecureRandom}.
   */
  public String draw(int count) {
    return draw(count, RANDOM.get());
  }

  /**
   * {@code count} characters drawn uniformly and independently, each from one byte of {@code
   * random}.
   *
   * <p>A byte has 256 values; mapping it onto the alphabet by its remainder alone would favour the
   * first {@code 256 % size()} characters (for 52 characters, 48 of them by a quarter over the
   * other four). So a byte is used only when it is below the largest multiple of the size that fits
   * in a byte, and is drawn again otherwise (rejection sampling): every accepted byte is then
   * equally likely to give each character. At least 81 % of the bytes are accepted for any size
   * from 2 to 64.
   *
   * @param random the source of the bytes; {@link #draw(int)} passes a {@link SecureRandom}, tests
   *     a seeded one
   * @throws IllegalArgumentException if {@code count} is negative
   */
  public String draw(int count, Random random) {
    if (count < 0) {
      throw new IllegalArgumentException("cannot draw " + count + " characters");
    }
    char[] drawn = new char[count];
    byte[] bytes = new byte[count + count / 4 + 4];
    int filled = 0;
    while (filled < count) {
      random.nextBytes(bytes);
      for (int i = 0; i < bytes.length && filled < count; i++) {
        int value = bytes[i] & 0xFF;
        if (value < acceptBelow) {
          drawn[filled++] = symbols.charAt(value % symbols.length());
        }
      }
    }
    return new String(drawn);
  }

  /** Whether the alphabet is the ten decimal digits in their order, as Damm and Verhoeff need. */
  boolean isDecimalDigits() {
    return symbols.equals("0123456789");
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Alphabet alphabet && alphabet.symbols.equals(symbols);
  }

  @Override
  public int hashCode() {
    return symbols.hashCode();
  }

  @Override
  public String toString() {
    return symbols;
  }
}
