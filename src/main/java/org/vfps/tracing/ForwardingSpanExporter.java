package org.vfps.tracing;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.export.SpanExporter;

/**
 * A span exporter that wraps another: a subclass decides what its {@code export} hands on, and
 * flushing and shutting down go to the wrapped exporter as they are.
 */
abstract class ForwardingSpanExporter implements SpanExporter {

  /** The exporter this one hands its spans to. */
  protected final SpanExporter delegate;

  ForwardingSpanExporter(SpanExporter delegate) {
    this.delegate = delegate;
  }

  @Override
  public final CompletableResultCode flush() {
    return delegate.flush();
  }

  @Override
  public final CompletableResultCode shutdown() {
    return delegate.shutdown();
  }
}
