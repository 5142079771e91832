package org.vfps.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.opentelemetry.sdk.trace.samplers.SamplingDecision;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UntracedPathsSamplerTest {

  private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

  private final Sampler sampler = new UntracedPathsSampler(Sampler.alwaysOn());

  private SamplingDecision decide(SpanKind kind, String path) {
    Attributes attributes =
        path == null ? Attributes.empty() : Attributes.of(AttributeKey.stringKey("url.path"), path);
    return sampler
        .shouldSample(Context.root(), TRACE_ID, "POST", kind, attributes, List.of())
        .getDecision();
  }

  @ParameterizedTest
  @CsvSource({
    "/healthz",
    "/readyz",
    "/livez",
    "/metrics",
    "/grpc.health.v1.Health/Check",
    "/grpc.health.v1.Health/Watch"
  })
  void probesAndTheScrapeAreNotTraced(String path) {
    assertThat(decide(SpanKind.SERVER, path)).isEqualTo(SamplingDecision.DROP);
  }

  @ParameterizedTest
  @CsvSource({
    "/vfps.api.v1.PseudonymService/Create",
    "/v1/namespaces/healthz",
    "/v1/namespaces/x/pseudonyms",
    "/healthz/more"
  })
  void everythingElseIsUpToTheWrappedSampler(String path) {
    assertThat(decide(SpanKind.SERVER, path)).isEqualTo(SamplingDecision.RECORD_AND_SAMPLE);
    assertThat(new UntracedPathsSampler(Sampler.alwaysOff()).getDescription())
        .contains("AlwaysOff");
  }

  @ParameterizedTest
  @CsvSource({"CLIENT", "INTERNAL"})
  void onlyServerSpansAreJudgedByPath(SpanKind kind) {
    assertThat(decide(kind, "/healthz")).isEqualTo(SamplingDecision.RECORD_AND_SAMPLE);
  }

  /**
   * Vert.x starts server spans without {@code url.path} too (an event bus delivery): they must be
   * sampled as any other span, not fail, or the delivery's handler never runs.
   */
  @ParameterizedTest
  @CsvSource({"SERVER", "CONSUMER", "CLIENT"})
  void aSpanWithoutAPathIsUpToTheWrappedSampler(SpanKind kind) {
    assertThat(decide(kind, null)).isEqualTo(SamplingDecision.RECORD_AND_SAMPLE);
  }
}
