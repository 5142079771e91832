package org.vfps;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.spi.FilterReply;
import java.util.List;

/**
 * Keeps the start's warnings about settings that most tests choose on purpose (authorization off,
 * the admin UI's sign-in not configured) off the build's console; they still reach {@code
 * target/tests.log} and every {@link LogCapture}. Named on the console appender in {@code
 * logback-test.xml}.
 */
public final class DeliberateSettingsWarnings extends Filter<ILoggingEvent> {

  private static final String LOGGER = "org.vfps.server.VfpsServer";
  private static final List<String> STARTS =
      List.of("Authorization is off", "The admin UI's sign-in is not configured");

  @Override
  public FilterReply decide(ILoggingEvent event) {
    boolean deliberate =
        event.getLevel() == Level.WARN
            && event.getLoggerName().equals(LOGGER)
            && STARTS.stream().anyMatch(event.getMessage()::startsWith);
    return deliberate ? FilterReply.DENY : FilterReply.NEUTRAL;
  }
}
