package org.vfps.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.IOException;
import java.net.SocketException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class EarlyConnectionResetFilterTest {

  private static final String VERTX = EarlyConnectionResetFilter.VERTX_LOGGER;

  private final LoggerContext context = new LoggerContext();
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();

  @BeforeEach
  void logToAList() {
    context.addTurboFilter(new EarlyConnectionResetFilter());
    logged.setContext(context);
    logged.start();
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.DEBUG);
    root.addAppender(logged);
  }

  @Test
  void vertxsErrorAboutAResetBecomesOneDebugLineWithoutStackTrace() {
    context.getLogger(VERTX).error("Connection reset");
    context.getLogger(VERTX).error("Connection reset by peer", new SocketException("reset"));

    assertThat(logged.list)
        .hasSize(2)
        .allSatisfy(
            event -> {
              assertThat(event.getLevel()).isEqualTo(Level.DEBUG);
              assertThat(event.getLoggerName())
                  .isEqualTo(EarlyConnectionResetFilter.class.getName());
              assertThat(event.getThrowableProxy()).isNull();
              assertThat(event.getFormattedMessage()).contains("reset").contains("PostgreSQL");
            });
  }

  @Test
  void theDebugLineIsLeftOutWhereDebugIsOffAndTheErrorStaysDropped() {
    context.getLogger(Logger.ROOT_LOGGER_NAME).setLevel(Level.INFO);

    context.getLogger(VERTX).error("Connection reset");

    assertThat(logged.list).isEmpty();
  }

  @Test
  void everyOtherEventPassesUntouched() {
    Logger vertx = context.getLogger(VERTX);
    assertThat(vertx.isErrorEnabled()).isTrue();
    vertx.error(null);
    vertx.error("Connection refused");
    vertx.error("Connection reset", new IOException("not a socket's"));
    vertx.warn("Connection reset");
    context.getLogger("io.vertx.core.net.impl.NetSocketImpl").error("Connection reset");
    context.getLogger("org.vfps.storage.Database").error("Connection reset");

    assertThat(logged.list)
        .extracting(
            ILoggingEvent::getLoggerName, ILoggingEvent::getLevel, ILoggingEvent::getMessage)
        .containsExactly(
            tuple(VERTX, Level.ERROR, null),
            tuple(VERTX, Level.ERROR, "Connection refused"),
            tuple(VERTX, Level.ERROR, "Connection reset"),
            tuple(VERTX, Level.WARN, "Connection reset"),
            tuple("io.vertx.core.net.impl.NetSocketImpl", Level.ERROR, "Connection reset"),
            tuple("org.vfps.storage.Database", Level.ERROR, "Connection reset"));
  }
}
