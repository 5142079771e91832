package org.vfps.alphabet;

/**
 * H. Michael Damm's check digit for the ten decimal digits: the digits, read from left to right,
 * walk a totally anti-symmetric quasigroup of order 10, and the check digit is where the walk ends,
 * so that the walk over all digits and the check digit ends at 0. It catches every single changed
 * digit and every swap of neighbours.
 */
record Damm(Alphabet alphabet) implements CheckDigit {

  /** The quasigroup's operation: {@code NEXT[interim][digit]}; gPAS's variant walks it too. */
  static final int[][] NEXT = {
    {0, 3, 1, 7, 5, 9, 8, 6, 4, 2},
    {7, 0, 9, 2, 1, 5, 4, 8, 6, 3},
    {4, 2, 0, 6, 8, 7, 1, 3, 5, 9},
    {1, 7, 5, 0, 9, 8, 3, 4, 2, 6},
    {6, 1, 2, 3, 0, 4, 5, 9, 7, 8},
    {3, 6, 7, 4, 2, 0, 9, 5, 8, 1},
    {5, 8, 6, 9, 7, 2, 0, 1, 3, 4},
    {8, 9, 4, 5, 3, 6, 2, 0, 1, 7},
    {9, 4, 3, 8, 6, 1, 7, 2, 0, 5},
    {2, 5, 8, 1, 4, 3, 6, 7, 9, 0}
  };

  @Override
  public CheckDigitKind kind() {
    return CheckDigitKind.DAMM;
  }

  @Override
  public char compute(String drawn) {
    int interim = 0;
    for (int digit : CheckDigit.values(alphabet, drawn)) {
      interim = NEXT[interim][digit];
    }
    return alphabet.symbol(interim);
  }
}
