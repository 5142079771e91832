package org.vfps.log;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.ClassicConstants;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.ConsoleAppender;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class LogbackConfigurationTest {

  private static List<Appender<ILoggingEvent>> appenders(LoggerContext context) {
    List<Appender<ILoggingEvent>> appenders = new ArrayList<>();
    context
        .getLogger(Logger.ROOT_LOGGER_NAME)
        .iteratorForAppenders()
        .forEachRemaining(appenders::add);
    return appenders;
  }

  /**
   * Runs the configurator with {@code logback.configurationFile} set to {@code named} (cleared when
   * null), then puts back the test JVM's value (pom.xml names logback-test.xml there).
   */
  private static Configurator.ExecutionStatus configure(LoggerContext context, String named) {
    String before = System.getProperty(ClassicConstants.CONFIG_FILE_PROPERTY);
    setOrClear(named);
    try {
      return new LogbackConfiguration().configure(context);
    } finally {
      setOrClear(before);
    }
  }

  private static void setOrClear(String value) {
    if (value == null) {
      System.clearProperty(ClassicConstants.CONFIG_FILE_PROPERTY);
    } else {
      System.setProperty(ClassicConstants.CONFIG_FILE_PROPERTY, value);
    }
  }

  @Test
  void logbackFindsItAsItsConfigurator() {
    assertThat(ServiceLoader.load(Configurator.class))
        .anyMatch(configurator -> configurator instanceof LogbackConfiguration);
  }

  @Test
  void oneConsoleAppenderWithTheTextPatternAndTheLibrariesQuieted() {
    LoggerContext context = new LoggerContext();

    Configurator.ExecutionStatus status = configure(context, null);

    assertThat(status).isEqualTo(Configurator.ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY);
    assertThat(appenders(context))
        .singleElement()
        .isInstanceOfSatisfying(
            ConsoleAppender.class,
            console -> {
              assertThat(console.isStarted()).isTrue();
              assertThat(((PatternLayoutEncoder) console.getEncoder()).getPattern())
                  .isEqualTo(LogbackConfiguration.PATTERN);
            });
    assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).getLevel()).isEqualTo(Level.INFO);
    assertThat(context.getLogger("io.netty.channel").getEffectiveLevel()).isEqualTo(Level.WARN);
    assertThat(context.getLogger("com.hazelcast.cp.CPSubsystem").getEffectiveLevel())
        .isEqualTo(Level.ERROR);
    assertThat(context.getLogger("org.vfps.server.VfpsServer").getEffectiveLevel())
        .isEqualTo(Level.INFO);
    assertThat(context.getTurboFilterList())
        .hasExactlyElementsOfTypes(
            ResetStreamTrailersFilter.class, EarlyConnectionResetFilter.class);
  }

  @Test
  void aConfigurationFileNamedOnTheCommandLineTakesOver() {
    LoggerContext context = new LoggerContext();
    assertThat(configure(context, "elsewhere.xml"))
        .isEqualTo(Configurator.ExecutionStatus.INVOKE_NEXT_IF_ANY);
    assertThat(appenders(context)).isEmpty();
  }
}
