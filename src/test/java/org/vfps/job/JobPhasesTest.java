package org.vfps.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class JobPhasesTest {

  @Test
  void phaseLabelsAreTheDotnetMetricsLabelValues() {
    assertThat(Arrays.stream(JobPhases.Phase.values()).map(JobPhases.Phase::label))
        .containsExactly("read_input", "resolve_database", "write_output", "report_progress");
  }
}
