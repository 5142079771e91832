package org.vfps;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;
import org.vfps.config.ConfigLoader;
import org.vfps.config.ConnectionSettings;
import org.vfps.namespace.GenerationMethod;
import org.vfps.namespace.Namespace;
import org.vfps.namespace.OriginalValueRegex;
import org.vfps.namespace.ParentValidationMode;
import org.vfps.storage.Migrations;

/**
 * The one PostgreSQL of a test JVM: the server named by {@code VFPS_TEST_DATABASE_URL} (a {@code
 * postgresql://} URI; {@code .ci/run} sets it), else a Testcontainers PostgreSQL where Docker runs,
 * else an embedded PostgreSQL. The shared database is migrated once; tests keep apart by using
 * their own namespace names or {@link #freshDatabase()}.
 */
public final class TestPostgres {

  private static final Logger LOG = LoggerFactory.getLogger(TestPostgres.class);
  private static ConnectionSettings shared;

  /** The databases {@link #freshDatabase()} made, dropped when the test JVM exits. */
  private static final Set<String> FRESH = ConcurrentHashMap.newKeySet();

  private TestPostgres() {}

  /** The migrated shared database, started on first use. */
  public static synchronized ConnectionSettings database() {
    if (shared == null) {
      shared = startServer();
      Migrations.migrate(shared);
    }
    return shared;
  }

  /** The shared database as a {@code postgresql://} URI, as a user would configure it. */
  public static String uri() {
    return uri(database());
  }

  public static String uri(ConnectionSettings settings) {
    return "postgresql://"
        + settings.user()
        + (settings.password() == null ? "" : ":" + settings.password())
        + "@"
        + settings.host()
        + ":"
        + settings.port()
        + "/"
        + settings.database();
  }

  /**
   * A new, empty and unmigrated database on the same server, dropped when the test JVM exits (so
   * that a developer's server does not collect them run after run).
   */
  public static ConnectionSettings freshDatabase() {
    ConnectionSettings server = database();
    String name = "vfps_test_" + UUID.randomUUID().toString().replace("-", "");
    execute(server, "CREATE DATABASE " + name);
    synchronized (FRESH) {
      if (FRESH.isEmpty()) {
        Runtime.getRuntime()
            .addShutdownHook(new Thread(() -> dropFresh(server), "drop-fresh-databases"));
      }
      FRESH.add(name);
    }
    return new ConnectionSettings(
        server.host(),
        server.port(),
        name,
        server.user(),
        server.password(),
        server.maxPoolSize(),
        server.connectTimeout(),
        server.sslMode(),
        server.applicationName());
  }

  private static void dropFresh(ConnectionSettings server) {
    for (String name : FRESH) {
      try {
        // FORCE: a service a test left running may still hold connections to it
        execute(server, "DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
      } catch (IllegalStateException e) {
        LOG.warn("Could not drop the test database {}: {}", name, e.getMessage());
      }
    }
  }

  /** Runs a query whose first column of its first row is a number, e.g. a count. */
  public static long queryLong(ConnectionSettings settings, String sql, String... parameters) {
    try (Connection connection = connect(settings);
        PreparedStatement statement = connection.prepareStatement(sql)) {
      for (int i = 0; i < parameters.length; i++) {
        statement.setString(i + 1, parameters[i]);
      }
      try (ResultSet result = statement.executeQuery()) {
        result.next();
        return result.getLong(1);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("SQL failed: " + e.getMessage(), e);
    }
  }

  /**
   * The namespace row of that name in the database, as the storage binds writes to it: its name and
   * time of creation. The other settings are the defaults; the storage does not read them.
   */
  public static Namespace storedNamespace(ConnectionSettings settings, String name) {
    try (Connection connection = connect(settings);
        PreparedStatement statement =
            connection.prepareStatement("SELECT created_at FROM namespaces WHERE name = ?")) {
      statement.setString(1, name);
      try (ResultSet result = statement.executeQuery()) {
        if (!result.next()) {
          throw new IllegalStateException("no namespace '" + name + "'");
        }
        Instant createdAt = result.getObject(1, OffsetDateTime.class).toInstant();
        return new Namespace(
            name,
            "",
            GenerationMethod.UNSPECIFIED,
            16,
            "",
            "",
            OriginalValueRegex.NONE,
            false,
            null,
            ParentValidationMode.UNSPECIFIED,
            null,
            createdAt,
            createdAt);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("SQL failed: " + e.getMessage(), e);
    }
  }

  /** {@link #storedNamespace(ConnectionSettings, String)} in the shared database. */
  public static Namespace storedNamespace(String name) {
    return storedNamespace(database(), name);
  }

  /** The number of pseudonyms stored for the namespace in the shared database. */
  public static long pseudonymCount(String namespace) {
    return queryLong(
        database(), "SELECT count(*) FROM pseudonyms WHERE namespace_name = ?", namespace);
  }

  /** How many pseudonyms the original value has in the namespace, read from the test database. */
  public static long pseudonymCount(String namespace, String originalValue) {
    return queryLong(
        database(),
        "SELECT count(*) FROM pseudonyms WHERE namespace_name = ? AND original_value = ?",
        namespace,
        originalValue);
  }

  /** The indexes of the pseudonyms table by name, each followed by " (unique)" where it is. */
  public static List<String> pseudonymIndexes(ConnectionSettings settings) {
    try (Connection connection = connect(settings);
        Statement statement = connection.createStatement();
        ResultSet result =
            statement.executeQuery(
                "SELECT c.relname, i.indisunique FROM pg_index i"
                    + " JOIN pg_class c ON c.oid = i.indexrelid"
                    + " WHERE i.indrelid = 'pseudonyms'::regclass ORDER BY c.relname")) {
      List<String> indexes = new ArrayList<>();
      while (result.next()) {
        indexes.add(result.getString(1) + (result.getBoolean(2) ? " (unique)" : ""));
      }
      return indexes;
    } catch (SQLException e) {
      throw new IllegalStateException("SQL failed: " + e.getMessage(), e);
    }
  }

  /**
   * The database's data as {@code pg_dump --data-only} writes it, for tests that search a dump;
   * empty where no {@code pg_dump} of the server's major version is on the path (the embedded
   * server of a machine without Docker is PostgreSQL 17, a Debian client may be older), except
   * under {@code CI=true}, where that fails the test.
   */
  public static Optional<String> dump(ConnectionSettings settings) {
    try {
      java.nio.file.Path out = Files.createTempFile("vfps-dump", ".sql");
      try {
        Process process;
        try {
          process =
              new ProcessBuilder(
                      "pg_dump", "--data-only", "--no-owner", "-f", out.toString(), uri(settings))
                  .redirectErrorStream(true)
                  .start();
        } catch (IOException e) {
          return noDump("no pg_dump on the path (postgresql-client)");
        }
        String output =
            new String(
                process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (!process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
          process.destroyForcibly();
          throw new AssertionError("pg_dump did not end in 60 s: " + output);
        }
        if (process.exitValue() != 0 && output.contains("server version mismatch")) {
          return noDump("pg_dump is of another major version than the server: " + output.strip());
        }
        if (process.exitValue() != 0) {
          throw new AssertionError("pg_dump failed: " + output);
        }
        return Optional.of(Files.readString(out));
      } finally {
        Files.deleteIfExists(out);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static Optional<String> noDump(String why) {
    if ("true".equals(System.getenv("CI"))) {
      throw new AssertionError("CI=true needs a dump of the test database: " + why);
    }
    LOG.warn("No dump of the test database is searched: {}", why);
    return Optional.empty();
  }

  /** Runs SQL statements over JDBC, for setting up what the service itself would never write. */
  public static void execute(ConnectionSettings settings, String... statements) {
    try (Connection connection = connect(settings);
        Statement statement = connection.createStatement()) {
      for (String sql : statements) {
        statement.execute(sql);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("SQL failed: " + e.getMessage(), e);
    }
  }

  /** A JDBC connection of its own, for holding a transaction open while the service works. */
  public static Connection connect(ConnectionSettings settings) throws SQLException {
    String url =
        "jdbc:postgresql://" + settings.host() + ":" + settings.port() + "/" + settings.database();
    return DriverManager.getConnection(url, settings.user(), settings.password());
  }

  private static ConnectionSettings startServer() {
    String url = System.getenv("VFPS_TEST_DATABASE_URL");
    if (url != null && !url.isBlank()) {
      ConnectionSettings settings = settingsOf(url);
      LOG.info("Tests use the PostgreSQL at {} (VFPS_TEST_DATABASE_URL)", where(settings));
      return settings;
    }
    if (DockerClientFactory.instance().isDockerAvailable()) {
      PostgreSQLContainer container = new PostgreSQLContainer("postgres:17-alpine");
      container.start();
      Runtime.getRuntime().addShutdownHook(new Thread(container::stop));
      ConnectionSettings settings =
          settingsOf(
              "postgresql://"
                  + container.getUsername()
                  + ":"
                  + container.getPassword()
                  + "@"
                  + container.getHost()
                  + ":"
                  + container.getFirstMappedPort()
                  + "/"
                  + container.getDatabaseName());
      LOG.info(
          "Tests use a Testcontainers PostgreSQL ({}) at {} (no VFPS_TEST_DATABASE_URL)",
          container.getDockerImageName(),
          where(settings));
      return settings;
    }
    try {
      EmbeddedPostgres postgres =
          EmbeddedPostgres.builder()
              .setDataDirectory(Files.createTempDirectory("vfps-test-pg"))
              .start();
      Runtime.getRuntime().addShutdownHook(new Thread(() -> closeQuietly(postgres)));
      ConnectionSettings settings =
          settingsOf("postgresql://postgres@127.0.0.1:" + postgres.getPort() + "/postgres");
      LOG.info(
          "Tests use an embedded PostgreSQL at {} (no VFPS_TEST_DATABASE_URL, no Docker)",
          where(settings));
      return settings;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String where(ConnectionSettings settings) {
    return settings.host() + ":" + settings.port() + "/" + settings.database();
  }

  private static ConnectionSettings settingsOf(String uri) {
    return ConfigLoader.load(Map.of("ConnectionStrings__PostgreSQL", uri))
        .database()
        .connection()
        .orElseThrow();
  }

  private static void closeQuietly(EmbeddedPostgres postgres) {
    try {
      postgres.close();
    } catch (IOException ignored) {
      // the JVM is exiting
    }
  }
}
