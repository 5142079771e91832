package org.vfps;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.spi.ILoggingEvent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.vfps.config.ConnectionSettings;
import org.vfps.seal.SealingKeys;
import org.vfps.server.VfpsServer;

/**
 * The service with sealed originals on, for one test class: {@code Sealing__KeyFile} names a new
 * owner-only key file, and the database is a migrated one of the class's own, since a replica
 * without a key file refuses to start on a database holding a sealed namespace (every other test's
 * service shares the common test database). Register it as a static {@code @RegisterExtension}
 * field.
 *
 * <p>While the class runs it keeps everything the service logs, at DEBUG and below, and {@link
 * #assertOriginalsHidden()} checks that neither the pseudonyms table, a dump of the database nor
 * that log holds any value {@link #original} made.
 */
public final class SealedService implements BeforeAllCallback, AfterAllCallback {

  /** A sealed row's {@code original_value}: the blind index, 43 characters of base64url. */
  private static final String BLIND_INDEX = "^[A-Za-z0-9_-]{43}$";

  /** The loggers of the tests' own clients and servers, which the service does not use. */
  private static final List<String> TEST_TOOLS =
      List.of(
          "org.apache.http.",
          "ca.uhn.fhir.rest.client.",
          "org.gaul.",
          "org.eclipse.jetty.",
          "org.openqa.");

  private final Map<String, String> settings;
  private final Set<String> originals = ConcurrentHashMap.newKeySet();
  private final DebugLog log = new DebugLog();
  private Path keyDirectory;
  private ConnectionSettings database;
  private VfpsServer server;

  /** The service with sealing on and the tests' usual settings. */
  public SealedService() {
    this(Map.of());
  }

  /** The service with sealing on and these settings besides (an S3 store, a batch size). */
  public SealedService(Map<String, String> settings) {
    this.settings = Map.copyOf(settings);
  }

  /**
   * Writes a new key file, owner-only, as {@code vfps sealing new-key} does, into the directory;
   * returns its path.
   */
  public static Path writeKeyFile(Path directory) {
    Path file = directory.resolve("sealing-keys.json");
    try {
      SealingKeys.generate().write(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return file;
  }

  @Override
  public void beforeAll(ExtensionContext context) throws IOException {
    log.start();
    keyDirectory = Files.createTempDirectory("vfps-sealing");
    database = TestPostgres.freshDatabase();
    Map<String, String> environment = new HashMap<>(settings);
    environment.put("ConnectionStrings__PostgreSQL", TestPostgres.uri(database));
    environment.put("ForceRunDatabaseMigrations", "true");
    environment.put("Sealing__KeyFile", writeKeyFile(keyDirectory).toString());
    server = TestService.start(environment);
  }

  @Override
  public void afterAll(ExtensionContext context) throws IOException {
    try {
      if (server != null) {
        server.close();
      }
    } finally {
      log.stop();
      if (keyDirectory != null) {
        try (var files = Files.list(keyDirectory)) {
          for (Path file : files.toList()) {
            Files.delete(file);
          }
        }
        Files.delete(keyDirectory);
      }
    }
  }

  /** The running service. */
  public VfpsServer server() {
    return server;
  }

  /** The class's own database. */
  public ConnectionSettings database() {
    return database;
  }

  /**
   * A new original value, unique to this run and recognisable in any text, remembered so that
   * {@link #assertOriginalsHidden()} looks for it.
   */
  public String original(String label) {
    String value = label + "-" + UUID.randomUUID().toString().replace("-", "");
    originals.add(value);
    return value;
  }

  /**
   * Fails unless every namespace is sealed, every row of the pseudonyms table holds a blind index
   * and a sealed value (or was anonymized), no row holds any value {@link #original} made, nor does
   * a {@code pg_dump} of the database (every table), and the service logged none of them.
   */
  public void assertOriginalsHidden() {
    assertThat(originals).as("the test made original values").isNotEmpty();
    assertThat(count("SELECT count(*) FROM pseudonyms")).as("rows were stored").isPositive();
    assertThat(
            count(
                "SELECT count(*) FROM namespaces n WHERE NOT EXISTS (SELECT 1 FROM"
                    + " vfps_namespace_sealing s WHERE s.namespace_name = n.name"
                    + " AND s.writes_sealed AND NOT s.reads_plain)"))
        .as("namespaces that are not sealed")
        .isZero();
    assertThat(
            count(
                "SELECT count(*) FROM pseudonyms WHERE NOT ((x_sealed_original_value IS NOT NULL"
                    + " AND original_value ~ '"
                    + BLIND_INDEX
                    + "') OR (x_sealed_original_value IS NULL"
                    + " AND btrim(original_value, E' \\t') = ''))"))
        .as("rows holding neither a blind index and a sealed value nor an anonymized value")
        .isZero();
    for (String original : originals) {
      assertThat(
              count(
                  "SELECT count(*) FROM pseudonyms WHERE strpos(original_value, ?) > 0"
                      + " OR strpos(pseudonym_value, ?) > 0",
                  original,
                  original))
          .as("rows holding an original value")
          .isZero();
    }
    TestPostgres.dump(database)
        .ifPresent(
            dump -> {
              for (String original : originals) {
                assertThat(dump).as("a dump of the database").doesNotContain(original);
              }
            });
    List<String> lines =
        log.events().stream()
            .filter(SealedService::fromTheService)
            .map(DebugLog::describe)
            .toList();
    assertThat(lines).as("the service's log was captured").isNotEmpty();
    for (String line : lines) {
      for (String original : originals) {
        assertThat(line).as("a log line").doesNotContain(original);
      }
    }
  }

  private long count(String sql, String... parameters) {
    return TestPostgres.queryLong(database, sql, parameters);
  }

  /**
   * Whether the service logged it, not one of the test's own tools, which log what they send at
   * DEBUG: HAPI's FHIR client (Apache HttpClient), the S3 test server (s3proxy on Jetty), Selenium.
   */
  private static boolean fromTheService(ILoggingEvent event) {
    return TEST_TOOLS.stream().noneMatch(tool -> event.getLoggerName().startsWith(tool));
  }
}
