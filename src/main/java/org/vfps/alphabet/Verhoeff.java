package org.vfps.alphabet;

/**
 * Jacobus Verhoeff's check digit for the ten decimal digits, in the dihedral group of order 10:
 * each digit, counted from the right with the check digit at position 0, is permuted by the
 * position's power of a fixed permutation and multiplied into the product; the check digit makes
 * the product of all of them the identity 0. It catches every single changed digit and every swap
 * of neighbours.
 */
record Verhoeff(Alphabet alphabet) implements CheckDigit {

  /** The group's multiplication, {@code MULTIPLY[a][b]}: rotations 0-4, reflections 5-9. */
  private static final int[][] MULTIPLY = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9},
    {1, 2, 3, 4, 0, 6, 7, 8, 9, 5},
    {2, 3, 4, 0, 1, 7, 8, 9, 5, 6},
    {3, 4, 0, 1, 2, 8, 9, 5, 6, 7},
    {4, 0, 1, 2, 3, 9, 5, 6, 7, 8},
    {5, 9, 8, 7, 6, 0, 4, 3, 2, 1},
    {6, 5, 9, 8, 7, 1, 0, 4, 3, 2},
    {7, 6, 5, 9, 8, 2, 1, 0, 4, 3},
    {8, 7, 6, 5, 9, 3, 2, 1, 0, 4},
    {9, 8, 7, 6, 5, 4, 3, 2, 1, 0}
  };

  /** The permutation applied once per position; its eighth power is the identity. */
  private static final int[] STEP = {1, 5, 7, 6, 2, 8, 3, 0, 9, 4};

  private static final int PERIOD = 8;

  /** {@code PERMUTE[k]} is {@link #STEP} applied k times. */
  private static final int[][] PERMUTE = powersOfStep();

  /** The inverse of each element of the group. */
  private static final int[] INVERSE = {0, 4, 3, 2, 1, 5, 6, 7, 8, 9};

  @Override
  public CheckDigitKind kind() {
    return CheckDigitKind.VERHOEFF;
  }

  @Override
  public char compute(String drawn) {
    // the check digit will take position 0, so the last drawn digit has position 1
    return alphabet.symbol(INVERSE[product(CheckDigit.values(alphabet, drawn), 1)]);
  }

  /**
   * The product of the group over {@code values} from the last to the first, each permuted by its
   * position: the last value's is {@code positionOfLast}, and each one to the left is one more. The
   * standard scheme starts at 1, gPAS's variant at 0.
   */
  static int product(int[] values, int positionOfLast) {
    int product = 0;
    for (int i = 0; i < values.length; i++) {
      int value = values[values.length - 1 - i];
      product = MULTIPLY[product][PERMUTE[(positionOfLast + i) % PERIOD][value]];
    }
    return product;
  }

  private static int[][] powersOfStep() {
    int[][] powers = new int[PERIOD][10];
    for (int digit = 0; digit < 10; digit++) {
      powers[0][digit] = digit;
    }
    for (int k = 1; k < PERIOD; k++) {
      for (int digit = 0; digit < 10; digit++) {
        powers[k][digit] = STEP[powers[k - 1][digit]];
      }
    }
    return powers;
  }
}
