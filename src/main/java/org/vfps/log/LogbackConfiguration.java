package org.vfps.log;

import ch.qos.logback.classic.ClassicConstants;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;
import java.util.Map;

/**
 * The logging configuration, in code: one console appender with the text pattern, and the levels
 * that quiet the libraries. Logback finds it through {@code META-INF/services}; configuring in code
 * loads half the classes that parsing an XML file does, which is felt at start. A file named by
 * {@code -Dlogback.configurationFile} takes over instead, as logback documents it.
 */
public final class LogbackConfiguration extends ContextAwareBase implements Configurator {

  /**
   * The text lines; {@code %kvp} adds the fields of the audit lines, nothing for other lines.
   * {@code vfps audit verify} reads them in this shape.
   */
  public static final String PATTERN =
      "%d{yyyy-MM-dd'T'HH:mm:ss.SSSX,UTC} %-5level [%thread] %logger{30} -"
          + " %msg%replace( %kvp){'^ $', ''}%n";

  private static final Map<String, Level> LEVELS =
      Map.of(
          // the embedded PostgreSQL relays its server log at INFO
          "io.zonky.test.db.postgres", Level.WARN,
          "org.flywaydb", Level.WARN,
          "io.netty", Level.WARN,
          "com.hazelcast", Level.WARN,
          // vfps uses no CP data structures; the warning about them is noise
          "com.hazelcast.cp.CPSubsystem", Level.ERROR,
          // Vert.x registers some gauges once per client; the repeated registration shares the
          // first gauge's value, and Micrometer's warning about it says nothing to an operator
          "io.micrometer.core.instrument.MeterRegistry", Level.ERROR,
          // the embedded development store of CSV jobs (s3proxy and its shaded Jetty) logs each
          // request it refuses, which the client is told of anyway
          "org.gaul", Level.WARN);

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    if (System.getProperty(ClassicConstants.CONFIG_FILE_PROPERTY) != null) {
      return ExecutionStatus.INVOKE_NEXT_IF_ANY;
    }
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern(PATTERN);
    encoder.start();
    ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
    console.setContext(context);
    console.setName("STDOUT");
    console.setEncoder(encoder);
    console.start();
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.INFO);
    root.addAppender(console);
    LEVELS.forEach((name, level) -> context.getLogger(name).setLevel(level));
    context.addTurboFilter(new ResetStreamTrailersFilter());
    context.addTurboFilter(new EarlyConnectionResetFilter());
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }
}
