package org.vfps.job;

/**
 * What a pseudonymize job does with an original value that has no pseudonym; {@link #code()} is the
 * .NET vfps's {@code pseudonymize_mode} number.
 */
public enum PseudonymizeMode implements StoredCode {
  /** Creates it, as Create does. */
  CREATE_IF_MISSING(0),
  /** Fails the job at the first such value, before its chunk is written. */
  FAIL_IF_MISSING(1),
  /** Writes an empty cell and counts it as unresolved. */
  BLANK_IF_MISSING(2);

  private final int code;

  PseudonymizeMode(int code) {
    this.code = code;
  }

  @Override
  public int code() {
    return code;
  }

  /** The mode of a stored number; {@code IllegalArgumentException} for an unknown one. */
  public static PseudonymizeMode of(int code) {
    return StoredCode.ofCode(PseudonymizeMode.class, code, "pseudonymize mode");
  }
}
