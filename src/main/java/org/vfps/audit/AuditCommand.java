package org.vfps.audit;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code vfps audit}: {@code verify [--public-key FILE]... [--partial] FILE...} verifies collected
 * logs ({@code --partial}: a chain may begin past its first line, older files rotated away; exit 0
 * when every chain holds, 1 naming the first line that breaks one and why, 2 on a usage error or a
 * file that cannot be read); {@code new-key --out FILE} writes a new checkpoint signing key to FILE
 * (owner-only) and its public key to {@code FILE.pub} and standard output.
 */
public final class AuditCommand {

  /** The command line's usage. */
  public static final String USAGE =
      "usage: vfps audit verify [--public-key FILE]... [--partial] FILE..."
          + " | vfps audit new-key --out FILE";

  private static final int MAX_FAILURES_SHOWN = 20;

  private final PrintStream out;
  private final PrintStream err;

  private AuditCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  /**
   * Runs the command.
   *
   * @param args what follows {@code audit} on the command line
   * @return the exit code: 0 done (the chains hold), 1 a chain broken, 2 a usage error
   */
  public static int run(List<String> args, PrintStream out, PrintStream err) {
    AuditCommand command = new AuditCommand(out, err);
    if (args.isEmpty()) {
      return command.usage("a subcommand is missing");
    }
    List<String> rest = args.subList(1, args.size());
    return switch (args.getFirst()) {
      case "verify" -> command.verify(rest);
      case "new-key" -> command.newKey(rest);
      default -> command.usage("unknown subcommand " + args.getFirst());
    };
  }

  private int verify(List<String> args) {
    List<PublicKey> keys = new ArrayList<>();
    List<Path> files = new ArrayList<>();
    boolean partial = false;
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (arg.equals("--partial")) {
        partial = true;
      } else if (arg.equals("--public-key") && i + 1 < args.size()) {
        Path keyFile = Path.of(args.get(++i));
        try {
          keys.add(CheckpointKeys.readPublicPem(Files.readString(keyFile, StandardCharsets.UTF_8)));
        } catch (IOException e) {
          return usage(keyFile + " cannot be read (" + e.getClass().getSimpleName() + ")");
        } catch (IllegalArgumentException e) {
          return usage(keyFile + " " + e.getMessage());
        }
      } else if (arg.startsWith("-")) {
        return usage("unknown option " + arg);
      } else {
        files.add(Path.of(arg));
      }
    }
    if (files.isEmpty()) {
      return usage("no log file given");
    }
    for (Path file : files) {
      if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
        return usage(file + " is no readable file");
      }
    }
    AuditVerifier.Report report;
    try {
      report = new AuditVerifier(keys, partial).verify(files);
    } catch (IOException e) {
      return usage("the files cannot be read (" + e.getClass().getSimpleName() + ")");
    }
    report.summary().forEach(out::println);
    if (report.holds()) {
      out.println("OK: every chain holds");
      return 0;
    }
    List<AuditVerifier.Failure> failures = report.failures();
    for (AuditVerifier.Failure failure :
        failures.subList(0, Math.min(failures.size(), MAX_FAILURES_SHOWN))) {
      out.println("BROKEN " + failure.where() + ": " + failure.reason());
    }
    if (failures.size() > MAX_FAILURES_SHOWN) {
      out.println("... and " + (failures.size() - MAX_FAILURES_SHOWN) + " more");
    }
    return 1;
  }

  private int newKey(List<String> args) {
    if (args.size() != 2 || !args.get(0).equals("--out")) {
      return usage("new-key needs --out FILE");
    }
    Path privateFile = Path.of(args.get(1));
    Path publicFile = Path.of(args.get(1) + ".pub");
    KeyPair pair = CheckpointKeys.generate();
    try {
      Files.writeString(
          Files.createFile(
              privateFile,
              PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))),
          CheckpointKeys.privatePem(pair.getPrivate()),
          StandardCharsets.US_ASCII);
      Files.writeString(
          publicFile, CheckpointKeys.publicPem(pair.getPublic()), StandardCharsets.US_ASCII);
    } catch (FileAlreadyExistsException e) {
      return usage(privateFile + " exists; new-key writes a new file only");
    } catch (NoSuchFileException e) {
      return usage(privateFile.toAbsolutePath().getParent() + " does not exist");
    } catch (IOException | UnsupportedOperationException e) {
      return usage(privateFile + " cannot be written (" + e.getClass().getSimpleName() + ")");
    }
    err.println(
        "Wrote the checkpoint signing key "
            + privateFile
            + " (owner-only; set Audit__SigningKeyFile to it) and its public key "
            + publicFile
            + " (key id "
            + CheckpointKeys.id(pair.getPublic())
            + "; for audit verify --public-key):");
    out.print(CheckpointKeys.publicPem(pair.getPublic()));
    return 0;
  }

  private int usage(String problem) {
    err.println("audit: " + problem);
    err.println(USAGE);
    return 2;
  }
}
