package org.vfps.audit;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.FileAppender;
import ch.qos.logback.core.encoder.Encoder;
import java.nio.file.Path;
import org.slf4j.LoggerFactory;
import org.vfps.log.ConsoleLogging;
import org.vfps.log.LogbackConfiguration;

/**
 * Real log files for a test: the audit lines, and other loggers' lines mixed in, go to one file in
 * the service's text or JSON format; the checkpoints to the same file or, kept apart, to another.
 * Close it to restore the loggers.
 */
final class AuditLogFiles implements AutoCloseable {

  /** The logger whose lines stand for the rest of the service's log. */
  static final String OTHER_LOGGER = "org.vfps.server.Other";

  enum Format {
    TEXT,
    JSON
  }

  private final LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
  private final Logger audit = context.getLogger(AuditChain.LOGGER);
  private final Logger checkpoint = context.getLogger(AuditChain.CHECKPOINT_LOGGER);
  private final Logger other = context.getLogger(OTHER_LOGGER);
  private final FileAppender<ILoggingEvent> log;
  private final FileAppender<ILoggingEvent> checkpoints;

  /**
   * @param checkpointsFile null: the checkpoints go to {@code logFile}
   */
  AuditLogFiles(Format format, Path logFile, Path checkpointsFile) {
    log = appender(format, logFile);
    checkpoints = checkpointsFile == null ? null : appender(format, checkpointsFile);
    attach(audit, log);
    attach(other, log);
    if (checkpoints != null) {
      attach(checkpoint, checkpoints);
    }
  }

  @Override
  public void close() {
    detach(audit, log);
    detach(other, log);
    if (checkpoints != null) {
      detach(checkpoint, checkpoints);
      checkpoints.stop();
    }
    log.stop();
  }

  private FileAppender<ILoggingEvent> appender(Format format, Path file) {
    FileAppender<ILoggingEvent> appender = new FileAppender<>();
    appender.setContext(context);
    appender.setName("audit-test-" + file.getFileName());
    appender.setFile(file.toString());
    appender.setAppend(true);
    appender.setEncoder(encoder(format));
    appender.start();
    return appender;
  }

  private Encoder<ILoggingEvent> encoder(Format format) {
    if (format == Format.JSON) {
      return ConsoleLogging.jsonEncoder(context);
    }
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern(LogbackConfiguration.PATTERN);
    encoder.start();
    return encoder;
  }

  private static void attach(Logger logger, FileAppender<ILoggingEvent> appender) {
    logger.setAdditive(false);
    logger.addAppender(appender);
  }

  private static void detach(Logger logger, FileAppender<ILoggingEvent> appender) {
    logger.detachAppender(appender);
    logger.setAdditive(true);
  }
}
