package org.vfps.pseudonym;

import java.util.Optional;
import org.vfps.alphabet.AlphabetFormat;
import org.vfps.namespace.GenerationMethod;
import org.vfps.namespace.Namespace;

/**
 * The format of a namespace's pseudonyms, as its generator writes them: the namespace's prefix, a
 * core of the length and alphabet its generation method fixes, and its suffix. A pseudonym made
 * elsewhere (an imported one) is stored only when it fits, so that a namespace holds no value its
 * own method could not have made, such as a formula. {@code PseudonymFormatTest} holds each
 * generator to it.
 */
public final class PseudonymFormat {

  private PseudonymFormat() {}

  /**
   * Whether {@code pseudonym} has the format of the namespace's pseudonyms exactly as its generator
   * writes it (for an alphabet namespace: with its group delimiters).
   */
  public static boolean fits(Namespace namespace, String pseudonym) {
    return pseudonym.equals(toImport(namespace, pseudonym).stored());
  }

  /**
   * A pseudonym made elsewhere as the namespace stores it, or why it cannot be stored.
   *
   * @param stored the pseudonym as its namespace's generator writes it; null when refused
   * @param refusal null when stored
   */
  record Imported(String stored, ImportStatus refusal) {}

  /**
   * What an import makes of {@code pseudonym}: a pseudonym of the namespace's format is stored as
   * its generator writes it, so one of an alphabet namespace given without its group delimiters is
   * stored with them (and a lookup of either form finds it). Refused are: one without the prefix
   * and suffix, or with a core the method could not make ({@link
   * ImportStatus#INVALID_PSEUDONYM_VALUE}); of an alphabet namespace, one with a character that is
   * neither of its alphabet nor of its group delimiter ({@link
   * ImportStatus#PSEUDONYM_OUTSIDE_ALPHABET}) and one whose check digit does not match the
   * characters before it ({@link ImportStatus#PSEUDONYM_CHECK_DIGIT_MISMATCH}).
   */
  static Imported toImport(Namespace namespace, String pseudonym) {
    String prefix = namespace.pseudonymPrefix();
    String suffix = namespace.pseudonymSuffix();
    if (pseudonym.length() < prefix.length() + suffix.length()
        || !pseudonym.startsWith(prefix)
        || !pseudonym.endsWith(suffix)) {
      return new Imported(null, ImportStatus.INVALID_PSEUDONYM_VALUE);
    }
    String core = pseudonym.substring(prefix.length(), pseudonym.length() - suffix.length());
    AlphabetFormat format = namespace.alphabetFormat();
    if (format == null) {
      return fitsCore(namespace.generationMethod(), namespace.pseudonymLength(), core)
          ? new Imported(pseudonym, null)
          : new Imported(null, ImportStatus.INVALID_PSEUDONYM_VALUE);
    }
    return switch (format.verdict(core)) {
      // stored as its generator writes it, so that a lookup of the canonical form finds it
      case FITS -> new Imported(prefix + format.canonical(core).orElseThrow() + suffix, null);
      case CHECK_DIGIT_MISMATCH -> new Imported(null, ImportStatus.PSEUDONYM_CHECK_DIGIT_MISMATCH);
      case MALFORMED ->
          new Imported(
              null,
              outsideAlphabet(format, core)
                  ? ImportStatus.PSEUDONYM_OUTSIDE_ALPHABET
                  : ImportStatus.INVALID_PSEUDONYM_VALUE);
    };
  }

  /** Whether {@code core} has a character that is neither of the alphabet nor of a delimiter. */
  private static boolean outsideAlphabet(AlphabetFormat format, String core) {
    String delimiter = format.grouping().delimiter();
    return !format.alphabet().spells(delimiter.isEmpty() ? core : core.replace(delimiter, ""));
  }

  /**
   * The form of {@code pseudonym} to look up in the namespace, or empty when the pseudonym was
   * mistyped: for a namespace with an alphabet format, a pseudonym of that format is looked up as
   * its generator writes it (so one typed without its group delimiters is found), and one that has
   * the format's shape but a check digit that does not match its other characters is refused before
   * any lookup. Any other value is looked up as it is, and is not found.
   */
  static Optional<String> lookupForm(Namespace namespace, String pseudonym) {
    AlphabetFormat format = namespace.alphabetFormat();
    String prefix = namespace.pseudonymPrefix();
    String suffix = namespace.pseudonymSuffix();
    if (format == null
        || pseudonym == null
        || pseudonym.length() < prefix.length() + suffix.length()
        || !pseudonym.startsWith(prefix)
        || !pseudonym.endsWith(suffix)) {
      return Optional.ofNullable(pseudonym);
    }
    String core = pseudonym.substring(prefix.length(), pseudonym.length() - suffix.length());
    return switch (format.verdict(core)) {
      case FITS -> Optional.of(prefix + format.canonical(core).orElseThrow() + suffix);
      case MALFORMED -> Optional.of(pseudonym);
      case CHECK_DIGIT_MISMATCH -> Optional.empty();
    };
  }

  /** Whether {@code core} is one the method could generate for the namespace's length. */
  static boolean fitsCore(GenerationMethod method, long length, String core) {
    return switch (method) {
      // base64url without padding of the 8-byte header and the random bytes
      case UNSPECIFIED, SECURE_RANDOM_BASE64URL_ENCODED ->
          core.length() == (4 * (SecureRandomBase64UrlGenerator.HEADER_BYTES + length) + 2) / 3
              && all(core, 0, core.length(), PseudonymFormat::base64Url);
      case SHA256_HEX_ENCODED ->
          core.length() == 64 && all(core, 0, 64, c -> digit(c) || (c >= 'A' && c <= 'F'));
      case UUID4, UUID7 -> uuid(core);
      case FULL_RANDOM_HEX_ENCODED ->
          core.length() == length && all(core, 0, core.length(), PseudonymFormat::lowerHex);
      case FULL_RANDOM_BASE62_ENCODED ->
          core.length() == length && all(core, 0, core.length(), c -> digit(c) || letter(c));
      case FULL_RANDOM_BASE32_ENCODED ->
          core.length() == length
              && all(core, 0, core.length(), c -> (c >= 'A' && c <= 'Z') || (c >= '2' && c <= '7'));
      case VOPRF -> voprf(length, core);
      // its format is the namespace's, read in fits
      case X_SECURE_RANDOM_ALPHABET -> false;
    };
  }

  /** Lower-case canonical form, 8-4-4-4-12 hex digits. */
  private static boolean uuid(String core) {
    if (core.length() != 36) {
      return false;
    }
    for (int i = 0; i < 36; i++) {
      char c = core.charAt(i);
      boolean hyphen = i == 8 || i == 13 || i == 18 || i == 23;
      if (hyphen ? c != '-' : !lowerHex(c)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The output in base64url or hex (a subset), {@code length} characters, after an optional key id
   * of {@code A-Z a-z 0-9 _ -} and its separator {@code .}.
   */
  private static boolean voprf(long length, String core) {
    if (length > core.length()) {
      return false;
    }
    int output = core.length() - (int) length;
    if (!all(core, output, core.length(), PseudonymFormat::base64Url)) {
      return false;
    }
    if (output == 0) {
      return true;
    }
    int separator = output - 1;
    return separator >= 1
        && separator <= 64
        && core.charAt(separator) == '.'
        && all(core, 0, separator, PseudonymFormat::base64Url);
  }

  private interface CharTest {
    boolean test(char c);
  }

  private static boolean all(String text, int from, int to, CharTest test) {
    for (int i = from; i < to; i++) {
      if (!test.test(text.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  private static boolean digit(char c) {
    return c >= '0' && c <= '9';
  }

  private static boolean letter(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
  }

  private static boolean lowerHex(char c) {
    return digit(c) || (c >= 'a' && c <= 'f');
  }

  private static boolean base64Url(char c) {
    return digit(c) || letter(c) || c == '-' || c == '_';
  }
}
