package org.vfps;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.hawkular.agent.prometheus.types.MetricFamily;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vfps.metrics.Scrape;

/**
 * The packaged jar names one version, the pom's, and one git revision wherever it shows them:
 * {@code vfps --version}, the start-up line, the admin UI's session, the served OpenAPI document's
 * {@code info} and the {@code vfps_build_info} metric.
 */
class BuildInfoIT {

  private static final Pattern VERSION_LINE =
      Pattern.compile("vfps (\\S+) \\(revision ([0-9a-f]{7,40}|unknown)\\)");

  @Test
  void everyPlaceNamesThePomsVersionAndOneRevision(@TempDir Path dir) throws Exception {
    CommandLineIT.Run versionRun = CommandLineIT.run(Map.of(), "--version");
    assertThat(versionRun.exitCode()).as(versionRun.output()).isZero();
    Matcher printed = VERSION_LINE.matcher(versionRun.output().strip());
    assertThat(printed.matches()).as(versionRun.output()).isTrue();
    String version = printed.group(1);
    String revision = printed.group(2);

    assertThat(version).isEqualTo(ProjectVersion.ofPom());
    gitHead().ifPresent(head -> assertThat(head).startsWith(revision));

    int httpPort = TestService.freePort();
    int metricsPort = TestService.freePort();
    Path log = dir.resolve("vfps.log");
    Process service =
        startJar(
            log,
            Map.of(
                "ConnectionStrings__PostgreSQL", TestPostgres.uri(),
                "Grpc__Port", Integer.toString(TestService.freePort()),
                "Http__Port", Integer.toString(httpPort),
                "MetricsPort", Integer.toString(metricsPort)));
    try (HttpTestClient http = new HttpTestClient(httpPort);
        HttpTestClient metrics = new HttpTestClient(metricsPort)) {
      Awaitility.await("the start")
          .atMost(Duration.ofSeconds(60))
          .until(() -> !service.isAlive() || Files.readString(log).contains(" started in "));
      assertThat(Files.readString(log, StandardCharsets.UTF_8))
          .contains("vfps " + version + " (revision " + revision + ") started in ");

      JsonObject session = http.get("/ui/session").json();
      assertThat(session.getString("version")).isEqualTo(version);
      assertThat(session.getString("revision")).isEqualTo(revision);

      JsonObject info = http.get("/openapi.json").json().getJsonObject("info");
      assertThat(info.getString("version")).isEqualTo(version);
      assertThat(info.getString("x-revision")).isEqualTo(revision);

      Scrape scrape = Scrape.parse(metrics.get("/metrics").body());
      MetricFamily buildInfo = scrape.family("vfps_build_info").orElseThrow();
      assertThat(buildInfo.getMetrics()).hasSize(1);
      assertThat(buildInfo.getMetrics().get(0).getLabels())
          .isEqualTo(Map.of("version", version, "revision", revision));
      assertThat(scrape.value("vfps_build_info")).isEqualTo(1);
    } finally {
      service.destroy();
      if (!service.waitFor(30, TimeUnit.SECONDS)) {
        service.destroyForcibly().waitFor();
      }
    }
  }

  /** {@code java -jar vfps.jar serve} with only these settings, its output going to {@code log}. */
  private static Process startJar(Path log, Map<String, String> environment) throws IOException {
    ProcessBuilder builder =
        CommandLineIT.jarCommand("serve").redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().clear();
    builder.environment().putAll(environment);
    return builder.start();
  }

  /**
   * The commit the work tree is at, when git can tell (a clone); empty in a copy without git, whose
   * build says {@code unknown} unless it was given {@code -Dvfps.revision}.
   */
  private static Optional<String> gitHead() throws InterruptedException {
    try {
      Process git =
          new ProcessBuilder("git", "rev-parse", "HEAD")
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
      String head = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      return git.waitFor() == 0 && !head.isEmpty() ? Optional.of(head) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }
}
