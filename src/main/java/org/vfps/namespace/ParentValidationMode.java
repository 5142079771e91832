package org.vfps.namespace;

import java.util.Optional;

/**
 * What a namespace checks against its parent before it gives an original value a pseudonym. The
 * numbers are the wire and database values of the .NET vfps ({@code ParentValidationMode}).
 */
public enum ParentValidationMode {
  /** Nothing is checked, with or without a parent. */
  UNSPECIFIED(0),
  /** The original value must be a pseudonym value stored in the parent namespace. */
  ENSURE_EXISTS(1);

  private static final ParentValidationMode[] BY_NUMBER = values();

  private final int number;

  ParentValidationMode(int number) {
    this.number = number;
  }

  /** The enum number on the wire and in the {@code parent_validation_mode} column. */
  public int number() {
    return number;
  }

  /** The mode with this number, or empty for a number no mode has. */
  public static Optional<ParentValidationMode> fromNumber(int number) {
    return number >= 0 && number < BY_NUMBER.length
        ? Optional.of(BY_NUMBER[number])
        : Optional.empty();
  }
}
