package org.vfps.alphabet;

/**
 * The check digit gPAS calls Verhoeff, for an alphabet of ten characters: the tables of {@link
 * Verhoeff}, but the positions count from 0 at the last drawn character, and the check digit is the
 * product itself, not its inverse. So it differs from the standard Verhoeff check digit for most
 * pseudonyms. It catches every single changed character and every swap of two different drawn
 * neighbours, but misses more than half of the swaps of the last drawn character and the check
 * digit.
 */
record GpasVerhoeff(Alphabet alphabet) implements CheckDigit {

  @Override
  public CheckDigitKind kind() {
    return CheckDigitKind.X_GPAS_VERHOEFF;
  }

  @Override
  public char compute(String drawn) {
    return alphabet.symbol(Verhoeff.product(CheckDigit.values(alphabet, drawn), 0));
  }
}
