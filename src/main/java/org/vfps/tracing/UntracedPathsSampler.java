package org.vfps.tracing;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.opentelemetry.sdk.trace.samplers.SamplingResult;
import java.util.List;
import java.util.Set;

/**
 * Drops the server spans of probes and of the metrics scrape, and with them their children (the
 * database check of a probe); everything else is up to the wrapped sampler. Vert.x sets {@code
 * url.path} before an HTTP or gRPC server span starts, so the path is known here; other server
 * spans (event bus deliveries) have none and are up to the wrapped sampler.
 */
final class UntracedPathsSampler implements Sampler {

  /** HTTP probes, the Prometheus scrape and the gRPC health service. */
  static final Set<String> UNTRACED_PATHS =
      Set.of(
          "/healthz",
          "/readyz",
          "/livez",
          "/metrics",
          "/grpc.health.v1.Health/Check",
          "/grpc.health.v1.Health/Watch",
          "/grpc.health.v1.Health/List");

  private static final AttributeKey<String> URL_PATH = AttributeKey.stringKey("url.path");

  private final Sampler delegate;

  UntracedPathsSampler(Sampler delegate) {
    this.delegate = delegate;
  }

  @Override
  public SamplingResult shouldSample(
      Context parentContext,
      String traceId,
      String name,
      SpanKind spanKind,
      Attributes attributes,
      List<LinkData> parentLinks) {
    if (spanKind == SpanKind.SERVER) {
      // spans without a path (an event bus delivery) are sampled as any other; Set.of's contains
      // throws on null, which would keep the delivery's handler from running
      String path = attributes.get(URL_PATH);
      if (path != null && UNTRACED_PATHS.contains(path)) {
        return SamplingResult.drop();
      }
    }
    return delegate.shouldSample(parentContext, traceId, name, spanKind, attributes, parentLinks);
  }

  @Override
  public String getDescription() {
    return "UntracedPaths{" + delegate.getDescription() + "}";
  }
}
