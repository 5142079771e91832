package org.vfps.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ResetStreamTrailersFilterTest {

  private static final String NETTY = ResetStreamTrailersFilter.NETTY_LOGGER;
  private static final String NETTY_MESSAGE = "Caught Throwable from listener onStreamClosed.";

  private final LoggerContext context = new LoggerContext();
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();

  @BeforeEach
  void logToAList() {
    context.addTurboFilter(new ResetStreamTrailersFilter());
    logged.setContext(context);
    logged.start();
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.DEBUG);
    root.addAppender(logged);
  }

  /** An exception thrown by {@code className.method}, called from a Vert.x frame below it. */
  private static <T extends Throwable> T thrownBy(T exception, String className, String method) {
    exception.setStackTrace(
        new StackTraceElement[] {
          new StackTraceElement(className, method, "VertxHttp2Stream.java", 243),
          new StackTraceElement(
              "io.vertx.core.http.impl.VertxHttp2Stream$2",
              "handleDispose",
              "VertxHttp2Stream.java",
              100)
        });
    return exception;
  }

  private static NullPointerException theVertxBug() {
    return thrownBy(
        new NullPointerException(
            "Cannot invoke \"io.vertx.core.Promise.fail(java.lang.Throwable)\""),
        ResetStreamTrailersFilter.THROWING_CLASS,
        ResetStreamTrailersFilter.THROWING_METHOD);
  }

  @Test
  void nettysErrorAboutTheQueuedTrailersBecomesOneDebugLineWithoutStackTrace() {
    context.getLogger(NETTY).error(NETTY_MESSAGE, theVertxBug());

    assertThat(logged.list)
        .singleElement()
        .satisfies(
            event -> {
              assertThat(event.getLevel()).isEqualTo(Level.DEBUG);
              assertThat(event.getLoggerName())
                  .isEqualTo(ResetStreamTrailersFilter.class.getName());
              assertThat(event.getThrowableProxy()).isNull();
              assertThat(event.getFormattedMessage()).contains("trailers");
            });
  }

  @Test
  void theDebugLineIsLeftOutWhereDebugIsOffAndTheErrorStaysDropped() {
    context.getLogger(Logger.ROOT_LOGGER_NAME).setLevel(Level.INFO);

    context.getLogger(NETTY).error(NETTY_MESSAGE, theVertxBug());

    assertThat(logged.list).isEmpty();
  }

  @Test
  void everyOtherEventPassesUntouched() {
    Logger netty = context.getLogger(NETTY);
    NullPointerException elsewhere =
        thrownBy(new NullPointerException("elsewhere"), "io.vertx.core.http.impl.Other", "cancel");
    NullPointerException otherMethod =
        thrownBy(
            new NullPointerException("other method"),
            ResetStreamTrailersFilter.THROWING_CLASS,
            "write");
    IllegalStateException notAnNpe =
        thrownBy(
            new IllegalStateException("not an NPE"),
            ResetStreamTrailersFilter.THROWING_CLASS,
            ResetStreamTrailersFilter.THROWING_METHOD);
    NullPointerException withoutTrace = new NullPointerException("no trace");
    withoutTrace.setStackTrace(new StackTraceElement[0]);

    netty.error(NETTY_MESSAGE, elsewhere);
    netty.error(NETTY_MESSAGE, otherMethod);
    netty.error(NETTY_MESSAGE, notAnNpe);
    netty.error(NETTY_MESSAGE, withoutTrace);
    netty.error(NETTY_MESSAGE);
    netty.warn(NETTY_MESSAGE, theVertxBug());
    context
        .getLogger("io.netty.handler.codec.http2.Http2ConnectionHandler")
        .error("x", theVertxBug());
    context.getLogger("org.vfps.grpc.BoundService").error("y", theVertxBug());

    assertThat(logged.list)
        .extracting(
            ILoggingEvent::getLoggerName,
            ILoggingEvent::getLevel,
            event ->
                event.getThrowableProxy() == null ? null : event.getThrowableProxy().getMessage())
        .containsExactly(
            tuple(NETTY, Level.ERROR, "elsewhere"),
            tuple(NETTY, Level.ERROR, "other method"),
            tuple(NETTY, Level.ERROR, "not an NPE"),
            tuple(NETTY, Level.ERROR, "no trace"),
            tuple(NETTY, Level.ERROR, null),
            tuple(NETTY, Level.WARN, theVertxBug().getMessage()),
            tuple(
                "io.netty.handler.codec.http2.Http2ConnectionHandler",
                Level.ERROR,
                theVertxBug().getMessage()),
            tuple("org.vfps.grpc.BoundService", Level.ERROR, theVertxBug().getMessage()));
  }
}
