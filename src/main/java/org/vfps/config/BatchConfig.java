package org.vfps.config;

/**
 * The batch calls ({@code Pseudonymization__Batch__*}).
 *
 * @param maxSize the most values one batch call may hold, 1 to {@value #LIMIT} ({@code MaxSize})
 */
public record BatchConfig(int maxSize) {

  /**
   * The largest {@code MaxSize} accepted: a batch is held in memory whole, so the bound keeps one
   * call's memory in the megabytes.
   */
  public static final int LIMIT = 100_000;

  public BatchConfig {
    if (maxSize < 1 || maxSize > LIMIT) {
      throw new IllegalArgumentException("maxSize must be 1-" + LIMIT + ": " + maxSize);
    }
  }
}
