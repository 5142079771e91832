package org.vfps;

import static org.assertj.core.api.Assertions.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.vfps.config.ConnectionSettings;

/** The packaged jar as users run it: {@code java -jar vfps.jar [serve|migrate]}. */
class CommandLineIT {

  record Run(int exitCode, String output) {}

  static Run run(Map<String, String> environment, String... arguments)
      throws IOException, InterruptedException {
    return runOn(Path.of(System.getProperty("java.home")), environment, arguments);
  }

  /** {@code java -jar vfps.jar} with the arguments, on the tests' Java, to start as a process. */
  static ProcessBuilder jarCommand(String... arguments) {
    List<String> command =
        new java.util.ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar",
                System.getProperty("vfps.jar", "target/vfps.jar")));
    command.addAll(List.of(arguments));
    return new ProcessBuilder(command);
  }

  /** Runs the jar on the Java installed at {@code javaHome}. */
  static Run runOn(Path javaHome, Map<String, String> environment, String... arguments)
      throws IOException, InterruptedException {
    String jar = System.getProperty("vfps.jar", "target/vfps.jar");
    List<String> command =
        new java.util.ArrayList<>(
            List.of(javaHome.resolve("bin").resolve("java").toString(), "-jar", jar));
    command.addAll(List.of(arguments));
    // the output goes to a file, so that a process that never ends cannot block its reader
    Path log = Files.createTempFile("vfps-run", ".log");
    try {
      ProcessBuilder builder =
          new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
      builder.environment().clear();
      builder.environment().putAll(environment);
      Process process = builder.start();
      boolean ended = process.waitFor(60, TimeUnit.SECONDS);
      if (!ended) {
        process.destroyForcibly().waitFor();
      }
      String output = Files.readString(log, StandardCharsets.UTF_8);
      if (!ended) {
        throw new AssertionError("the command did not end: " + output);
      }
      return new Run(process.exitValue(), output);
    } finally {
      Files.deleteIfExists(log);
    }
  }

  @Test
  void migrateMigratesAndExitsZero() throws Exception {
    ConnectionSettings fresh = TestPostgres.freshDatabase();

    Run first = run(Map.of("ConnectionStrings__PostgreSQL", TestPostgres.uri(fresh)), "migrate");
    Run second = run(Map.of("ConnectionStrings__PostgreSQL", TestPostgres.uri(fresh)), "migrate");

    assertThat(first.exitCode()).as(first.output()).isZero();
    assertThat(first.output()).contains("14 migrations applied");
    assertThat(second.exitCode()).as(second.output()).isZero();
    assertThat(second.output()).contains("0 migrations applied");
    assertThat(TestPostgres.queryLong(fresh, "SELECT count(*) FROM vfps_secrets")).isZero();
  }

  @Test
  void migrateOfAnUnreachableDatabaseExitsNonZeroWithoutThePassword() throws Exception {
    int closedPort = TestService.freePort();
    Run run =
        run(
            Map.of(
                "ConnectionStrings__PostgreSQL",
                "Host=127.0.0.1;Port=" + closedPort + ";Database=vfps;Username=u;Password=s3cr3t"),
            "migrate");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.output())
        .contains("Migrating the database at 127.0.0.1:" + closedPort + "/vfps failed")
        .doesNotContain("s3cr3t");
  }

  @Test
  void migrateWithoutADatabaseExplainsWhatToSet() throws Exception {
    Run run = run(Map.of(), "migrate");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.output()).contains("ConnectionStrings__PostgreSQL");
  }

  @Test
  void anInvalidSettingStopsTheStartNamingTheKey() throws Exception {
    Run run = run(Map.of("MetricsPort", "eighty"), "serve");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.output()).contains("MetricsPort").contains("eighty");
  }

  @Test
  void aSettingsFileIsReadBetweenDefaultsAndEnvironment(@TempDir Path dir) throws Exception {
    Path settings = dir.resolve("appsettings.json");
    Files.writeString(settings, "{\"MetricsPort\": \"not-a-port\"}");

    Run fromFile = run(Map.of(), "serve", "--config", settings.toString());
    Run overridden = run(Map.of("MetricsPort", "-1"), "serve", "--config", settings.toString());

    assertThat(fromFile.exitCode()).isEqualTo(2);
    assertThat(fromFile.output()).contains("MetricsPort").contains("not-a-port");
    assertThat(overridden.exitCode()).isEqualTo(2);
    assertThat(overridden.output()).contains("'-1'");
  }

  @Test
  void aTlsKeyOfAnotherCertificateStopsTheStartWithExitCode2(@TempDir Path dir) throws Exception {
    TestCertificates certificates = TestCertificates.authority(dir);
    TestCertificates.Issued server =
        certificates.issue("server", TestCertificates.KeyType.RSA_PKCS1);
    TestCertificates.Issued other = certificates.issue("other", TestCertificates.KeyType.RSA_PKCS1);

    Run run =
        run(
            Map.of(
                "ConnectionStrings__PostgreSQL", TestPostgres.uri(),
                "Kestrel__Certificates__Default__Path", server.certificate().toString(),
                "Kestrel__Certificates__Default__KeyPath", other.key().toString()),
            "serve");

    assertThat(run.exitCode()).as(run.output()).isEqualTo(2);
    assertThat(run.output())
        .contains("Invalid configuration: Kestrel__Certificates__Default__KeyPath: the key in")
        .contains("does not belong to the certificate");
    for (String line : Files.readAllLines(other.key())) {
      if (!line.startsWith("-----") && line.length() > 8) {
        assertThat(run.output()).as("key material").doesNotContain(line);
      }
    }
  }

  @Test
  void oneTlsFileWithoutTheOtherStopsTheStartWithExitCode2(@TempDir Path dir) throws Exception {
    Run run =
        run(
            Map.of(
                "ConnectionStrings__PostgreSQL",
                TestPostgres.uri(),
                "Kestrel__Certificates__Default__KeyPath",
                dir.resolve("tls.key").toString()),
            "serve");

    assertThat(run.exitCode()).as(run.output()).isEqualTo(2);
    assertThat(run.output()).contains("Kestrel__Certificates__Default__Path: missing");
  }

  @Test
  void anOlderJavaSaysInOneLineThatJava21IsNeeded() throws Exception {
    // the machine's default Java on the development VM and in CI; -Dvfps.oldJavaHome names another
    Path oldJava =
        Path.of(System.getProperty("vfps.oldJavaHome", "/usr/lib/jvm/java-17-openjdk-amd64"));
    assumeTrue(Files.isExecutable(oldJava.resolve("bin/java")), "no Java 17 at " + oldJava);

    Run run = runOn(oldJava, Map.of(), "serve");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.output().lines())
        .singleElement(as(InstanceOfAssertFactories.STRING))
        .contains("vfps needs Java 21 or newer, but this is Java 17");
  }

  @Test
  void anUnknownCommandPrintsUsage() throws Exception {
    Run run = run(Map.of(), "frobnicate");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.output()).contains("usage");
  }

  @Test
  void logFormatJsonWritesOneJsonObjectPerLine() throws Exception {
    Run run = run(Map.of("Logging__Format", "json"), "migrate");

    assertThat(run.exitCode()).isEqualTo(2);
    List<JsonObject> lines =
        run.output().lines().filter(line -> line.startsWith("{")).map(JsonObject::new).toList();
    assertThat(lines)
        .anySatisfy(
            line -> {
              assertThat(line.getString("level")).isEqualTo("ERROR");
              assertThat(line.getString("loggerName")).isEqualTo("org.vfps.Main");
              assertThat(line.getString("formattedMessage"))
                  .contains("ConnectionStrings__PostgreSQL");
            });
  }

  @ParameterizedTest
  @ValueSource(strings = {"Grpc__Port", "Http__Port", "MetricsPort"})
  void aPortInUseStopsTheStartNamingThePortAndItsKey(String key) throws Exception {
    try (ServerSocket taken = new ServerSocket()) {
      taken.bind(new InetSocketAddress("0.0.0.0", 0));
      int port = taken.getLocalPort();
      Map<String, String> environment = new HashMap<>();
      environment.put("ConnectionStrings__PostgreSQL", TestPostgres.uri());
      for (String listener : List.of("Grpc__Port", "Http__Port", "MetricsPort")) {
        environment.put(listener, Integer.toString(TestService.freePort()));
      }
      environment.put(key, Integer.toString(port));

      // run() fails the test if the process does not end by itself
      Run run = run(environment, "serve");

      assertThat(run.exitCode()).as(run.output()).isEqualTo(1);
      assertThat(run.output())
          .contains("port " + port + " is in use")
          .contains(key)
          .doesNotContain("\tat ");
    }
  }

  @Test
  void versionPrintsAReleaseVersionAndTheRevision() throws Exception {
    Run run = run(Map.of(), "--version");

    assertThat(run.exitCode()).as(run.output()).isZero();
    assertThat(run.output().strip())
        .matches("vfps [0-9]+\\.[0-9]+\\.[0-9]+ \\(revision ([0-9a-f]{7,40}|unknown)\\)");
  }

  /**
   * The start as {@code bin/vfps} (and the image, through it) makes it: no {@code WARNING:} line of
   * the JDK (JDK 24+ warns there when a library uses {@code sun.misc.Unsafe}), and the version the
   * jar says it is.
   */
  @Test
  void binVfpsStartsWithoutJdkWarnings(@TempDir Path dir) throws Exception {
    String version = run(Map.of(), "--version").output().strip();
    Path home = Path.of(System.getProperty("vfps.jar", "target/vfps.jar")).toAbsolutePath();
    Path log = dir.resolve("vfps.log");
    ProcessBuilder builder =
        new ProcessBuilder("sh", "bin/vfps", "serve")
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    builder.environment().clear();
    builder
        .environment()
        .putAll(
            Map.of(
                "PATH", "/usr/bin:/bin",
                "JAVA_HOME", System.getProperty("java.home"),
                "VFPS_HOME", home.getParent().toString(),
                "ConnectionStrings__PostgreSQL", TestPostgres.uri(),
                "Grpc__Port", Integer.toString(TestService.freePort()),
                "Http__Port", Integer.toString(TestService.freePort()),
                "MetricsPort", Integer.toString(TestService.freePort())));
    Process process = builder.start();
    try {
      org.awaitility.Awaitility.await("the start")
          .atMost(java.time.Duration.ofSeconds(60))
          .until(() -> !process.isAlive() || Files.readString(log).contains(" started in "));
    } finally {
      process.destroy();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
      }
    }
    String output = Files.readString(log, StandardCharsets.UTF_8);

    assertThat(output).contains(version + " started in ");
    assertThat(output.lines()).noneMatch(line -> line.startsWith("WARNING:"));
  }
}
