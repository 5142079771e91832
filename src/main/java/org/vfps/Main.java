package org.vfps;

import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.config.ConfigException;
import org.vfps.config.ConfigLoader;
import org.vfps.config.VfpsConfig;

/**
 * The command line: {@code vfps [serve]} runs the service until it is stopped; {@code vfps migrate}
 * brings the configured database's schema up to date and exits 0, or non-zero with the reason.
 */
public final class Main {

  private static final Logger LOG = LoggerFactory.getLogger(Main.class);

  private Main() {}

  private static final String USAGE =
      "usage: vfps [serve|migrate|train] [--config appsettings.json]";

  public static void main(String[] args) {
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
    VfpsConfig config;
    try {
      config = settingsFile == null ? ConfigLoader.load() : ConfigLoader.load(settingsFile);
    } catch (ConfigException e) {
      LOG.error("Invalid configuration: {}", e.getMessage());
      System.exit(2);
      return;
    }
    ConsoleLogging.apply(config.logging());
    switch (command) {
      case "serve" -> serve(config);
      case "migrate" -> migrate(config);
      case "train" -> train();
      default -> usage();
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

  /** The version in the jar's manifest, or {@code dev} when run from classes. */
  static String version() {
    String version = Main.class.getPackage().getImplementationVersion();
    return version == null ? "dev" : version;
  }
}
