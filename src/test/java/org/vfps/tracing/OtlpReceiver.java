package org.vfps.tracing;

import com.google.protobuf.InvalidProtocolBufferException;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * An OTLP/HTTP trace receiver for tests: accepts {@code POST /v1/traces} with a protobuf {@code
 * ExportTraceServiceRequest}, as a collector does, and keeps every span it received.
 */
public final class OtlpReceiver implements AutoCloseable {

  /** A received span with the resource it came from. */
  public record ReceivedSpan(Span span, Resource resource) {

    public String name() {
      return span.getName();
    }

    public String traceId() {
      return HexFormat.of().formatHex(span.getTraceId().toByteArray());
    }

    public String spanId() {
      return HexFormat.of().formatHex(span.getSpanId().toByteArray());
    }

    public String parentSpanId() {
      return HexFormat.of().formatHex(span.getParentSpanId().toByteArray());
    }

    public Map<String, String> attributes() {
      return text(span.getAttributesList());
    }

    public Map<String, String> resourceAttributes() {
      return text(resource.getAttributesList());
    }

    private static Map<String, String> text(List<KeyValue> attributes) {
      return attributes.stream()
          .collect(Collectors.toMap(KeyValue::getKey, attribute -> text(attribute.getValue())));
    }

    private static String text(AnyValue value) {
      return switch (value.getValueCase()) {
        case STRING_VALUE -> value.getStringValue();
        case INT_VALUE -> Long.toString(value.getIntValue());
        case BOOL_VALUE -> Boolean.toString(value.getBoolValue());
        case DOUBLE_VALUE -> Double.toString(value.getDoubleValue());
        default -> value.toString();
      };
    }
  }

  private final Vertx vertx = Vertx.vertx();
  private final HttpServer server;
  private final List<ReceivedSpan> spans = new CopyOnWriteArrayList<>();
  private final List<ExportTraceServiceRequest> requests = new CopyOnWriteArrayList<>();

  public OtlpReceiver() {
    server =
        vertx
            .createHttpServer()
            .requestHandler(
                request -> {
                  if (!request.path().equals("/v1/traces")) {
                    request.response().setStatusCode(404).end();
                    return;
                  }
                  request
                      .body()
                      .onSuccess(
                          body -> {
                            try {
                              receive(ExportTraceServiceRequest.parseFrom(body.getBytes()));
                              request
                                  .response()
                                  .putHeader("content-type", "application/x-protobuf")
                                  .end(
                                      Buffer.buffer(
                                          ExportTraceServiceResponse.getDefaultInstance()
                                              .toByteArray()));
                            } catch (InvalidProtocolBufferException e) {
                              request.response().setStatusCode(400).end();
                            }
                          });
                })
            .listen(0, "127.0.0.1")
            .await();
  }

  private void receive(ExportTraceServiceRequest request) {
    requests.add(request);
    for (ResourceSpans resourceSpans : request.getResourceSpansList()) {
      for (ScopeSpans scopeSpans : resourceSpans.getScopeSpansList()) {
        for (Span span : scopeSpans.getSpansList()) {
          spans.add(new ReceivedSpan(span, resourceSpans.getResource()));
        }
      }
    }
  }

  /** The endpoint to configure as {@code Tracing__Otlp__Endpoint}. */
  public String endpoint() {
    return "http://127.0.0.1:" + server.actualPort() + "/v1/traces";
  }

  public List<ReceivedSpan> spans() {
    return List.copyOf(spans);
  }

  /** Every export request, as received, for searching the raw content. */
  public List<ExportTraceServiceRequest> requests() {
    return List.copyOf(requests);
  }

  @Override
  public void close() {
    vertx.close().await();
  }
}
