package org.vfps.error;

import java.util.Optional;
import java.util.function.ToIntFunction;

/**
 * The numbers that the wire or a database column holds for the constants of an enum, each
 * constant's own, and the lookup from such a number back to its constant. Immutable and
 * thread-safe.
 *
 * @param <E> the enum
 */
public final class ConstantNumbers<E extends Enum<E>> {

  private final E[] constants;
  private final int[] numbers;

  /**
   * The numbers {@code number} gives the constants.
   *
   * @param constants all constants of the enum, in their order ({@code values()})
   * @param number each constant's number; no two constants may share one
   * @throws IllegalArgumentException if two constants have the same number
   */
  public ConstantNumbers(E[] constants, ToIntFunction<E> number) {
    this.constants = constants;
    this.numbers = new int[constants.length];
    for (int i = 0; i < constants.length; i++) {
      numbers[i] = number.applyAsInt(constants[i]);
      for (int j = 0; j < i; j++) {
        if (numbers[j] == numbers[i]) {
          throw new IllegalArgumentException(
              constants[j] + " and " + constants[i] + " have the same number " + numbers[i]);
        }
      }
    }
  }

  /** The constant with this number, or empty for a number no constant has. */
  public Optional<E> constantOf(int number) {
    for (int i = 0; i < numbers.length; i++) {
      if (numbers[i] == number) {
        return Optional.of(constants[i]);
      }
    }
    return Optional.empty();
  }
}
