package org.vfps;

import io.vertx.core.Vertx;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.audit.AuditCommand;
import org.vfps.auth.SecretHashing;
import org.vfps.config.ConfigException;
import org.vfps.config.ConfigLoader;
import org.vfps.config.LoadedConfig;
import org.vfps.config.LoggingConfig;
import org.vfps.config.VfpsConfig;
import org.vfps.config.VoprfServerConfig;
import org.vfps.config.VoprfServerSettings;
import org.vfps.log.ConsoleLogging;
import org.vfps.server.AotTraining;
import org.vfps.server.BuildInfo;
import org.vfps.server.SealingCli;
import org.vfps.server.StartupException;
import org.vfps.server.VfpsServer;
import org.vfps.voprf.server.VoprfServer;

/**
 * The command line: {@code vfps [serve]} runs the service until it is stopped; {@code vfps migrate}
 * brings the configured database's schema up to date and exits 0, or non-zero with the reason;
 * {@code vfps hash-secret} reads a client account's secret from standard input and prints the
 * {@code Authorization__Clients__N__SecretHash} to configure; {@code vfps voprf-server} runs the
 * VOPRF server of keyed pseudonyms ({@link VoprfServer}, settings {@code VoprfServer__*}) until it
 * is stopped; {@code vfps --version} prints the version and the git revision it was built from
 * ({@code vfps 1.0.0 (revision 4bd8d3c)}); {@code vfps audit verify|new-key} verifies audit logs
 * and makes the key of their checkpoints ({@link AuditCommand}). A bad setting exits 2, naming it.
 */
public final class Main {

  private static final Logger LOG = LoggerFactory.getLogger(Main.class);

  private Main() {}

  private static final String USAGE =
      "usage: vfps [serve|migrate|train|hash-secret|voprf-server] [--config appsettings.json]"
          + " | vfps sealing ... | vfps audit verify|new-key ... | vfps --version";

  public static void main(String[] args) {
    if (args.length == 1 && args[0].equals("--version")) {
      System.out.println("vfps " + BuildInfo.current().describe());
      System.exit(0);
      return;
    }
    if (args.length > 0 && args[0].equals("sealing")) {
      sealing(args);
      return;
    }
    if (args.length > 0 && args[0].equals("audit")) {
      // reads files only: no settings, no database
      System.exit(
          AuditCommand.run(Arrays.asList(args).subList(1, args.length), System.out, System.err));
      return;
    }
    String command = "serve";
    Path settingsFile = null;
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--config") && i + 1 < args.length) {
        settingsFile = Path.of(args[++i]);
      } else if (i == 0 && !args[i].startsWith("-")) {
        command = args[i];
      } else {
        usage();
        return;
      }
    }
    if (command.equals("hash-secret")) {
      hashSecret();
      return;
    }
    if (command.equals("voprf-server")) {
      voprfServer(settingsFile);
      return;
    }
    Optional<Path> file = Optional.ofNullable(settingsFile);
    Optional<LoadedConfig> loaded = settingsOrExit(() -> ConfigLoader.read(System.getenv(), file));
    if (loaded.isEmpty()) {
      return;
    }
    VfpsConfig config = loaded.get().config();
    startLogging(config.logging(), loaded.get().unreadKeys(), "vfps");
    switch (command) {
      case "serve" -> serve(config);
      case "migrate" -> migrate(config);
      case "train" -> train();
      default -> usage();
    }
  }

  /**
   * {@code vfps sealing SUBCOMMAND ... [--config FILE]} ({@link SealingCli}): the key file's
   * commands need no configuration, the others the service's database and key file.
   */
  private static void sealing(String[] args) {
    List<String> rest = new ArrayList<>(List.of(args).subList(1, args.length));
    Path settingsFile = null;
    int config = rest.indexOf("--config");
    if (config >= 0 && config + 1 < rest.size()) {
      settingsFile = Path.of(rest.get(config + 1));
      rest.subList(config, config + 2).clear();
    }
    SealingCli cli = new SealingCli(System.out, System.err);
    if (!SealingCli.needsConfig(rest)) {
      System.exit(cli.newKey(rest));
      return;
    }
    LoadedConfig loaded;
    try {
      loaded = ConfigLoader.read(System.getenv(), Optional.ofNullable(settingsFile));
    } catch (ConfigException e) {
      System.err.println("Invalid configuration: " + e.getMessage());
      System.exit(2);
      return;
    }
    ConsoleLogging.apply(loaded.config().logging());
    System.exit(cli.run(rest, loaded.config()));
  }

  /** Reads settings; fails with the {@link ConfigException} that names the offending key. */
  private interface SettingsRead<T> {
    T read() throws ConfigException;
  }

  /**
   * The settings {@code read} gives; empty once an invalid one is logged and the process told to
   * exit 2.
   */
  private static <T> Optional<T> settingsOrExit(SettingsRead<T> read) {
    try {
      return Optional.of(read.read());
    } catch (ConfigException e) {
      LOG.error("Invalid configuration: {}", e.getMessage());
      System.exit(2);
      return Optional.empty();
    }
  }

  /**
   * Applies the console logging, then warns of each key read from the settings that is not a
   * setting of {@code whose} (the service or the VOPRF server).
   */
  private static void startLogging(LoggingConfig logging, List<String> unreadKeys, String whose) {
    ConsoleLogging.apply(logging);
    for (String key : unreadKeys) {
      // the name only: a misspelt key may hold a secret
      LOG.warn("{} is not a setting of {} and is ignored (a typo?)", key, whose);
    }
  }

  private static void train() {
    try {
      AotTraining.run();
      System.exit(0);
    } catch (Exception e) {
      LOG.error("The training run failed", e);
      System.exit(1);
    }
  }

  /**
   * Reads one line (the secret) from standard input and prints its hash; exits 2 when there is
   * none.
   */
  private static void hashSecret() {
    char[] secret;
    try {
      secret = readSecret();
    } catch (IOException e) {
      System.err.println("hash-secret: standard input cannot be read: " + e.getMessage());
      System.exit(2);
      return;
    }
    if (secret.length == 0) {
      System.err.println("hash-secret: write the secret to standard input, e.g.");
      System.err.println("  printf '%s' \"$SECRET\" | java -jar vfps.jar hash-secret");
      System.exit(2);
      return;
    }
    try {
      System.out.println(SecretHashing.hash(secret));
    } finally {
      Arrays.fill(secret, '\0');
    }
    System.exit(0);
  }

  /** The first line of standard input, without its line break; empty when there is none. */
  private static char[] readSecret() throws IOException {
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line = in.readLine();
    return line == null ? new char[0] : line.toCharArray();
  }

  private static void usage() {
    System.err.println(USAGE);
    System.exit(2);
  }

  private static void serve(VfpsConfig config) {
    VfpsServer server;
    try {
      server = VfpsServer.start(config);
    } catch (ConfigException e) {
      LOG.error("Invalid configuration: {}", e.getMessage());
      System.exit(2);
      return;
    } catch (StartupException e) {
      LOG.error(e.getMessage(), e.getCause());
      System.exit(1);
      return;
    }
    // Vert.x's non-daemon threads keep the process alive until a signal runs this hook
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  LOG.info("Stopping vfps");
                  server.close();
                },
                "vfps-shutdown"));
  }

  /** Loads the VOPRF server's settings, starts it, and stops it on SIGTERM. */
  private static void voprfServer(Path settingsFile) {
    Optional<VoprfServerSettings.Loaded> loaded =
        settingsOrExit(
            () -> VoprfServerSettings.read(System.getenv(), Optional.ofNullable(settingsFile)));
    if (loaded.isEmpty()) {
      return;
    }
    VoprfServerConfig config = loaded.get().config();
    startLogging(config.logging(), loaded.get().unreadKeys(), "the VOPRF server");
    Vertx vertx = Vertx.vertx();
    VoprfServer server;
    try {
      server = VoprfServer.start(vertx, config).await();
    } catch (ConfigException e) {
      LOG.error("Invalid configuration: {}", e.getMessage());
      vertx.close();
      System.exit(2);
      return;
    } catch (Exception e) {
      LOG.error("The VOPRF server cannot start: {}", e.getMessage(), e);
      vertx.close();
      System.exit(1);
      return;
    }
    LOG.info(
        "VOPRF server listening on gRPC port {}: key id {}, public key {}",
        server.port(),
        server.keyId(),
        Base64.getEncoder().encodeToString(server.publicKey()));
    if (!config.hardening().enabled()) {
      LOG.warn(
          "Hardening is off (VoprfServer__Hardening__IsEnabled=false, Development only): the VOPRF"
              + " server listens {} without authentication or rate limit",
          server.tls() ? "over TLS" : "in clear text");
    }
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  LOG.info("Stopping the VOPRF server");
                  try {
                    server.close().await();
                    vertx.close().await();
                  } catch (Exception e) {
                    LOG.warn("The VOPRF server did not stop cleanly: {}", e.toString());
                  }
                },
                "voprf-shutdown"));
  }

  private static void migrate(VfpsConfig config) {
    if (config.database().connection().isEmpty()) {
      LOG.error(
          "migrate needs a database: set ConnectionStrings__PostgreSQL (the embedded development"
              + " database is migrated whenever the service starts)");
      System.exit(2);
    }
    try {
      VfpsServer.migrate(config.database().connection().get());
      System.exit(0);
    } catch (StartupException e) {
      LOG.error(e.getMessage());
      System.exit(1);
    }
  }
}
