package org.vfps.log;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.Encoder;
import java.util.Iterator;
import org.slf4j.LoggerFactory;
import org.vfps.config.LoggingConfig;

/**
 * Applies {@code Logging__Format} to the console appender of {@link LogbackConfiguration}: its
 * pattern for {@code text}, logback's {@link JsonEncoder} (one JSON object per line, the message
 * already formatted) for {@code json}.
 */
public final class ConsoleLogging {

  private ConsoleLogging() {}

  /**
   * Switches the root logger's appenders to the format; text leaves them as they are. Call it at
   * start, before other threads log.
   */
  public static void apply(LoggingConfig config) {
    if (config.format() == LoggingConfig.Format.TEXT) {
      return;
    }
    if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
      return;
    }
    apply(config, context);
  }

  static void apply(LoggingConfig config, LoggerContext context) {
    if (config.format() == LoggingConfig.Format.TEXT) {
      return;
    }
    Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    for (Iterator<Appender<ILoggingEvent>> it = root.iteratorForAppenders(); it.hasNext(); ) {
      if (it.next() instanceof OutputStreamAppender<ILoggingEvent> appender) {
        // swapped, not restarted: stopping an appender closes its stream
        Encoder<ILoggingEvent> previous = appender.getEncoder();
        appender.setEncoder(jsonEncoder(context));
        previous.stop();
      }
    }
  }

  /**
   * The encoder of {@code Logging__Format=json}, started: one object per line, the message
   * formatted, the fields as {@code kvpList}. {@code vfps audit verify} reads lines of this shape.
   */
  public static JsonEncoder jsonEncoder(LoggerContext context) {
    JsonEncoder encoder = new JsonEncoder();
    encoder.setContext(context);
    encoder.setWithSequenceNumber(false);
    encoder.setWithNanoseconds(false);
    encoder.setWithContext(false);
    // the formatted message only: the arguments would repeat its values as a separate array
    encoder.setWithMessage(false);
    encoder.setWithArguments(false);
    encoder.setWithFormattedMessage(true);
    encoder.start();
    return encoder;
  }
}
