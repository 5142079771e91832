package org.vfps.job;

/** A constant of a job's enum, with the number the .NET vfps stores for it. */
interface StoredCode {

  /** The number in the database. */
  int code();

  /**
   * The constant of {@code type} stored as {@code code}.
   *
   * @param what the enum's name in the message of the {@code IllegalArgumentException} thrown for
   *     an unknown number
   */
  static <E extends Enum<E> & StoredCode> E ofCode(Class<E> type, int code, String what) {
    for (E constant : type.getEnumConstants()) {
      if (constant.code() == code) {
        return constant;
      }
    }
    throw new IllegalArgumentException("no " + what + " " + code);
  }
}
