package org.vfps.log;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.OutputStreamAppender;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.vfps.config.LoggingConfig;

class ConsoleLoggingTest {

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  /**
   * A logger context shaped like {@link LogbackConfiguration}: one appender with a pattern, writing
   * to {@code out}.
   */
  private LoggerContext context() {
    LoggerContext context = new LoggerContext();
    context.setMDCAdapter(new LogbackMDCAdapter());
    PatternLayoutEncoder pattern = new PatternLayoutEncoder();
    pattern.setContext(context);
    pattern.setPattern("%level %logger - %msg%n");
    pattern.start();
    OutputStreamAppender<ILoggingEvent> appender = new OutputStreamAppender<>();
    appender.setContext(context);
    appender.setEncoder(pattern);
    appender.setOutputStream(new PrintStream(out, true, StandardCharsets.UTF_8));
    appender.start();
    context.getLogger(Logger.ROOT_LOGGER_NAME).addAppender(appender);
    return context;
  }

  private String written() {
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void jsonWritesOneObjectPerLineWithTheFormattedMessage() {
    LoggerContext context = context();

    ConsoleLogging.apply(new LoggingConfig(LoggingConfig.Format.JSON), context);
    context.getLogger("org.vfps.Example").info("started on port {}", 8081);
    context.getLogger("org.vfps.Example").warn("second");

    String[] lines = written().strip().split("\n");
    assertThat(lines).hasSize(2);
    JsonObject first = new JsonObject(lines[0]);
    assertThat(first.getString("level")).isEqualTo("INFO");
    assertThat(first.getString("loggerName")).isEqualTo("org.vfps.Example");
    assertThat(first.getString("formattedMessage")).isEqualTo("started on port 8081");
    assertThat(first.containsKey("arguments")).isFalse();
    assertThat(new JsonObject(lines[1]).getString("level")).isEqualTo("WARN");
  }

  @Test
  void textKeepsThePattern() {
    LoggerContext context = context();

    ConsoleLogging.apply(new LoggingConfig(LoggingConfig.Format.TEXT), context);
    context.getLogger("org.vfps.Example").info("started on port {}", 8081);

    assertThat(written()).isEqualTo("INFO org.vfps.Example - started on port 8081\n");
  }
}
