package org.vfps.alphabet;

/**
 * Luhn mod N over the values of an alphabet's characters (N is its size); for the ten digits, the
 * Luhn check digit of payment cards. From the right, every second value of the drawn characters
 * (starting with the last one) is doubled and its two base-N digits added; the check digit makes
 * the sum a multiple of N. Over an alphabet of even size it catches every single changed character;
 * over one of odd size, doubling gives the values v and v + (N - 1) / 2 (v from 1) the same digit
 * sum, so a change between two such characters in a doubled position goes unseen (about one single
 * change in 2N). It misses some swaps of neighbours, among them that of the first and last
 * character of the alphabet.
 */
record LuhnModN(Alphabet alphabet) implements CheckDigit {

  @Override
  public CheckDigitKind kind() {
    return CheckDigitKind.LUHN_MOD_N;
  }

  @Override
  public char compute(String drawn) {
    int[] values = CheckDigit.values(alphabet, drawn);
    int n = alphabet.size();
    int sum = 0;
    boolean doubled = true;
    for (int i = values.length - 1; i >= 0; i--) {
      int addend = doubled ? 2 * values[i] : values[i];
      // the base-N digits of a doubled value below 2N: the quotient is 0 or 1
      sum = (sum + addend / n + addend % n) % n;
      doubled = !doubled;
    }
    return alphabet.symbol((n - sum) % n);
  }
}
