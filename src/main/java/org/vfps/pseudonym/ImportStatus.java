package org.vfps.pseudonym;

import org.vfps.error.ConstantNames;

/**
 * What importing one pair (an original value and its pseudonym) did; {@link #label()} is the .NET
 * vfps's word for it in an import job's report.
 */
public enum ImportStatus {
  /** Stored. */
  IMPORTED,
  /** The namespace already holds the pair. */
  ALREADY_PRESENT,
  /**
   * The original value has another pseudonym, in a namespace of one pseudonym per value; nothing is
   * overwritten.
   */
  ORIGINAL_VALUE_CONFLICT,
  /** Another original value has the pseudonym. */
  PSEUDONYM_VALUE_CONFLICT,
  /** The original value could never be stored: too long, a NUL, or off the namespace's regex. */
  INVALID_ORIGINAL_VALUE,
  /**
   * The pseudonym does not fit the namespace's format ({@link PseudonymFormat}): its prefix,
   * suffix, and the length and alphabet of its generation method (for an alphabet namespace: its
   * length or its groups; see the next two for the rest). Ours; the .NET vfps stores it.
   */
  INVALID_PSEUDONYM_VALUE,
  /**
   * The pseudonym of an alphabet namespace has a character that is neither of the alphabet nor of
   * the group delimiter. Ours.
   */
  PSEUDONYM_OUTSIDE_ALPHABET,
  /**
   * The pseudonym of an alphabet namespace has the format's shape, but its check digit does not
   * match the characters before it: it was mistyped, or made with another check digit. Ours.
   */
  PSEUDONYM_CHECK_DIGIT_MISMATCH,
  /** The namespace requires the original value as a pseudonym of its parent, which lacks it. */
  PARENT_VALUE_MISSING,
  /** The row's namespace does not exist. */
  UNKNOWN_NAMESPACE,
  /** The row's original value, pseudonym or namespace cell is blank or a placeholder. */
  MISSING_VALUE;

  private static final ConstantNames<ImportStatus> LABELS = ConstantNames.pascalCase(values(), "");

  /** The .NET vfps's word: the constant's name in Pascal case, e.g. {@code AlreadyPresent}. */
  public String label() {
    return LABELS.of(this);
  }
}
