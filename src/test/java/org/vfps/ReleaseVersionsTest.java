package org.vfps;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The files a release names its version in agree with the pom's (docs/releasing.md): the Helm
 * chart's {@code appVersion}, the contract's {@code info.version}, a section of the changelog, and
 * the jar's timestamp, the day of that section, and the image compose.yaml starts by default (the
 * one deploy/image.sh builds).
 */
class ReleaseVersionsTest {

  private static final String VERSION = ProjectVersion.ofPom();

  /** A released version's heading: {@code ## [1.0.0] - 2026-12-07}. */
  private static final String RELEASE_SECTION =
      "## \\[[0-9]+\\.[0-9]+\\.[0-9]+\\] - [0-9]{4}-[0-9]{2}-[0-9]{2}";

  @Test
  void thePomsVersionIsASemanticVersion() {
    assertThat(VERSION).matches("(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)");
  }

  @Test
  void theChartsAppVersionIsThePomsVersion() throws IOException {
    Matcher appVersion =
        Pattern.compile("(?m)^appVersion: *\"?([^\"\\s]+)\"?\\s*$")
            .matcher(Files.readString(Path.of("deploy/Chart.yaml")));

    assertThat(appVersion.find()).as("deploy/Chart.yaml has an appVersion").isTrue();
    assertThat(appVersion.group(1)).isEqualTo(VERSION);
  }

  @Test
  void composeStartsTheImageOfThePomsVersion() throws IOException {
    Matcher image =
        Pattern.compile("(?m)^  image: \\$\\{VFPS_IMAGE:-localhost/vfps:([^}]+)}$")
            .matcher(Files.readString(Path.of("compose.yaml")));

    assertThat(image.find()).as("compose.yaml names localhost/vfps:<version>").isTrue();
    assertThat(image.group(1)).isEqualTo(VERSION);
  }

  @Test
  void theContractSaysThePomsVersion() throws IOException {
    JsonObject contract =
        new JsonObject(Files.readString(Path.of("src/main/resources/openapi/vfps.json")));

    assertThat(contract.getJsonObject("info").getString("version")).isEqualTo(VERSION);
  }

  /** The jar's entries are dated the day of the release the pom's version names. */
  @Test
  void theJarsTimestampIsTheDayOfThePomsRelease() throws IOException {
    Matcher timestamp =
        Pattern.compile("<project.build.outputTimestamp>([0-9]{4}-[0-9]{2}-[0-9]{2})T00:00:00Z<")
            .matcher(Files.readString(Path.of("pom.xml")));
    List<String> sections = Files.readAllLines(Path.of("CHANGELOG.md"));

    assertThat(timestamp.find()).as("pom.xml has a project.build.outputTimestamp").isTrue();
    assertThat(sections).contains("## [" + VERSION + "] - " + timestamp.group(1));
  }

  /** Unreleased on top, then one section per version with its date, one of them the pom's. */
  @Test
  void theChangelogHasASectionForThePomsVersionBelowUnreleased() throws IOException {
    List<String> sections =
        Files.readAllLines(Path.of("CHANGELOG.md")).stream()
            .filter(line -> line.startsWith("## "))
            .toList();

    assertThat(sections).first().isEqualTo("## [Unreleased]");
    assertThat(sections.subList(1, sections.size()))
        .allMatch(section -> section.matches(RELEASE_SECTION))
        .anyMatch(section -> section.startsWith("## [" + VERSION + "] - "));
  }
}
