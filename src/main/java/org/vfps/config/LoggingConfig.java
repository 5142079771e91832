package org.vfps.config;

import java.util.Objects;

/**
 * How the service writes its log to standard output ({@code Logging__*}).
 *
 * @param format lines for people, or one JSON object per line for log collectors ({@code Format})
 */
public record LoggingConfig(Format format) {

  /** The log line formats. */
  public enum Format {
    /** Human-readable lines: time, level, thread, logger, message. */
    TEXT,
    /** One JSON object per line (logback's {@code JsonEncoder}). */
    JSON
  }

  public LoggingConfig {
    Objects.requireNonNull(format, "format");
  }
}
