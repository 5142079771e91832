package org.vfps;

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

  public static void main(String[] args) {
    String command = args.length == 0 ? "serve" : args[0];
    VfpsConfig config;
    try {
      config = ConfigLoader.load();
    } catch (ConfigException e) {
      LOG.error("Invalid configuration: {}", e.getMessage());
      System.exit(2);
      return;
    }
    switch (command) {
      case "serve" -> serve(config);
      case "migrate" -> migrate(config);
      default -> {
        System.err.println("usage: vfps [serve|migrate]");
        System.exit(2);
      }
    }
  }

  private static void serve(VfpsConfig config) {
    VfpsServer server;
    try {
      server = VfpsServer.start(config);
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
