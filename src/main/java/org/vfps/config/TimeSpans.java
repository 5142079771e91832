package org.vfps.config;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The text form of a .NET {@code TimeSpan}: parsed as .NET configuration binding accepts it, and
 * written as the settings write it, so that a duration in a log line or a message reads as the
 * setting it comes from.
 */
public final class TimeSpans {

  /** {@code [-][d.]hh:mm[:ss[.fffffff]]}; hours and minutes may have one digit. */
  private static final Pattern CLOCK =
      Pattern.compile(
          "(-)?(?:([0-9]{1,8})\\.)?([0-9]{1,2}):([0-9]{1,2})(?::([0-9]{1,2})(?:\\.([0-9]{1,7}))?)?");

  /** A plain integer counts days, as in .NET ({@code "1"} is one day). */
  private static final Pattern DAYS = Pattern.compile("(-)?([0-9]{1,8})");

  /** The largest day count a .NET {@code TimeSpan} holds. */
  private static final long MAX_DAYS = 10_675_199;

  private TimeSpans() {}

  /**
   * Writes {@code duration} as a settings file would, {@code [-][d.]hh:mm:ss[.fffffff]}: {@code
   * 00:00:10}, {@code 00:00:01.5}, {@code 1.02:03:04}; the fraction of a second (at most 7 digits,
   * a .NET tick is 100 ns) without trailing zeros. {@link #parse} reads it back.
   */
  public static String format(Duration duration) {
    StringBuilder text = new StringBuilder();
    if (duration.isNegative()) {
      text.append('-');
      duration = duration.negated();
    }
    if (duration.toDays() > 0) {
      text.append(duration.toDays()).append('.');
    }
    text.append(
        String.format(
            java.util.Locale.ROOT,
            "%02d:%02d:%02d",
            duration.toHoursPart(),
            duration.toMinutesPart(),
            duration.toSecondsPart()));
    int ticks = duration.toNanosPart() / 100;
    if (ticks > 0) {
      String fraction = String.format(java.util.Locale.ROOT, "%07d", ticks);
      text.append('.').append(fraction.replaceFirst("0+$", ""));
    }
    return text.toString();
  }

  /**
   * Returns the duration {@code text} denotes, e.g. {@code 0.01:00:00} (one hour), {@code
   * 00:00:30}, {@code 1.02:03:04.5} or {@code 1} (one day); surrounding whitespace is ignored.
   *
   * @throws IllegalArgumentException when {@code text} is not a .NET TimeSpan or a component is out
   *     of range (hours 0-23, minutes and seconds 0-59)
   */
  static Duration parse(String text) {
    String trimmed = text.strip();
    Matcher days = DAYS.matcher(trimmed);
    if (days.matches()) {
      return signed(days.group(1), Duration.ofDays(days(days.group(2))));
    }
    Matcher clock = CLOCK.matcher(trimmed);
    if (!clock.matches()) {
      throw new IllegalArgumentException("expected [-][d.]hh:mm[:ss[.fffffff]] or whole days");
    }
    long dayCount = clock.group(2) == null ? 0 : days(clock.group(2));
    int hours = component(clock.group(3), 23, "hours");
    int minutes = component(clock.group(4), 59, "minutes");
    int seconds = clock.group(5) == null ? 0 : component(clock.group(5), 59, "seconds");
    long nanos = clock.group(6) == null ? 0 : fractionNanos(clock.group(6));
    Duration duration =
        Duration.ofDays(dayCount)
            .plusHours(hours)
            .plusMinutes(minutes)
            .plusSeconds(seconds)
            .plusNanos(nanos);
    return signed(clock.group(1), duration);
  }

  private static long days(String digits) {
    long days = Long.parseLong(digits);
    if (days > MAX_DAYS) {
      throw new IllegalArgumentException("days out of range (0-" + MAX_DAYS + ")");
    }
    return days;
  }

  private static int component(String digits, int max, String name) {
    int value = Integer.parseInt(digits);
    if (value > max) {
      throw new IllegalArgumentException(name + " out of range (0-" + max + ")");
    }
    return value;
  }

  /** Seven digits are 100 ns ticks; fewer digits are a decimal fraction of a second. */
  private static long fractionNanos(String digits) {
    StringBuilder padded = new StringBuilder(digits);
    while (padded.length() < 9) {
      padded.append('0');
    }
    return Long.parseLong(padded.toString());
  }

  private static Duration signed(String minus, Duration duration) {
    return minus == null ? duration : duration.negated();
  }
}
