package org.vfps.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class SettingNamesTest {

  @Test
  void auditBatchReadsAreWrittenAsTheSettingWritesThem() {
    assertThat(
            Arrays.stream(LoggingConfig.AuditBatchReads.values())
                .map(LoggingConfig.AuditBatchReads::settingValue))
        .containsExactly("PerValue", "PerCall", "PerCallWithPseudonyms");
  }

  @Test
  void rootSamplersHaveTheirDotnetNames() {
    assertThat(
            Arrays.stream(TracingConfig.RootSampler.values())
                .map(TracingConfig.RootSampler::dotnetName))
        .containsExactly("AlwaysOnSampler", "AlwaysOffSampler", "TraceIdRatioBasedSampler");
  }
}
