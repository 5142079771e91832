package org.vfps.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.UnaryOperator;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.LoggerFactory;
import org.slf4j.event.KeyValuePair;
import org.vfps.audit.AuditLogFiles.Format;
import org.vfps.config.AuditChainConfig;

/**
 * {@code vfps audit verify} on real log files that {@link AuditChain} wrote through logback's file
 * appender in the service's text and JSON formats: an intact log holds (two replicas' chains
 * interleaved, other loggers' lines between, checkpoints in the log or apart), and each kind of
 * tampering is caught, naming the line.
 */
class AuditVerifyTest {

  private static final KeyPair KEY = CheckpointKeys.generate();

  @TempDir Path dir;

  private Path log;
  private Path checkpoints;
  private Path publicKey;

  @ParameterizedTest
  @EnumSource(Format.class)
  void anIntactLogOfTwoReplicasWithOtherLinesHolds(Format format) throws Exception {
    writeLog(format, false);

    Verified verified = verify(log);

    assertThat(verified.exitCode()).as(verified.output()).isZero();
    assertThat(verified.output())
        .contains("OK: every chain holds")
        .contains("checkpoints, their signatures checked");
    assertThat(verified.output().lines().filter(line -> line.startsWith("chain "))).hasSize(2);
    assertThat(Files.readAllLines(log)).anyMatch(line -> line.contains("not an audit line"));
  }

  @ParameterizedTest
  @EnumSource(Format.class)
  void checkpointsKeptApartAreReadFromTheirOwnFile(Format format) throws Exception {
    writeLog(format, true);

    Verified verified = verify(log, checkpoints);

    assertThat(verified.exitCode()).as(verified.output()).isZero();
    assertThat(Files.readString(log)).doesNotContain("signature");
  }

  @ParameterizedTest
  @EnumSource(Format.class)
  void anEditedLineIsCaught(Format format) throws Exception {
    writeLog(format, false);
    int edited = auditLineNumbers().get(5);
    tamper(lines -> replace(lines, edited, "study-a", "study-b"));

    Verified verified = verify(log);

    assertThat(verified.exitCode()).isEqualTo(1);
    assertThat(verified.firstBreak()).startsWith(log + ":" + edited + ": edited");
  }

  @ParameterizedTest
  @EnumSource(Format.class)
  void aDeletedLineIsCaught(Format format) throws Exception {
    writeLog(format, false);
    List<Integer> audit = auditLineNumbers();
    // the next line of the same chain: the lines of the two chains alternate
    int deleted = audit.get(6);
    int next = audit.get(8);
    tamper(
        lines -> {
          lines.remove(deleted - 1);
          return lines;
        });

    Verified verified = verify(log);

    assertThat(verified.exitCode()).isEqualTo(1);
    assertThat(verified.firstBreak()).startsWith(log + ":" + (next - 1) + ": deleted");
  }

  @ParameterizedTest
  @EnumSource(Format.class)
  void aReorderingIsCaught(Format format) throws Exception {
    writeLog(format, false);
    List<Integer> audit = auditLineNumbers();
    int first = audit.get(6);
    int second = audit.get(8);
    tamper(
        lines -> {
          String moved = lines.get(first - 1);
          lines.set(first - 1, lines.get(second - 1));
          lines.set(second - 1, moved);
          return lines;
        });

    Verified verified = verify(log);

    assertThat(verified.exitCode()).isEqualTo(1);
    assertThat(verified.firstBreak()).startsWith(log + ":" + first + ": reordered");
  }

  /** The log cut before lines that a checkpoint, kept apart, covers. */
  @ParameterizedTest
  @EnumSource(Format.class)
  void aCutTailIsCaughtByACheckpointKeptApart(Format format) throws Exception {
    writeLog(format, true);
    cutAfterAuditLine(5);

    Verified verified = verify(log, checkpoints);

    assertThat(verified.exitCode()).isEqualTo(1);
    assertThat(verified.output()).contains("cut tail");
  }

  /**
   * A log whose older files were rotated away begins past the chains' first lines: a deletion
   * unless {@code --partial} says so, and then a cut tail still shows.
   */
  @Test
  void aLogWithoutItsHeadNeedsPartialAndStillShowsACutTail() throws Exception {
    writeLog(Format.TEXT, true);
    List<Integer> audit = auditLineNumbers();
    int firstKept = audit.get(6);
    int lastKept = audit.get(audit.size() - 5);
    tamper(lines -> new ArrayList<>(lines.subList(firstKept - 1, lines.size())));

    Verified strict = verify(log, checkpoints);
    Verified partial = verify("--partial", log, checkpoints);
    tamper(lines -> new ArrayList<>(lines.subList(0, lastKept - firstKept + 1)));
    Verified cut = verify("--partial", log, checkpoints);

    assertThat(strict.exitCode()).isEqualTo(1);
    assertThat(strict.firstBreak()).startsWith(log + ":1: deleted: chain ");
    assertThat(partial.exitCode()).as(partial.output()).isZero();
    assertThat(partial.output()).contains("its lines before not given (--partial)");
    assertThat(cut.exitCode()).isEqualTo(1);
    assertThat(cut.output()).contains("cut tail");
  }

  /** Without the checkpoints, the same cut is invisible: why they are kept apart. */
  @Test
  void aCutTailWithoutTheCheckpointsDoesNotShow() throws Exception {
    writeLog(Format.TEXT, true);
    cutAfterAuditLine(5);

    Verified verified = verify(log);

    assertThat(verified.exitCode()).isZero();
    assertThat(verified.output()).contains("no checkpoint: a cut tail would not show");
  }

  @ParameterizedTest
  @EnumSource(Format.class)
  void aForgedCheckpointSignatureIsCaught(Format format) throws Exception {
    writeLog(format, true);
    List<String> written = Files.readAllLines(checkpoints);
    int forged = 2;
    String line = written.get(forged - 1);
    // another seq under the old signature: a checkpoint claiming more lines than were written
    written.set(forged - 1, line.replaceFirst("(seq\\W{1,3})\\d+", "$1999"));
    assertThat(written.get(forged - 1)).isNotEqualTo(line);
    Files.write(checkpoints, written);

    Verified verified = verify(log, checkpoints);

    assertThat(verified.exitCode()).isEqualTo(1);
    assertThat(verified.firstBreak()).startsWith(checkpoints + ":" + forged + ": bad signature");
  }

  /** A checkpoint made unreadable is named, not skipped: else it would hide a cut tail. */
  @Test
  void aCheckpointWithoutItsFieldsIsCaught() throws Exception {
    writeLog(Format.TEXT, true);
    List<String> written = Files.readAllLines(checkpoints);
    written.set(0, written.get(0).replaceFirst("seq=\"(\\d+)\"", "seq=\"x$1\""));
    Files.write(checkpoints, written);

    Verified verified = verify(log, checkpoints);

    assertThat(verified.exitCode()).isEqualTo(1);
    assertThat(verified.firstBreak())
        .startsWith(checkpoints + ":1: a checkpoint without its fields");
  }

  /**
   * Who rewrites the whole chain after an edit (every hash after it computed anew) still does not
   * get past a checkpoint's signature.
   */
  @Test
  void aRewrittenChainIsCaughtByTheCheckpoints() throws Exception {
    writeLog(Format.TEXT, true);
    int edited = auditLineNumbers().get(2);
    tamper(lines -> rehash(replace(lines, edited, "study-a", "study-b")));

    Verified chainsOnly = verify(log);
    Verified verified = verify(log, checkpoints);

    assertThat(chainsOnly.exitCode()).as(chainsOnly.output()).isZero();
    assertThat(verified.exitCode()).isEqualTo(1);
    assertThat(verified.output()).contains("rewritten");
  }

  @Test
  void anInsertedLineWithoutTheChainIsCaught() throws Exception {
    writeLog(Format.TEXT, false);
    int after = auditLineNumbers().get(3);
    tamper(
        lines -> {
          lines.add(
              after,
              "2026-12-07T06:00:00.000Z INFO  [vert.x-eventloop-thread-0] audit -"
                  + " PseudonymService/Get OK operation=\"PseudonymService/Get\" outcome=\"OK\"");
          return lines;
        });

    Verified verified = verify(log);

    assertThat(verified.exitCode()).isEqualTo(1);
    assertThat(verified.firstBreak())
        .startsWith(log + ":" + (after + 1) + ": an audit line without its chain fields");
  }

  /** Several threads write at once: the numbers and hashes follow the file's order. */
  @Test
  void linesWrittenConcurrentlyChainInTheFilesOrder() throws Exception {
    log = dir.resolve("vfps.log");
    writePublicKey();
    try (AuditLogFiles files = new AuditLogFiles(Format.TEXT, log, null);
        AuditChain chain = signedChain(50)) {
      ExecutorService threads = Executors.newFixedThreadPool(4);
      List<Future<?>> writers = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int thread = t;
        writers.add(
            threads.submit(
                () -> {
                  for (int i = 0; i < 250; i++) {
                    chain.write("PseudonymService/Get OK", fields(thread * 1000 + i));
                  }
                }));
      }
      for (Future<?> writer : writers) {
        writer.get();
      }
      threads.shutdown();
    }

    Verified verified = verify(log);

    assertThat(verified.exitCode()).as(verified.output()).isZero();
    assertThat(verified.output()).contains("seq 1 to 1000");
  }

  /** Lines without a checkpoint get one when the interval has passed, also short of the count. */
  @Test
  void aCheckpointFollowsTheIntervalWhenLinesCame() throws Exception {
    log = dir.resolve("vfps.log");
    writePublicKey();
    try (AuditLogFiles files = new AuditLogFiles(Format.JSON, log, null);
        AuditChain chain =
            AuditChain.start(
                new AuditChainConfig(
                    1_000, Duration.ofMillis(100), Optional.of(KEY.getPrivate())))) {
      chain.write("PseudonymService/Get OK", fields(1));
      chain.write("PseudonymService/Get OK", fields(2));
      Awaitility.await("a checkpoint")
          .atMost(Duration.ofSeconds(10))
          .until(() -> Files.readString(log).contains("\"loggerName\":\"audit.checkpoint\""));
    }

    Verified verified = verify(log);

    assertThat(verified.exitCode()).as(verified.output()).isZero();
    assertThat(verified.output()).contains("checkpointed up to seq 2");
  }

  @Test
  void usageErrorsExitTwo() throws Exception {
    writeLog(Format.TEXT, false);

    assertThat(run(List.of("verify")).exitCode()).isEqualTo(2);
    assertThat(run(List.of("verify", "--strict", log.toString())).exitCode()).isEqualTo(2);
    assertThat(run(List.of("verify", dir.resolve("missing.log").toString())).exitCode())
        .isEqualTo(2);
    assertThat(run(List.of("verify", "--public-key", log.toString(), log.toString())).exitCode())
        .isEqualTo(2);
    assertThat(run(List.of("sign")).exitCode()).isEqualTo(2);
  }

  @Test
  void newKeyWritesAnOwnerOnlyKeyTheServiceReadsAndItsPublicKey() throws Exception {
    Path key = dir.resolve("audit-key.pem");

    Verified made = run(List.of("new-key", "--out", key.toString()));
    Verified again = run(List.of("new-key", "--out", key.toString()));

    assertThat(made.exitCode()).as(made.output()).isZero();
    assertThat(made.output()).contains("-----BEGIN PUBLIC KEY-----");
    assertThat(Files.getPosixFilePermissions(key))
        .containsExactlyInAnyOrder(
            java.nio.file.attribute.PosixFilePermission.OWNER_READ,
            java.nio.file.attribute.PosixFilePermission.OWNER_WRITE);
    assertThat(Files.readString(Path.of(key + ".pub"))).isEqualTo(made.stdout());
    assertThat(again.exitCode()).isEqualTo(2);
    assertThat(again.output()).contains("exists");
  }

  // --- the log and its tampering

  /**
   * Two replicas' chains, alternating line by line, a line of another logger after every third, a
   * checkpoint every 4 lines of a chain and at their close.
   */
  private void writeLog(Format format, boolean checkpointsApart) throws Exception {
    log = dir.resolve("vfps.log");
    checkpoints = checkpointsApart ? dir.resolve("checkpoints.log") : null;
    writePublicKey();
    try (AuditLogFiles files = new AuditLogFiles(format, log, checkpoints);
        AuditChain first = signedChain(4);
        AuditChain second = signedChain(4)) {
      for (int i = 0; i < 20; i++) {
        (i % 2 == 0 ? first : second).write("PseudonymService/Get OK", fields(i));
        if (i % 3 == 0) {
          LoggerFactory.getLogger(AuditLogFiles.OTHER_LOGGER).info("not an audit line {}", i);
        }
      }
    }
  }

  private void writePublicKey() throws Exception {
    publicKey = dir.resolve("audit.pub");
    Files.writeString(publicKey, CheckpointKeys.publicPem(KEY.getPublic()));
  }

  private static AuditChain signedChain(int every) {
    return AuditChain.start(
        new AuditChainConfig(every, Duration.ofHours(1), Optional.of(KEY.getPrivate())));
  }

  private static List<KeyValuePair> fields(int i) {
    return List.of(
        new KeyValuePair("operation", "PseudonymService/Get"),
        new KeyValuePair("outcome", "OK"),
        new KeyValuePair("subject", "aude \\\"the\\\" auditor"),
        new KeyValuePair("client", "10.0.0." + (i % 250)),
        new KeyValuePair("namespace", "study-a"),
        new KeyValuePair("pseudonym", "stud-" + i),
        new KeyValuePair("count", i));
  }

  /** The numbers (from 1) of the log's audit lines, checkpoints not counted. */
  private List<Integer> auditLineNumbers() throws Exception {
    List<String> lines = Files.readAllLines(log);
    List<Integer> numbers = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      LoggedLine line = LogLineParser.parse("", lines.get(i));
      if (line != null && line.logger().equals(AuditChain.LOGGER)) {
        numbers.add(i + 1);
      }
    }
    return numbers;
  }

  /** Cuts the log after its audit line {@code fromEnd} places before its last. */
  private void cutAfterAuditLine(int fromEnd) throws Exception {
    List<Integer> audit = auditLineNumbers();
    int kept = audit.get(audit.size() - fromEnd);
    tamper(lines -> new ArrayList<>(lines.subList(0, kept)));
  }

  private void tamper(UnaryOperator<List<String>> change) throws Exception {
    Files.write(log, change.apply(new ArrayList<>(Files.readAllLines(log))));
  }

  private static List<String> replace(List<String> lines, int number, String from, String to) {
    String line = lines.get(number - 1);
    assertThat(line).contains(from);
    lines.set(number - 1, line.replace(from, to));
    return lines;
  }

  /** The text log with every audit line's hash computed anew, as a forger with the code would. */
  private static List<String> rehash(List<String> lines) {
    List<String> rehashed = new ArrayList<>();
    java.util.Map<String, String> previous = new java.util.HashMap<>();
    for (String text : lines) {
      LoggedLine line = LogLineParser.parse("", text);
      if (line == null || !line.logger().equals(AuditChain.LOGGER)) {
        rehashed.add(text);
        continue;
      }
      String chain = line.field("chain");
      String old = line.field("hash");
      List<Field> fields =
          line.fields().stream().filter(field -> !field.key().equals("hash")).toList();
      String hash =
          ChainHash.of(
              previous.getOrDefault(chain, ChainHash.START),
              line.timestamp(),
              line.message(),
              fields);
      previous.put(chain, hash);
      rehashed.add(text.replace(old, hash));
    }
    return rehashed;
  }

  // --- running the command

  record Verified(int exitCode, String stdout, String output) {

    /** The first line that names a break. */
    String firstBreak() {
      return stdout
          .lines()
          .filter(line -> line.startsWith("BROKEN "))
          .map(line -> line.substring("BROKEN ".length()))
          .findFirst()
          .orElse("(none) " + output);
    }
  }

  private Verified verify(Path... files) {
    return verify(null, files);
  }

  /** {@code audit verify} with the public key, the option (unless null) and the files. */
  private Verified verify(String option, Path... files) {
    List<String> args = new ArrayList<>(List.of("verify", "--public-key", publicKey.toString()));
    if (option != null) {
      args.add(option);
    }
    for (Path file : files) {
      args.add(file.toString());
    }
    return run(args);
  }

  private static Verified run(List<String> args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exitCode =
        AuditCommand.run(
            args,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    String stdout = out.toString(StandardCharsets.UTF_8);
    return new Verified(exitCode, stdout, stdout + err.toString(StandardCharsets.UTF_8));
  }
}
