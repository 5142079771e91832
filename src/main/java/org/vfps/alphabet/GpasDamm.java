package org.vfps.alphabet;

/**
 * The check digit gPAS calls Damm, for an alphabet of ten characters: Damm's quasigroup walked over
 * the drawn characters from the last to the first, the check digit where the walk ends, appended at
 * the end. So it is the standard Damm check digit of the drawn characters reversed, and differs
 * from {@link Damm}'s for most pseudonyms. It catches every single changed character and every swap
 * of two different drawn neighbours, but misses about one swap in nine of the last drawn character
 * and the check digit.
 */
record GpasDamm(Alphabet alphabet) implements CheckDigit {

  @Override
  public CheckDigitKind kind() {
    return CheckDigitKind.X_GPAS_DAMM;
  }

  @Override
  public char compute(String drawn) {
    int[] values = CheckDigit.values(alphabet, drawn);
    int interim = 0;
    for (int i = values.length - 1; i >= 0; i--) {
      interim = Damm.NEXT[interim][values[i]];
    }
    return alphabet.symbol(interim);
  }
}
