package org.vfps.alphabet;

import java.util.Objects;
import java.util.Optional;

/**
 * The written form of an alphabet namespace's pseudonym core (its prefix and suffix go around it):
 * {@code drawnLength} characters drawn from the alphabet, the check digit appended to them if the
 * namespace has one, and the whole written in groups. Immutable and thread-safe.
 */
public final class AlphabetFormat {

  /** What {@link #verdict} found in a written pseudonym core. */
  public enum Verdict {
    /** It is a core of this format: the right characters, grouped or not, and its check digit. */
    FITS,
    /** Its length, a character or its grouping does not fit the format. */
    MALFORMED,
    /** It is shaped right but its check digit is not the one of its drawn characters. */
    CHECK_DIGIT_MISMATCH
  }

  private final Alphabet alphabet;
  private final CheckDigitKind checkDigitKind;
  private final Optional<CheckDigit> checkDigit;
  private final Grouping grouping;
  private final int drawnLength;

  private AlphabetFormat(
      Alphabet alphabet,
      CheckDigitKind checkDigitKind,
      Optional<CheckDigit> checkDigit,
      Grouping grouping,
      int drawnLength) {
    this.alphabet = alphabet;
    this.checkDigitKind = checkDigitKind;
    this.checkDigit = checkDigit;
    this.grouping = grouping;
    this.drawnLength = drawnLength;
  }

  /**
   * The format of these settings, the API's {@code PseudonymFormat} and the namespace's {@code
   * pseudonym_length}.
   *
   * @throws IllegalArgumentException with a message for the caller if the alphabet, the check
   *     digit's fit to it, the grouping or the length is not allowed, or the delimiter has a
   *     character of the alphabet (then a pseudonym without delimiters could not be told apart)
   */
  public static AlphabetFormat of(
      String alphabet,
      CheckDigitKind checkDigitKind,
      int groupSize,
      String groupDelimiter,
      int drawnLength) {
    Alphabet symbols = Alphabet.of(alphabet);
    Optional<CheckDigit> checkDigit = Objects.requireNonNull(checkDigitKind).over(symbols);
    Grouping grouping = new Grouping(groupSize, groupDelimiter);
    for (int i = 0; i < groupDelimiter.length(); i++) {
      if (symbols.indexOf(groupDelimiter.charAt(i)) >= 0) {
        throw new IllegalArgumentException(
            "The group delimiter has '"
                + groupDelimiter.charAt(i)
                + "', which is in the alphabet; it must use other characters.");
      }
    }
    if (drawnLength < 1) {
      throw new IllegalArgumentException(
          "The pseudonym length is " + drawnLength + "; it must be at least 1.");
    }
    return new AlphabetFormat(symbols, checkDigitKind, checkDigit, grouping, drawnLength);
  }

  public Alphabet alphabet() {
    return alphabet;
  }

  public CheckDigitKind checkDigitKind() {
    return checkDigitKind;
  }

  public Grouping grouping() {
    return grouping;
  }

  /** The characters drawn per pseudonym, the namespace's {@code pseudonym_length}. */
  public int drawnLength() {
    return drawnLength;
  }

  /** The characters of a core without its delimiters: the drawn ones and the check digit. */
  public int characters() {
    return drawnLength + (checkDigit.isPresent() ? 1 : 0);
  }

  /** How many different cores the format can make: the alphabet's size to the drawn length. */
  public double distinctPseudonyms() {
    return Math.pow(alphabet.size(), drawnLength);
  }

  /** A new core drawn from the calling thread's {@code SecureRandom}, written out. */
  public String generate() {
    return write(alphabet.draw(drawnLength));
  }

  /**
   * The core of {@code drawn}: its check digit appended, in groups.
   *
   * @throws IllegalArgumentException if {@code drawn} is not {@link #drawnLength()} characters of
   *     the alphabet
   */
  public String write(String drawn) {
    if (drawn.length() != drawnLength || !alphabet.spells(drawn)) {
      throw new IllegalArgumentException(
          "expected " + drawnLength + " characters of the alphabet, got " + drawn.length());
    }
    return grouping.format(checkDigit.map(check -> drawn + check.compute(drawn)).orElse(drawn));
  }

  /** Whether {@code written}, grouped as {@link #write} writes it or not at all, fits. */
  public Verdict verdict(String written) {
    Optional<String> characters = grouping.parse(written, characters());
    if (characters.isEmpty() || !alphabet.spells(characters.get())) {
      return Verdict.MALFORMED;
    }
    return checkDigit.isEmpty() || checkDigit.get().isValid(characters.get())
        ? Verdict.FITS
        : Verdict.CHECK_DIGIT_MISMATCH;
  }

  /**
   * {@code written} as {@link #write} writes it (the form to look up), if its {@link #verdict} is
   * {@link Verdict#FITS}.
   */
  public Optional<String> canonical(String written) {
    return verdict(written) == Verdict.FITS
        ? grouping.parse(written, characters()).map(grouping::format)
        : Optional.empty();
  }
}
