package org.vfps;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.config.ConnectionSettings;
import org.vfps.storage.Migrations;

/**
 * The packaged jar with the container's JVM flags (read from the Dockerfile, so {@code -Xmx32m} and
 * {@code -XX:+ExitOnOutOfMemoryError}) against 5,000 namespaces of the largest size: about 24 MB of
 * JSON, which a GetAll built in memory cannot hold.
 */
class SmallHeapIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static final int NAMESPACES = 5_000;

  private static Process service;
  private static Path log;
  private static int httpPort;
  private static int grpcPort;

  @BeforeAll
  static void startOnManyLargeNamespaces() throws Exception {
    ConnectionSettings database = TestPostgres.freshDatabase();
    Migrations.migrate(database);
    TestPostgres.execute(
        database,
        "INSERT INTO namespaces (name, description, pseudonym_generation_method,"
            + " pseudonym_length, pseudonym_prefix, pseudonym_suffix, created_at,"
            + " last_updated_at) SELECT 'large-' || g, repeat('d', 4096), 1, 32,"
            + " repeat('p', 256), repeat('s', 256), now(), now()"
            + " FROM generate_series(1, "
            + NAMESPACES
            + ") g");
    httpPort = TestService.freePort();
    grpcPort = TestService.freePort();
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(containerJavaOptions());
    command.addAll(List.of("-jar", System.getProperty("vfps.jar", "target/vfps.jar"), "serve"));
    log = resources.own(Files.createTempFile("vfps-small-heap", ".log"), Files::deleteIfExists);
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().clear();
    builder.environment().put("ConnectionStrings__PostgreSQL", TestPostgres.uri(database));
    builder.environment().put("Http__Port", Integer.toString(httpPort));
    builder.environment().put("Grpc__Port", Integer.toString(grpcPort));
    builder.environment().put("MetricsPort", Integer.toString(TestService.freePort()));
    service = ServiceProcess.startAndAwait(resources, builder, log);
  }

  @Test
  void restGetAllOfManyLargeNamespacesStreamsWithoutRunningOutOfMemory() throws Exception {
    try (HttpTestClient http = new HttpTestClient(httpPort)) {
      HttpTestClient.Response all = http.get("/v1/namespaces");

      assertThat(all.status()).as(Files.readString(log)).isEqualTo(200);
      assertThat(all.json().getJsonArray("namespaces")).hasSize(NAMESPACES);
      assertThat(service.isAlive()).as(Files.readString(log)).isTrue();
      assertThat(http.get("/livez").status()).isEqualTo(200);
    }
  }

  /** The {@code JAVA_OPTS} the Dockerfile ships. */
  private static List<String> containerJavaOptions() throws IOException {
    Matcher options =
        Pattern.compile("ENV JAVA_OPTS=\"([^\"]+)\"")
            .matcher(Files.readString(Path.of("Dockerfile")));
    assertThat(options.find()).as("JAVA_OPTS in the Dockerfile").isTrue();
    assertThat(options.group(1)).contains("-Xmx32m", "-XX:+ExitOnOutOfMemoryError");
    return Arrays.asList(options.group(1).split(" "));
  }
}
