package org.vfps;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Everything logged in the test JVM between {@link #start()} and {@link #stop()}, at DEBUG and
 * above (TRACE for {@code org.vfps}), for tests that search the log for what must never be in it.
 * Unlike {@link LogCapture}, the events still reach the usual appenders as well.
 */
public final class DebugLog {

  private final ListAppender<ILoggingEvent> events = new ListAppender<>();
  private final Logger root = (Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);
  private final Logger vfps = (Logger) LoggerFactory.getLogger("org.vfps");
  private Level rootLevel;
  private Level vfpsLevel;

  /** Lowers the levels and starts keeping the events. */
  public void start() {
    rootLevel = root.getLevel();
    vfpsLevel = vfps.getLevel();
    root.setLevel(Level.DEBUG);
    vfps.setLevel(Level.TRACE);
    events.start();
    root.addAppender(events);
  }

  /** Stops keeping events and puts the levels back. */
  public void stop() {
    root.detachAppender(events);
    events.stop();
    root.setLevel(rootLevel);
    vfps.setLevel(vfpsLevel);
  }

  /** The events kept so far, in order. */
  public List<ILoggingEvent> events() {
    return List.copyOf(events.list);
  }

  /** The event as one text: level, logger, message and its throwable's stack trace, if any. */
  public static String describe(ILoggingEvent event) {
    String line =
        event.getLevel() + " " + event.getLoggerName() + " " + event.getFormattedMessage();
    return event.getThrowableProxy() == null
        ? line
        : line + "\n" + ThrowableProxyUtil.asString(event.getThrowableProxy());
  }
}
