package org.vfps.tracing;

import io.opentelemetry.exporter.internal.FailedExportException;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.Collection;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reports exports that fail in vfps's own words: a warning without a stack trace when spans first
 * cannot be sent, then at most one a minute while that goes on, each with how many spans were
 * dropped, and a line when they are sent again. A collector that is down is the operator's matter,
 * not a fault of vfps, and a busy service must not write a stack trace per batch. (The OTLP
 * exporter's own report of each failure is turned off by {@link SdkTracing}.) Thread-safe.
 */
final class ExportFailureReporter extends ForwardingSpanExporter {

  // Tracing's logger: operators find tracing's lines under that name
  private static final Logger LOG = LoggerFactory.getLogger(Tracing.class);

  /** The least time between two warnings while exports keep failing. */
  static final Duration REPEAT = Duration.ofMinutes(1);

  private final URI endpoint;
  private final LongSupplier nanoTime;

  // guarded by this
  private boolean failing;
  private long droppedSinceWarning;
  private long lastWarningNanos;

  ExportFailureReporter(SpanExporter delegate, URI endpoint) {
    this(delegate, endpoint, System::nanoTime);
  }

  ExportFailureReporter(SpanExporter delegate, URI endpoint, LongSupplier nanoTime) {
    super(delegate);
    this.endpoint = endpoint;
    this.nanoTime = nanoTime;
  }

  @Override
  public CompletableResultCode export(Collection<SpanData> spans) {
    int count = spans.size();
    CompletableResultCode result = delegate.export(spans);
    result.whenComplete(() -> completed(result, count));
    return result;
  }

  private synchronized void completed(CompletableResultCode result, int count) {
    if (result.isSuccess()) {
      if (failing) {
        failing = false;
        LOG.info(
            "Tracing: spans are sent to {} again ({} dropped since the last warning)",
            endpoint,
            droppedSinceWarning);
        droppedSinceWarning = 0;
      }
      return;
    }
    droppedSinceWarning += count;
    long now = nanoTime.getAsLong();
    if (failing && now - lastWarningNanos < REPEAT.toNanos()) {
      return;
    }
    String reason = reason(result.getFailureThrowable());
    if (failing) {
      LOG.warn(
          "Tracing: {} more spans could not be sent to {} ({}) since the last warning; spans are"
              + " dropped until the collector takes them",
          droppedSinceWarning,
          endpoint,
          reason);
    } else {
      LOG.warn(
          "Tracing: {} spans could not be sent to {} ({}); spans are dropped until the collector"
              + " takes them",
          droppedSinceWarning,
          endpoint,
          reason);
    }
    failing = true;
    lastWarningNanos = now;
    droppedSinceWarning = 0;
  }

  /** Why an export failed, in a few words: the collector's HTTP status, or the I/O failure. */
  static String reason(Throwable failure) {
    if (failure == null) {
      return "no reason given";
    }
    if (failure instanceof FailedExportException.HttpExportException http
        && http.getResponse() != null) {
      return "the collector answered HTTP " + http.getResponse().statusCode();
    }
    Throwable described = failure;
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      // the exporter wraps the I/O failure in completion and unchecked exceptions
      if (cause instanceof IOException && !(cause instanceof UncheckedIOException)) {
        described = cause;
        break;
      }
      described = cause;
    }
    String message = described.getMessage();
    return described.getClass().getSimpleName()
        + (message == null || message.isBlank() ? "" : ": " + message);
  }
}
