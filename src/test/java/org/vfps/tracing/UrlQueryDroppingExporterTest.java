package org.vfps.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.List;
import org.junit.jupiter.api.Test;

class UrlQueryDroppingExporterTest {

  private final InMemorySpanExporter exported = InMemorySpanExporter.create();

  private SpanData export(String url, String query) {
    SdkTracerProvider provider =
        SdkTracerProvider.builder()
            .addSpanProcessor(SimpleSpanProcessor.create(new UrlQueryDroppingExporter(exported)))
            .build();
    var span =
        provider
            .get("test")
            .spanBuilder("GET")
            .setAttribute("http.url", url)
            .setAttribute("url.path", "/v1/namespaces/n/pseudonyms");
    if (query != null) {
      span.setAttribute("url.query", query);
    }
    span.startSpan().end();
    List<SpanData> spans = exported.getFinishedSpanItems();
    provider.close();
    assertThat(spans).hasSize(1);
    return spans.get(0);
  }

  @Test
  void queryStringsAreRemovedBeforeExport() {
    SpanData span =
        export(
            "http://localhost:8080/v1/namespaces/n/pseudonyms?originalValue=secret-id",
            "originalValue=secret-id");

    assertThat(span.getAttributes().get(AttributeKey.stringKey("http.url")))
        .isEqualTo("http://localhost:8080/v1/namespaces/n/pseudonyms");
    assertThat(span.getAttributes().get(AttributeKey.stringKey("url.query"))).isNull();
    assertThat(span.getAttributes().get(AttributeKey.stringKey("url.path")))
        .isEqualTo("/v1/namespaces/n/pseudonyms");
    assertThat(span.getAttributes().toString()).doesNotContain("secret-id");
  }

  @Test
  void spansWithoutAQueryPassUnchanged() {
    SpanData span = export("http://localhost:8080/v1/namespaces/n/pseudonyms", null);

    assertThat(span.getAttributes().get(AttributeKey.stringKey("http.url")))
        .isEqualTo("http://localhost:8080/v1/namespaces/n/pseudonyms");
  }
}
