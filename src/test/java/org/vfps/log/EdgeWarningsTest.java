package org.vfps.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;
import org.vfps.LogCapture;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/** Each kind of warning: the first at once, then counted in one summary line per interval. */
class EdgeWarningsTest {

  private static final Pattern SUMMARY =
      Pattern.compile("^([0-9,]+) more (.+) in the last [0-9:.]+$");

  @RegisterExtension final LogCapture log = LogCapture.of("org.vfps.log");

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void closeVertx() {
    vertx.close().await();
  }

  @Test
  void logsAFailedCallByTheOnePolicyOfTheEdgesOnTheEdgesLogger() {
    EdgeWarnings warnings = new EdgeWarnings(vertx, Duration.ofHours(1));
    Logger edge = (Logger) LoggerFactory.getLogger("org.vfps.log.SomeEdge");
    edge.setLevel(Level.DEBUG);
    try {
      warnings.failed(edge, "call A", new IllegalStateException("a bug"));
      warnings.failed(
          edge,
          "call B",
          new ServiceException(
              ErrorCode.INTERNAL, "Internal error.", Map.of(), new IllegalStateException("why")));
      warnings.failed(
          edge,
          "call C",
          new ServiceException(ErrorCode.UNAVAILABLE, "The database is not available."));
      warnings.failed(
          edge, "call D", new ServiceException(ErrorCode.NOT_FOUND, "The namespace is unknown."));
    } finally {
      edge.setLevel(null);
    }

    assertThat(log.atLeast(Level.DEBUG))
        .extracting(
            event ->
                event.getLevel()
                    + " "
                    + event.getLoggerName()
                    + " "
                    + event.getFormattedMessage()
                    + (event.getThrowableProxy() == null ? "" : " (with stack trace)"))
        .containsExactly(
            "ERROR org.vfps.log.SomeEdge call A failed unexpectedly (with stack trace)",
            "ERROR org.vfps.log.SomeEdge call B failed: Internal error. (with stack trace)",
            "WARN org.vfps.log.EdgeWarnings call C failed: The database is not available."
                + " (no cause)",
            "DEBUG org.vfps.log.SomeEdge call D rejected: NOT_FOUND");
  }

  @Test
  void writesTheFirstUnavailableCallAtOnceAndCountsTheRestInOneSummaryLine() {
    EdgeWarnings warnings = new EdgeWarnings(vertx, Duration.ofHours(1));
    ServiceException unavailable =
        new ServiceException(
            ErrorCode.UNAVAILABLE,
            "The database is not available.",
            Map.of(),
            new java.net.ConnectException("refused"));

    warnings.unavailable("vfps.api.v1.PseudonymService/Create", unavailable);
    assertThat(lines())
        .containsExactly(
            "vfps.api.v1.PseudonymService/Create failed: The database is not available."
                + " (ConnectException)");

    for (int i = 0; i < 6_512; i++) {
      warnings.unavailable("POST createPseudonym", unavailable);
    }
    assertThat(lines()).hasSize(1);

    warnings.close();
    assertThat(lines())
        .hasSize(2)
        .last()
        .isEqualTo("6,512 more calls failed UNAVAILABLE in the last 01:00:00");
    assertThat(log.atLeast(Level.TRACE))
        .allSatisfy(
            event -> {
              assertThat(event.getLevel()).isEqualTo(Level.WARN);
              assertThat(event.getThrowableProxy()).isNull();
            });
  }

  @Test
  void countsEachKindApart() {
    EdgeWarnings warnings = new EdgeWarnings(vertx, Duration.ofHours(1));
    warnings.malformed("gRPC call of vfps.api.v1.PseudonymService/Create", "a bad frame");
    warnings.malformed("HTTP request (GET)", "a bad escape");
    warnings.unavailable(
        "gPAS $pseudonymize",
        new ServiceException(ErrorCode.UNAVAILABLE, "The database is not available."));
    warnings.close();

    assertThat(lines())
        .containsExactly(
            "Rejected a malformed gRPC call of vfps.api.v1.PseudonymService/Create: a bad frame",
            "gPAS $pseudonymize failed: The database is not available. (no cause)",
            "1 more malformed requests rejected in the last 01:00:00");
  }

  @Test
  void writesASummaryLineOnItsTimerForEveryCallLeftOut() {
    EdgeWarnings warnings = new EdgeWarnings(vertx, Duration.ofMillis(200));
    int calls = 2_000;
    for (int i = 0; i < calls; i++) {
      warnings.malformed("HTTP request (GET)", "a bad escape");
    }
    // however the calls fell into intervals, each is a line of its own or counted in a summary
    await("summary lines that account for every call")
        .atMost(Duration.ofSeconds(30))
        .until(() -> accountedFor(lines()) == calls);
    assertThat(lines()).first().asString().startsWith("Rejected a malformed HTTP request");
    assertThat(lines()).anySatisfy(line -> assertThat(line).matches(SUMMARY));
  }

  /** The calls the lines stand for: one per full line, the count of each summary line. */
  private static long accountedFor(List<String> lines) {
    long calls = 0;
    for (String line : lines) {
      Matcher summary = SUMMARY.matcher(line);
      calls += summary.matches() ? Long.parseLong(summary.group(1).replace(",", "")) : 1;
    }
    return calls;
  }

  private List<String> lines() {
    return log.atLeast(Level.TRACE).stream().map(ILoggingEvent::getFormattedMessage).toList();
  }
}
