package org.vfps.server;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.config.ConfigLoader;
import org.vfps.storage.Migrations;

/**
 * The database of the AOT training run: an embedded PostgreSQL that the service reaches the way it
 * reaches a production database, through a connection string, over TCP, with TLS (the default
 * {@code SSL Mode=Prefer} finds the server speaks it) and a SCRAM password. The cache then holds
 * the JDK's TLS client and the SCRAM exchange as well, which otherwise load and link class by class
 * on every start against such a database (about 800 classes and a third of a second here).
 *
 * <p>The training run {@link #launch launches} it, migrated, in a JVM of its own: a JVM started
 * with an AOT cache loads every class the cache holds, so what only the embedded server, JDBC and
 * Flyway need (about 1,700 classes) must not be recorded with the service.
 *
 * <p>The server's certificate is a throwaway one that {@code keytool} makes for the run. Where the
 * JVM has no {@code keytool}, the run goes on without TLS and says so.
 */
public final class TrainingDatabase implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(TrainingDatabase.class);

  private static final String ROLE = "vfps_training";

  /** The bootstrap superuser stays on trust (the library checks readiness as it); vfps on SCRAM. */
  private static final String HOST_BASED_AUTHENTICATION =
      """
      local all all trust
      host all postgres 127.0.0.1/32 trust
      host all postgres ::1/128 trust
      host all all 127.0.0.1/32 scram-sha-256
      host all all ::1/128 scram-sha-256
      """;

  /** How long the launched JVM may take to start and migrate the database. */
  private static final Duration LAUNCH_PATIENCE = Duration.ofMinutes(2);

  private final EmbeddedPostgres postgres;
  private final String password;

  private TrainingDatabase(EmbeddedPostgres postgres, String password) {
    this.postgres = postgres;
    this.password = password;
  }

  /** Starts it with its data, and its certificate when it can make one, under {@code scratch}. */
  static TrainingDatabase start(Path scratch) throws IOException {
    Path keyStore = scratch.resolve("training-server.p12");
    String storePassword = randomHex();
    boolean tls = makeCertificate(keyStore, storePassword);
    EmbeddedPostgres postgres =
        EmbeddedPostgres.builder()
            .setDataDirectory(scratch.resolve("postgres"))
            .setCleanDataDirectory(true)
            .setPGStartupWait(Duration.ofSeconds(30))
            .setServerConfig("ssl", tls ? "on" : "off")
            .setDataDirectoryCustomizer(
                directory -> prepare(directory.toPath(), tls ? keyStore : null, storePassword))
            .start();
    // the certificate and key are in the data directory now, which closing the server removes
    Files.deleteIfExists(keyStore);
    String password = randomHex();
    try (Connection connection = postgres.getPostgresDatabase().getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE ROLE " + ROLE + " LOGIN PASSWORD '" + password + "'");
      statement.execute("CREATE DATABASE " + ROLE + " OWNER " + ROLE);
    } catch (SQLException e) {
      postgres.close();
      throw new IOException("Cannot prepare the training database: " + e.getMessage(), e);
    }
    return new TrainingDatabase(postgres, password);
  }

  /**
   * {@code java -cp <class path> org.vfps.server.TrainingDatabase <scratch> <connection file>}:
   * starts the database under {@code scratch}, migrates it, writes its connection string to the
   * file (in {@code scratch}, which only its owner may read) and serves until its standard input
   * closes.
   */
  public static void main(String[] args) throws Exception {
    try (TrainingDatabase database = start(Path.of(args[0]))) {
      Migrations.migrate(
          ConfigLoader.load(Map.of("ConnectionStrings__PostgreSQL", database.connectionString()))
              .database()
              .connection()
              .orElseThrow());
      Path written = Path.of(args[1] + ".partial");
      Files.writeString(written, database.connectionString());
      Files.move(written, Path.of(args[1]), StandardCopyOption.ATOMIC_MOVE);
      System.in.transferTo(OutputStream.nullOutputStream());
    }
  }

  /** Starts the database, migrated, in a {@link ChildJvm}. */
  static Launched launch(Path scratch) throws IOException, InterruptedException {
    Path connectionFile = scratch.resolve("connection");
    Process process =
        ChildJvm.start(
            TrainingDatabase.class.getName(), scratch.toString(), connectionFile.toString());
    long deadline = System.nanoTime() + LAUNCH_PATIENCE.toNanos();
    while (!Files.exists(connectionFile)) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        String why =
            process.isAlive() ? " within " + LAUNCH_PATIENCE : ": exit " + process.exitValue();
        process.destroy();
        throw new IOException("The training database did not start" + why);
      }
      Thread.sleep(50);
    }
    String connectionString = Files.readString(connectionFile);
    Files.delete(connectionFile);
    return new Launched(process, connectionString);
  }

  /** The database in the JVM that {@link #launch} started; closing it stops both. */
  record Launched(Process process, String connectionString) implements AutoCloseable {

    @Override
    public void close() throws IOException {
      process.getOutputStream().close();
      try {
        if (!process.waitFor(LAUNCH_PATIENCE.toSeconds(), TimeUnit.SECONDS)) {
          process.destroyForcibly();
          throw new IOException("The training database did not stop");
        }
      } catch (InterruptedException e) {
        process.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
  }

  /** The service's {@code ConnectionStrings__PostgreSQL}, with the default SSL mode. */
  String connectionString() {
    return "Host=127.0.0.1;Port="
        + postgres.getPort()
        + ";Database="
        + ROLE
        + ";Username="
        + ROLE
        + ";Password="
        + password;
  }

  @Override
  public void close() throws IOException {
    postgres.close();
  }

  private static boolean makeCertificate(Path keyStore, String storePassword) {
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    List<String> command =
        List.of(
            keytool.toString(),
            "-genkeypair",
            "-alias",
            "server",
            "-keyalg",
            "RSA",
            "-keysize",
            "2048",
            "-dname",
            "CN=localhost",
            "-validity",
            "1",
            "-storetype",
            "PKCS12",
            "-keystore",
            keyStore.toString(),
            "-storepass",
            storePassword,
            "-noprompt");
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes());
      if (process.waitFor(60, TimeUnit.SECONDS) && process.exitValue() == 0) {
        return true;
      }
      LOG.info("keytool could not make a certificate, training without TLS: {}", output.strip());
    } catch (IOException e) {
      LOG.info("No keytool in this JVM ({}), training without TLS", e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return false;
  }

  /** Writes the authentication rules and, with a key store, the certificate and its key. */
  private static void prepare(Path dataDirectory, Path keyStore, String storePassword) {
    try {
      Files.writeString(dataDirectory.resolve("pg_hba.conf"), HOST_BASED_AUTHENTICATION);
      if (keyStore == null) {
        return;
      }
      KeyStore store = KeyStore.getInstance("PKCS12");
      try (var in = Files.newInputStream(keyStore)) {
        store.load(in, storePassword.toCharArray());
      }
      Files.writeString(
          dataDirectory.resolve("server.crt"),
          pem("CERTIFICATE", store.getCertificate("server").getEncoded()));
      Path key = dataDirectory.resolve("server.key");
      Files.writeString(
          key,
          pem("PRIVATE KEY", store.getKey("server", storePassword.toCharArray()).getEncoded()));
      // PostgreSQL refuses a key that others may read
      Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("Cannot read the training certificate: " + e, e);
    }
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN "
        + type
        + "-----\n"
        + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
        + "\n-----END "
        + type
        + "-----\n";
  }

  private static String randomHex() {
    byte[] bytes = new byte[16];
    new SecureRandom().nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }
}
