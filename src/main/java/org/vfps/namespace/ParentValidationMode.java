package org.vfps.namespace;

import java.util.Optional;
import org.vfps.error.ConstantNumbers;

/**
 * What a namespace checks against its parent before it gives an original value a pseudonym. The
 * numbers are the wire and database values of the .NET vfps ({@code ParentValidationMode}).
 */
public enum ParentValidationMode {
  /** Nothing is checked, with or without a parent. */
  UNSPECIFIED(0),
  /** The original value must be a pseudonym value stored in the parent namespace. */
  ENSURE_EXISTS(1);

  private static final ConstantNumbers<ParentValidationMode> NUMBERS =
      new ConstantNumbers<>(values(), ParentValidationMode::number);

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
    return NUMBERS.constantOf(number);
  }
}
