package org.vfps.pseudonym;

/**
 * How an anonymized original value is stored: {@value #LENGTH} spaces and tabs, the bits of a new
 * random number. It reveals nothing of the value it replaces, it differs from every other
 * anonymized value (the chance that two are equal is 2^-128), and no original value can ever equal
 * it: Create refuses a blank value, in this service and in the .NET vfps alike. So a stored
 * original value that is blank marks a withdrawn one, and the row keeps its primary key, its
 * pseudonym and its place in the list without a column the .NET vfps does not know.
 */
public final class AnonymizedOriginals {

  /** The characters of one, one bit each. */
  static final int LENGTH = 128;

  private AnonymizedOriginals() {}

  /** A new stored value for an anonymized original value. */
  public static String next() {
    byte[] bits = new byte[LENGTH / 8];
    ThreadLocalSecureRandom.nextBytes(bits);
    char[] text = new char[LENGTH];
    for (int i = 0; i < LENGTH; i++) {
      text[i] = (bits[i / 8] >> (i % 8) & 1) == 0 ? ' ' : '\t';
    }
    return new String(text);
  }

  /** Whether a stored original value is an anonymized one. */
  public static boolean is(String stored) {
    return stored != null && stored.isBlank();
  }
}
