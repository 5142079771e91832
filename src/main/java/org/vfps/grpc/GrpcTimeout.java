package org.vfps.grpc;

import java.util.concurrent.TimeUnit;

/**
 * The {@code grpc-timeout} request header: up to 8 digits and a unit ({@code H M S m u n}), read to
 * the nanosecond. Vert.x's own reading rounds to milliseconds and takes less than one as no timeout
 * at all, so a call sent with a few microseconds left would run as if it had all the time.
 */
final class GrpcTimeout {

  static final String HEADER = "grpc-timeout";

  /** The longest timeout kept, so that an arrival time plus it cannot overflow (about 73 years). */
  private static final long MAX_NANOS = Long.MAX_VALUE / 4;

  private GrpcTimeout() {}

  /** The timeout in nanoseconds; -1 when the header is absent or not a timeout. */
  static long nanos(String header) {
    if (header == null || header.length() < 2 || header.length() > 9) {
      return -1;
    }
    long value = 0;
    for (int i = 0; i < header.length() - 1; i++) {
      char digit = header.charAt(i);
      if (digit < '0' || digit > '9') {
        return -1;
      }
      value = value * 10 + (digit - '0');
    }
    TimeUnit unit =
        switch (header.charAt(header.length() - 1)) {
          case 'H' -> TimeUnit.HOURS;
          case 'M' -> TimeUnit.MINUTES;
          case 'S' -> TimeUnit.SECONDS;
          case 'm' -> TimeUnit.MILLISECONDS;
          case 'u' -> TimeUnit.MICROSECONDS;
          case 'n' -> TimeUnit.NANOSECONDS;
          default -> null;
        };
    return unit == null ? -1 : Math.min(unit.toNanos(value), MAX_NANOS);
  }
}
