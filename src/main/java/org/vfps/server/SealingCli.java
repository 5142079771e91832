package org.vfps.server;

import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.vfps.admission.Admission;
import org.vfps.config.SealingConfig;
import org.vfps.config.VfpsConfig;
import org.vfps.seal.Sealer;
import org.vfps.seal.SealingException;
import org.vfps.seal.SealingKeyFile;
import org.vfps.seal.SealingKeys;
import org.vfps.storage.Database;
import org.vfps.storage.SealingCommands;
import org.vfps.storage.UpsertTimer;

/**
 * {@code vfps sealing ...}: the commands of sealed originals (docs/sealed-originals.md). Each
 * returns the process's exit code: 0 done, 1 failed, 2 a usage or configuration error.
 *
 * <ul>
 *   <li>{@code new-key --out FILE}: writes a new key file, owner-only; refuses an existing file.
 *   <li>{@code seal NAMESPACE}, {@code unseal NAMESPACE}: turns an existing namespace's rows into
 *       the other form, online ({@link SealingCommands}).
 *   <li>{@code rotate [--out FILE]}: adds a data key version to the key file of {@code
 *       Sealing__KeyFile}; in place, it then re-encrypts every sealed value under it; with {@code
 *       --out}, it writes the new file there and leaves the database as it is, for every replica to
 *       be restarted with it before {@code re-encrypt}.
 *   <li>{@code re-encrypt}: re-encrypts every sealed value not under the newest data key.
 *   <li>{@code rotate-index [--out FILE]} and {@code re-index}: the same for the index key: a new
 *       index secret version, then every sealed namespace moved to it online ({@link
 *       SealingCommands#reindex}).
 * </ul>
 */
public final class SealingCli {

  static final String USAGE =
      "usage: vfps sealing new-key --out FILE | seal NAMESPACE | unseal NAMESPACE"
          + " | rotate [--out FILE] | re-encrypt | rotate-index [--out FILE] | re-index"
          + "   [--config appsettings.json]";

  private final PrintStream out;
  private final PrintStream err;

  public SealingCli(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  /** Whether the command needs the configuration (a database, a key file). */
  public static boolean needsConfig(List<String> args) {
    return !args.isEmpty() && !args.get(0).equals("new-key");
  }

  /** {@code new-key --out FILE}. */
  public int newKey(List<String> args) {
    if (args.size() != 3 || !args.get(1).equals("--out")) {
      err.println(USAGE);
      return 2;
    }
    Path file = Path.of(args.get(2));
    if (Files.exists(file)) {
      err.println("sealing new-key: " + file + " exists; choose another file");
      return 2;
    }
    try {
      SealingKeys.generate().write(file);
    } catch (IOException e) {
      err.println("sealing new-key: " + file + " cannot be written: " + e.getMessage());
      return 1;
    }
    out.println(
        "Wrote a new sealing key file to "
            + file
            + " (owner-only). Keep a copy where the database's backups are not; set "
            + SealingConfig.KEY_FILE_SETTING
            + " to it on every replica.");
    return 0;
  }

  /** The commands on the database: {@code seal}, {@code unseal}, {@code rotate}, re-encrypt. */
  public int run(List<String> args, VfpsConfig config) {
    String command = args.isEmpty() ? "" : args.get(0);
    boolean known =
        switch (command) {
          case "seal", "unseal" -> args.size() == 2;
          case "re-encrypt", "re-index" -> args.size() == 1;
          case "rotate", "rotate-index" ->
              args.size() == 1 || (args.size() == 3 && args.get(1).equals("--out"));
          default -> false;
        };
    if (!known) {
      err.println(USAGE);
      return 2;
    }
    if (config.sealing().keyFile().isEmpty()) {
      err.println("sealing " + command + ": set " + SealingConfig.KEY_FILE_SETTING);
      return 2;
    }
    if (config.database().connection().isEmpty()) {
      err.println(
          "sealing " + command + ": needs the service's database (ConnectionStrings__PostgreSQL)");
      return 2;
    }
    Path keyFile = config.sealing().keyFile().get();
    SealingKeys keys;
    try {
      keys = SealingKeys.read(keyFile);
    } catch (SealingException e) {
      err.println(SealingConfig.KEY_FILE_SETTING + ": " + e.getMessage());
      return 2;
    }
    boolean rotatedInPlace = false;
    if (command.equals("rotate") || command.equals("rotate-index")) {
      boolean index = command.equals("rotate-index");
      SealingKeys rotated = index ? keys.withNewIndexSecret() : keys.withNewDataKey();
      Path target = args.size() == 3 ? Path.of(args.get(2)) : keyFile;
      try {
        rotated.write(target);
      } catch (IOException e) {
        err.println("sealing rotate: " + target + " cannot be written: " + e.getMessage());
        return 1;
      }
      out.println(
          (index
                  ? "Added index key version " + rotated.currentIndexVersion()
                  : "Added data key version " + rotated.currentVersion())
              + " to "
              + target
              + ".");
      if (!target.equals(keyFile)) {
        out.println(
            "Give that file to every replica (a replica reads its key file again when it changes,"
                + " within "
                + Database.KEY_FILE_CHECK_MILLIS / 1000
                + " s), then run `vfps sealing "
                + (index ? "re-index" : "re-encrypt")
                + "` with it.");
        return 0;
      }
      keys = rotated;
      rotatedInPlace = true;
    }
    Sealer sealer = new Sealer(keys);
    Vertx vertx = Vertx.vertx();
    try (Database database =
        Database.connect(
            vertx,
            config.database().connection().get(),
            UpsertTimer.NONE,
            Admission.unbounded(),
            SealingKeyFile.fixed(sealer))) {
      SealingCommands commands =
          SealingCommands.on(vertx, database, sealer, out::println, SealingCommands.SETTLE);
      if (rotatedInPlace) {
        // the replicas that share the file read it again before any value is sealed under it
        long wait = 2 * Database.KEY_FILE_CHECK_MILLIS;
        out.println("waiting " + wait / 1000 + " s for every replica to read the new key file");
        vertx.timer(wait).await();
      }
      long count =
          switch (command) {
            case "seal" -> commands.seal(args.get(1)).await();
            case "unseal" -> commands.unseal(args.get(1)).await();
            case "rotate-index", "re-index" -> commands.reindexAll().await();
            default -> commands.reencrypt().await();
          };
      out.println("sealing " + command + ": done (" + count + " values)");
      return 0;
    } catch (RuntimeException e) {
      err.println("sealing " + command + " failed: " + StartupException.rootMessage(e));
      return 1;
    } finally {
      vertx.close();
    }
  }
}
