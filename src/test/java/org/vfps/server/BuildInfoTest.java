package org.vfps.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;
import org.vfps.ProjectVersion;

class BuildInfoTest {

  @Test
  void keepsAReleaseVersionAndAGitRevision() {
    BuildInfo build = BuildInfo.of("1.2.3", "4bd8d3c");

    assertThat(build).isEqualTo(new BuildInfo("1.2.3", "4bd8d3c"));
    assertThat(build.describe()).isEqualTo("1.2.3 (revision 4bd8d3c)");
  }

  @Test
  void keepsAFullLengthRevision() {
    String full = "4bd8d3c0e1f2a3b4c5d6e7f8091a2b3c4d5e6f70";

    assertThat(BuildInfo.of("1.0.0", full).revision()).isEqualTo(full);
  }

  @ParameterizedTest
  @NullAndEmptySource
  @ValueSource(strings = {"${git.commit.id.abbrev}", "unknown", "4bd8d3", "4BD8D3C", "v1.0.0"})
  void aRevisionTheBuildDidNotKnowReadsUnknown(String revision) {
    assertThat(BuildInfo.of("1.0.0", revision).revision()).isEqualTo(BuildInfo.UNKNOWN);
  }

  @ParameterizedTest
  @NullAndEmptySource
  @ValueSource(strings = {"${project.version}", "  "})
  void aVersionTheBuildDidNotFillInReadsDev(String version) {
    assertThat(BuildInfo.of(version, "4bd8d3c").version()).isEqualTo(BuildInfo.DEV);
  }

  /** The tests run on the classes Maven built, whose resource it filled in. */
  @Test
  void theCurrentBuildIsThePomsVersionAtARevisionOrUnknown() {
    BuildInfo current = BuildInfo.current();

    assertThat(current.version()).isEqualTo(ProjectVersion.ofPom());
    assertThat(current.revision()).matches("[0-9a-f]{7,40}|unknown");
  }
}
