package org.vfps;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.LoggerFactory;

/**
 * Keeps what a logger and the loggers below it log during each test (and its {@code @AfterEach}
 * methods), instead of printing it: for tests that provoke a failure on purpose, so that the
 * build's output stays free of expected warnings and errors, and the test can assert how the
 * failure was logged. Register it with {@code @RegisterExtension}.
 */
public final class LogCapture implements BeforeEachCallback, AfterEachCallback {

  private final Logger logger;
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
  private boolean additive;

  private LogCapture(String loggerName) {
    this.logger = (Logger) LoggerFactory.getLogger(loggerName);
  }

  /** Captures the logger of that name, e.g. {@code org.vfps} or {@code org.flywaydb}. */
  public static LogCapture of(String loggerName) {
    return new LogCapture(loggerName);
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    appender.list.clear();
    appender.start();
    additive = logger.isAdditive();
    logger.setAdditive(false);
    logger.addAppender(appender);
  }

  @Override
  public void afterEach(ExtensionContext context) {
    logger.detachAppender(appender);
    logger.setAdditive(additive);
    appender.stop();
  }

  /** What was logged at {@code level} or above so far in this test, in order. */
  public List<ILoggingEvent> atLeast(Level level) {
    return List.copyOf(appender.list).stream()
        .filter(event -> event.getLevel().isGreaterOrEqual(level))
        .toList();
  }
}
