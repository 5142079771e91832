package org.vfps.pseudonym;

import org.vfps.namespace.GenerationMethod;

/** The length arguments every generator rejects. */
final class LengthChecks {

  private LengthChecks() {}

  static void requirePositive(int length) {
    if (length < 1) {
      throw new IllegalArgumentException("pseudonym length must be at least 1, got " + length);
    }
  }

  static void requireFixed(GenerationMethod method, int length) {
    int fixed = method.fixedLength().orElseThrow();
    if (length != fixed) {
      throw new IllegalArgumentException(
          method.dotnetName()
              + " requires a pseudonym length of exactly "
              + fixed
              + ", got "
              + length);
    }
  }
}
