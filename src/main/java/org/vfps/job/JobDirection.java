package org.vfps.job;

/** What a job does; {@link #code()} is the .NET vfps's {@code direction} number. */
public enum JobDirection {
  PSEUDONYMIZE(0),
  DEPSEUDONYMIZE(1),
  IMPORT(2),
  EXPORT(3);

  private final int code;

  JobDirection(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  /** The direction of a stored number; {@code IllegalArgumentException} for an unknown one. */
  public static JobDirection of(int code) {
    for (JobDirection direction : values()) {
      if (direction.code == code) {
        return direction;
      }
    }
    throw new IllegalArgumentException("no job direction " + code);
  }

  /** The direction's label in metrics: {@code pseudonymize}, {@code export}, ... */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  /** Whether the job reads an uploaded file. */
  public boolean hasInput() {
    return this != EXPORT;
  }

  /**
   * Whether the job's result holds original values: those it reveals, or an import report's copy of
   * the imported pairs. Such a job neutralizes the cells a spreadsheet would run unless asked not
   * to.
   */
  public boolean writesOriginalValues() {
    return this != PSEUDONYMIZE;
  }
}
