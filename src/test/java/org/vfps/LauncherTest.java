package org.vfps;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The launcher reads the feature release out of every form of {@code java.specification.version}.
 */
class LauncherTest {

  @Test
  void readsTheFeatureReleaseOfOldAndNewVersionStrings() {
    assertThat(Launcher.feature("1.8")).isEqualTo(8);
    assertThat(Launcher.feature("9")).isEqualTo(9);
    assertThat(Launcher.feature("17")).isEqualTo(17);
    assertThat(Launcher.feature("21")).isEqualTo(21);
    assertThat(Launcher.feature("25")).isEqualTo(25);
  }

  @Test
  void anUnreadableVersionCountsAsTooOld() {
    assertThat(Launcher.feature(null)).isLessThan(Launcher.REQUIRED_FEATURE);
    assertThat(Launcher.feature("")).isLessThan(Launcher.REQUIRED_FEATURE);
    assertThat(Launcher.feature("twenty-one")).isLessThan(Launcher.REQUIRED_FEATURE);
  }

  @Test
  void theJavaRunningTheTestsIsNewEnough() {
    assertThat(Launcher.feature(System.getProperty("java.specification.version")))
        .isGreaterThanOrEqualTo(Launcher.REQUIRED_FEATURE)
        .isEqualTo(Runtime.version().feature());
  }
}
