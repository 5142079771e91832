package org.vfps.alphabet;

import java.util.Locale;
import java.util.Optional;

/**
 * The check digit of an alphabet namespace, one constant per value of the API's {@code
 * vfps.x.formats.v1.CheckDigit}: the constant's name is the proto name without its {@code
 * CHECK_DIGIT_} prefix and {@link #number()} is its number, so the mapping is one-to-one.
 */
public enum CheckDigitKind {
  /** {@code CHECK_DIGIT_UNSPECIFIED}: no check digit. */
  UNSPECIFIED(0),
  /** {@code CHECK_DIGIT_LUHN_MOD_N}: Luhn mod N, for any alphabet. */
  LUHN_MOD_N(1),
  /** {@code CHECK_DIGIT_DAMM}: Damm, for the alphabet {@code 0123456789} only. */
  DAMM(2),
  /** {@code CHECK_DIGIT_VERHOEFF}: Verhoeff, for the alphabet {@code 0123456789} only. */
  VERHOEFF(3),
  /**
   * {@code CHECK_DIGIT_X_GPAS_DAMM}: gPAS's variant of Damm ({@code GpasDamm}), for any alphabet of
   * ten characters, as gPAS allows.
   */
  X_GPAS_DAMM(1000),
  /**
   * {@code CHECK_DIGIT_X_GPAS_VERHOEFF}: gPAS's variant of Verhoeff ({@code GpasVerhoeff}), for any
   * alphabet of ten characters, as gPAS allows.
   */
  X_GPAS_VERHOEFF(1001);

  /** The size of the alphabets gPAS's Damm and Verhoeff work on. */
  private static final int GPAS_ALPHABET_SIZE = 10;

  private static final String PROTO_PREFIX = "CHECK_DIGIT_";
  private static final CheckDigitKind[] ALL = values();

  private final int number;

  CheckDigitKind(int number) {
    this.number = number;
  }

  /** The enum number on the wire. */
  public int number() {
    return number;
  }

  /** The proto name, e.g. {@code CHECK_DIGIT_LUHN_MOD_N}. */
  public String protoName() {
    return PROTO_PREFIX + name();
  }

  /**
   * The check digit of this kind over {@code alphabet}, or empty for {@link #UNSPECIFIED}.
   *
   * @throws IllegalArgumentException for Damm or Verhoeff over any alphabet but {@code 0123456789},
   *     or for gPAS's variants over an alphabet of other than ten characters
   */
  public Optional<CheckDigit> over(Alphabet alphabet) {
    if ((this == DAMM || this == VERHOEFF) && !alphabet.isDecimalDigits()) {
      throw new IllegalArgumentException(
          protoName()
              + " works on the ten digits only: the alphabet must be 0123456789, not "
              + alphabet.symbols()
              + ".");
    }
    if ((this == X_GPAS_DAMM || this == X_GPAS_VERHOEFF) && alphabet.size() != GPAS_ALPHABET_SIZE) {
      throw new IllegalArgumentException(
          protoName()
              + " works on alphabets of ten characters only; this one has "
              + alphabet.size()
              + ".");
    }
    return switch (this) {
      case UNSPECIFIED -> Optional.empty();
      case LUHN_MOD_N -> Optional.of(new LuhnModN(alphabet));
      case DAMM -> Optional.of(new Damm(alphabet));
      case VERHOEFF -> Optional.of(new Verhoeff(alphabet));
      case X_GPAS_DAMM -> Optional.of(new GpasDamm(alphabet));
      case X_GPAS_VERHOEFF -> Optional.of(new GpasVerhoeff(alphabet));
    };
  }

  /** The kind with this number, or empty for a number no kind has. */
  public static Optional<CheckDigitKind> fromNumber(int number) {
    for (CheckDigitKind kind : ALL) {
      if (kind.number == number) {
        return Optional.of(kind);
      }
    }
    return Optional.empty();
  }

  /** Parses the proto name with or without its {@code CHECK_DIGIT_} prefix, case-insensitively. */
  public static Optional<CheckDigitKind> parse(String text) {
    String upper = text.trim().toUpperCase(Locale.ROOT);
    String bare = upper.startsWith(PROTO_PREFIX) ? upper.substring(PROTO_PREFIX.length()) : upper;
    for (CheckDigitKind kind : ALL) {
      if (kind.name().equals(bare)) {
        return Optional.of(kind);
      }
    }
    return Optional.empty();
  }
}
