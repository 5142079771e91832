package org.vfps.error;

import java.util.Arrays;
import java.util.Locale;

/**
 * The names that a database, the wire, a configuration or a metric writes for the constants of an
 * enum, derived once from the constants' own names by one rule, and the lookup from such a name
 * back to its constant. Immutable and thread-safe; {@link #of} allocates nothing.
 *
 * @param <E> the enum
 */
public final class ConstantNames<E extends Enum<E>> {

  private final E[] constants;
  private final String[] names;

  private ConstantNames(E[] constants, String[] names) {
    this.constants = constants;
    this.names = names;
  }

  /**
   * Each constant's name in lower case: {@code READ_INPUT} is {@code read_input}.
   *
   * @param constants all constants of the enum, in their order ({@code values()})
   */
  public static <E extends Enum<E>> ConstantNames<E> lowerCase(E[] constants) {
    return new ConstantNames<>(
        constants,
        Arrays.stream(constants)
            .map(constant -> constant.name().toLowerCase(Locale.ROOT))
            .toArray(String[]::new));
  }

  /**
   * Each constant's words, split at its underscores, capitalized and joined, then {@code suffix}:
   * {@code ALREADY_PRESENT} is {@code AlreadyPresent}, {@code SYMBOL_31} is {@code Symbol31}.
   *
   * @param constants all constants of the enum, in their order ({@code values()})
   * @param suffix appended to every name; empty for none
   */
  public static <E extends Enum<E>> ConstantNames<E> pascalCase(E[] constants, String suffix) {
    String[] names = new String[constants.length];
    for (int i = 0; i < constants.length; i++) {
      StringBuilder name = new StringBuilder();
      for (String word : constants[i].name().split("_")) {
        name.append(word.charAt(0)).append(word.substring(1).toLowerCase(Locale.ROOT));
      }
      names[i] = name.append(suffix).toString();
    }
    return new ConstantNames<>(constants, names);
  }

  /** The name written for {@code constant}. */
  public String of(E constant) {
    return names[constant.ordinal()];
  }

  /**
   * The constant written as {@code name}, compared exactly.
   *
   * @param what what the enum is, for the message of the {@code IllegalArgumentException} thrown
   *     for a name no constant has: {@code unknown <what> '<name>'}
   */
  public E constantOf(String name, String what) {
    for (int i = 0; i < names.length; i++) {
      if (names[i].equals(name)) {
        return constants[i];
      }
    }
    throw new IllegalArgumentException("unknown " + what + " '" + name + "'");
  }
}
