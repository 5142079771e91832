package org.vfps.pseudonym;

/**
 * What importing one pair (an original value and its pseudonym) did; {@link #label()} is the .NET
 * vfps's word for it in an import job's report.
 */
public enum ImportStatus {
  /** Stored. */
  IMPORTED("Imported"),
  /** The namespace already holds the pair. */
  ALREADY_PRESENT("AlreadyPresent"),
  /**
   * The original value has another pseudonym, in a namespace of one pseudonym per value; nothing is
   * overwritten.
   */
  ORIGINAL_VALUE_CONFLICT("OriginalValueConflict"),
  /** Another original value has the pseudonym. */
  PSEUDONYM_VALUE_CONFLICT("PseudonymValueConflict"),
  /** The original value could never be stored: too long, a NUL, or off the namespace's regex. */
  INVALID_ORIGINAL_VALUE("InvalidOriginalValue"),
  /**
   * The pseudonym does not fit the namespace's format ({@link PseudonymFormat}): its prefix,
   * suffix, and the length and alphabet of its generation method (for an alphabet namespace: its
   * length or its groups; see the next two for the rest). Ours; the .NET vfps stores it.
   */
  INVALID_PSEUDONYM_VALUE("InvalidPseudonymValue"),
  /**
   * The pseudonym of an alphabet namespace has a character that is neither of the alphabet nor of
   * the group delimiter. Ours.
   */
  PSEUDONYM_OUTSIDE_ALPHABET("PseudonymOutsideAlphabet"),
  /**
   * The pseudonym of an alphabet namespace has the format's shape, but its check digit does not
   * match the characters before it: it was mistyped, or made with another check digit. Ours.
   */
  PSEUDONYM_CHECK_DIGIT_MISMATCH("PseudonymCheckDigitMismatch"),
  /** The namespace requires the original value as a pseudonym of its parent, which lacks it. */
  PARENT_VALUE_MISSING("ParentValueMissing"),
  /** The row's namespace does not exist. */
  UNKNOWN_NAMESPACE("UnknownNamespace"),
  /** The row's original value, pseudonym or namespace cell is blank or a placeholder. */
  MISSING_VALUE("MissingValue");

  private final String label;

  ImportStatus(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }
}
