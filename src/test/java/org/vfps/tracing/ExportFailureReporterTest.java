package org.vfps.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.opentelemetry.exporter.internal.FailedExportException;
import io.opentelemetry.exporter.internal.http.HttpSender;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.LogCapture;

class ExportFailureReporterTest {

  private static final URI ENDPOINT = URI.create("http://collector:4318/v1/traces");

  @RegisterExtension final LogCapture log = LogCapture.of("org.vfps.tracing");

  /** The outcomes the collector gives the next exports, in order. */
  private final Deque<CompletableResultCode> outcomes = new ArrayDeque<>();

  private long now;

  private final ExportFailureReporter reporter =
      new ExportFailureReporter(
          new SpanExporter() {
            @Override
            public CompletableResultCode export(Collection<SpanData> spans) {
              return outcomes.remove();
            }

            @Override
            public CompletableResultCode flush() {
              return CompletableResultCode.ofSuccess();
            }

            @Override
            public CompletableResultCode shutdown() {
              return CompletableResultCode.ofSuccess();
            }
          },
          ENDPOINT,
          () -> now);

  private CompletableResultCode export(int spans, CompletableResultCode outcome) {
    outcomes.add(outcome);
    return reporter.export(Collections.nCopies(spans, (SpanData) null));
  }

  private static CompletableResultCode refused() {
    return CompletableResultCode.ofExceptionalFailure(
        new CompletionException(
            new UncheckedIOException(new ConnectException("Connection refused"))));
  }

  private List<String> lines() {
    return log.atLeast(Level.INFO).stream().map(ILoggingEvent::getFormattedMessage).toList();
  }

  @Test
  void aCollectorThatStaysDownIsWarnedOfOnceAMinuteAndItsReturnNoted() {
    export(3, refused());
    now += ExportFailureReporter.REPEAT.toNanos() / 2;
    export(5, refused());
    export(7, refused());

    assertThat(lines())
        .containsExactly(
            "Tracing: 3 spans could not be sent to http://collector:4318/v1/traces"
                + " (ConnectException: Connection refused); spans are dropped until the collector"
                + " takes them");
    assertThat(log.atLeast(Level.INFO))
        .allSatisfy(line -> assertThat(line.getThrowableProxy()).isNull());

    now += ExportFailureReporter.REPEAT.toNanos();
    // the exporter completes later, on its sender's thread
    CompletableResultCode pending = new CompletableResultCode();
    export(2, pending);
    assertThat(lines()).hasSize(1);
    pending.failExceptionally(new CompletionException(new ConnectException()));
    export(4, CompletableResultCode.ofSuccess());
    export(4, CompletableResultCode.ofSuccess());

    assertThat(lines())
        .containsExactly(
            lines().get(0),
            "Tracing: 14 more spans could not be sent to http://collector:4318/v1/traces"
                + " (ConnectException) since the last warning; spans are dropped until the"
                + " collector takes them",
            "Tracing: spans are sent to http://collector:4318/v1/traces again (0 dropped since the"
                + " last warning)");
    assertThat(log.atLeast(Level.WARN)).hasSize(2);
  }

  @Test
  void afterItsReturnTheNextFailureIsWarnedOfAtOnce() {
    export(1, refused());
    export(1, CompletableResultCode.ofSuccess());
    export(6, refused());

    assertThat(log.atLeast(Level.WARN))
        .extracting(ILoggingEvent::getFormattedMessage)
        .hasSize(2)
        .last()
        .asString()
        .startsWith("Tracing: 6 spans could not be sent");
  }

  @Test
  void aRefusingCollectorIsNamedByItsHttpStatus() {
    HttpSender.Response unavailable =
        new HttpSender.Response() {
          @Override
          public int statusCode() {
            return 503;
          }

          @Override
          public String statusMessage() {
            return "Service Unavailable";
          }

          @Override
          public byte[] responseBody() {
            return new byte[0];
          }
        };

    assertThat(
            ExportFailureReporter.reason(FailedExportException.httpFailedWithResponse(unavailable)))
        .isEqualTo("the collector answered HTTP 503");
    assertThat(ExportFailureReporter.reason(null)).isEqualTo("no reason given");
  }
}
