package org.vfps.alphabet;

/**
 * The ready alphabets of gPAS, by the simple name of gPAS's class for each (a gPAS domain's {@code
 * alphabet} names the class, or lists a custom alphabet's characters separated by commas), as the
 * strings an alphabet namespace takes.
 */
public enum AlphabetPreset {
  NUMBERS("Numbers", "0123456789"),
  NUMBERS_WITHOUT_ZERO("NumbersWithoutZero", "123456789"),
  NUMBERS_X("NumbersX", "0123456789X"),
  HEX("Hex", "0123456789ABCDEF"),
  /** Capitals and digits without B, I, O, S and V, easily mistaken for 8, 1, 0, 5 and U. */
  SYMBOL_31("Symbol31", "ACDEFGHJKLMNPQRTUWXYZ0123456789"),
  /** As {@link #SYMBOL_31}, with V. */
  SYMBOL_32("Symbol32", "ACDEFGHJKLMNPQRTUVWXYZ0123456789");

  private final String gpasName;
  private final String symbols;

  AlphabetPreset(String gpasName, String symbols) {
    this.gpasName = gpasName;
    this.symbols = symbols;
  }

  /** The simple name of gPAS's class, e.g. {@code Symbol31}. */
  public String gpasName() {
    return gpasName;
  }

  /** The characters, in gPAS's order (which fixes their check digit values). */
  public String symbols() {
    return symbols;
  }

  public Alphabet alphabet() {
    return Alphabet.of(symbols);
  }
}
