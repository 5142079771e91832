package org.vfps.tracing;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.DelegatingSpanData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.Collection;
import java.util.List;

/**
 * Removes query strings from the URL attributes of spans before they leave the process. No route of
 * vfps takes an original value in its query, but a client may send one there anyway, and the Vert.x
 * tracer copies the query into {@code url.query} and {@code http.url}.
 */
final class UrlQueryDroppingExporter extends ForwardingSpanExporter {

  private static final AttributeKey<String> URL_QUERY = AttributeKey.stringKey("url.query");
  private static final List<AttributeKey<String>> URLS =
      List.of(AttributeKey.stringKey("http.url"), AttributeKey.stringKey("url.full"));

  UrlQueryDroppingExporter(SpanExporter delegate) {
    super(delegate);
  }

  @Override
  public CompletableResultCode export(Collection<SpanData> spans) {
    return delegate.export(spans.stream().map(UrlQueryDroppingExporter::withoutQuery).toList());
  }

  static SpanData withoutQuery(SpanData span) {
    Attributes attributes = span.getAttributes();
    boolean hasQuery = attributes.get(URL_QUERY) != null;
    for (AttributeKey<String> key : URLS) {
      String url = attributes.get(key);
      hasQuery |= url != null && url.indexOf('?') >= 0;
    }
    if (!hasQuery) {
      return span;
    }
    var builder = attributes.toBuilder().remove(URL_QUERY);
    for (AttributeKey<String> key : URLS) {
      String url = attributes.get(key);
      if (url != null && url.indexOf('?') >= 0) {
        builder.put(key, url.substring(0, url.indexOf('?')));
      }
    }
    Attributes cleaned = builder.build();
    return new DelegatingSpanData(span) {
      @Override
      public Attributes getAttributes() {
        return cleaned;
      }
    };
  }
}
