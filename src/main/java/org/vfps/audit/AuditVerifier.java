package org.vfps.audit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.Base64;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * Verifies the chains of the audit lines in log files, and the chains against the checkpoints found
 * in the same files. The files are read in the order given, as one log (rotated files oldest
 * first); lines of other loggers are skipped, the lines of each chain checked on their own, so
 * several replicas' lines may be interleaved. A chain must be given from its first line, unless
 * {@code partial}.
 *
 * <p>What breaks a chain, each a {@link Failure} naming the line: a line whose hash does not match
 * its content and the line before (edited); a {@code seq} missing (deleted); a {@code seq} that
 * comes after a higher one (reordered); an audit line without the chain's fields (inserted); a
 * checkpoint whose signature does not verify under the keys given (forged or edited); a checkpoint
 * that covers lines the files do not hold (a cut tail) or whose hash differs from the line's
 * (rewritten). Without keys, the checkpoints are still held against the chains but their signatures
 * are not checked. Not thread-safe: one verification per instance.
 */
final class AuditVerifier {

  /** What broke, and where: {@code file:line}. */
  record Failure(String where, String reason) {}

  /**
   * The outcome.
   *
   * @param failures in the order found: the lines' in the files' order, then the checkpoints'
   * @param summary a line per chain and what was not checked
   */
  record Report(List<Failure> failures, List<String> summary) {

    boolean holds() {
      return failures.isEmpty();
    }
  }

  private final Map<String, PublicKey> keys = new HashMap<>();
  private final List<Failure> failures = new ArrayList<>();
  private final Map<String, ChainState> chains = new LinkedHashMap<>();
  private final List<LoggedLine> checkpoints = new ArrayList<>();
  private final Map<String, BitSet> present = new HashMap<>();
  private final Map<String, Set<Long>> checkpointed = new HashMap<>();

  private final boolean partial;
  private int notCovered;

  /**
   * @param keys the public keys that may sign checkpoints; none: signatures are not checked
   * @param partial whether a chain may begin past its first line (older files rotated away): its
   *     first line given is then taken as it is, and the checkpoints before it, or of a chain none
   *     of whose lines is given, are not checked
   */
  AuditVerifier(List<PublicKey> keys, boolean partial) {
    this.partial = partial;
    for (PublicKey key : keys) {
      this.keys.put(CheckpointKeys.id(key), key);
    }
  }

  /**
   * Verifies the files as one log.
   *
   * @throws IOException when a file cannot be read
   */
  Report verify(List<Path> files) throws IOException {
    for (Path file : files) {
      read(file, this::collect);
    }
    for (Path file : files) {
      read(file, this::check);
    }
    for (LoggedLine checkpoint : checkpoints) {
      checkCheckpoint(checkpoint);
    }
    return new Report(List.copyOf(failures), summary());
  }

  private static void read(Path file, BiConsumer<LoggedLine, String> each) throws IOException {
    // a log is UTF-8; a malformed byte is replaced, so that it breaks the hash of its line only
    try (BufferedReader in =
        new BufferedReader(
            new InputStreamReader(
                Files.newInputStream(file),
                StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE)))) {
      int number = 0;
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        number++;
        String where = file + ":" + number;
        LoggedLine logged;
        try {
          logged = LogLineParser.parse(where, line);
        } catch (IllegalArgumentException e) {
          each.accept(null, where + " " + e.getMessage());
          continue;
        }
        if (logged != null) {
          each.accept(logged, null);
        }
      }
    }
  }

  /** The first pass: the checkpoints, and which numbers each chain has. */
  private void collect(LoggedLine line, String unreadable) {
    if (line == null) {
      return;
    }
    if (line.logger().equals(AuditChain.CHECKPOINT_LOGGER)) {
      // each is checked, also one whose fields are missing
      checkpoints.add(line);
    }
    String chain = line.field("chain");
    long seq = seq(line);
    if (chain == null || seq < 1) {
      return;
    }
    if (line.logger().equals(AuditChain.CHECKPOINT_LOGGER)) {
      checkpointed.computeIfAbsent(chain, c -> new HashSet<>()).add(seq);
    } else if (seq <= Integer.MAX_VALUE) {
      present.computeIfAbsent(chain, c -> new BitSet()).set((int) seq);
    }
  }

  /** The second pass: each audit line against the one before in its chain. */
  private void check(LoggedLine line, String unreadable) {
    if (line == null) {
      int space = unreadable.indexOf(' ');
      failures.add(
          new Failure(
              unreadable.substring(0, space),
              "an audit line whose fields cannot be read ("
                  + unreadable.substring(space + 1)
                  + ")"));
      return;
    }
    if (!line.logger().equals(AuditChain.LOGGER)) {
      return;
    }
    String chain = line.field("chain");
    String claimed = line.field("hash");
    long seq = seq(line);
    if (chain == null || claimed == null || seq < 1) {
      failures.add(
          new Failure(
              line.where(),
              "an audit line without its chain fields (chain, seq, hash): inserted, or written"
                  + " by a vfps without the chain"));
      return;
    }
    ChainState state = chains.get(chain);
    if (state == null) {
      state = new ChainState(seq, line.where());
      chains.put(chain, state);
      if (seq != 1 && !partial) {
        failures.add(
            new Failure(
                line.where(),
                "deleted: chain "
                    + chain
                    + " begins at seq "
                    + seq
                    + "; its lines 1 to "
                    + (seq - 1)
                    + " are missing (deleted, or in a file not given)"));
      } else if (seq == 1) {
        checkHash(line, ChainHash.START, claimed);
      }
      state.advance(seq, claimed, line.where());
      recordCovered(chain, seq, claimed, line.where());
      return;
    }
    long expected = state.lastSeq + 1;
    if (seq < expected) {
      failures.add(
          new Failure(
              line.where(),
              "reordered: seq "
                  + seq
                  + " of chain "
                  + chain
                  + " comes after seq "
                  + state.lastSeq
                  + " ("
                  + state.lastWhere
                  + ")"));
      return;
    }
    if (seq > expected) {
      BitSet seen = present.get(chain);
      boolean later = expected <= Integer.MAX_VALUE && seen != null && seen.get((int) expected);
      failures.add(
          new Failure(
              line.where(),
              later
                  ? "reordered: seq "
                      + seq
                      + " of chain "
                      + chain
                      + " comes before seq "
                      + expected
                      + ", which is further on"
                  : "deleted: seq "
                      + expected
                      + (seq - 1 > expected ? " to " + (seq - 1) : "")
                      + " of chain "
                      + chain
                      + " missing between "
                      + state.lastWhere
                      + " and this line"));
    } else {
      checkHash(line, state.lastHash, claimed);
    }
    state.advance(seq, claimed, line.where());
    recordCovered(chain, seq, claimed, line.where());
  }

  private void checkHash(LoggedLine line, String previous, String claimed) {
    List<Field> hashed = new ArrayList<>(line.fields().size());
    for (Field field : line.fields()) {
      if (!field.key().equals("hash")) {
        hashed.add(field);
      }
    }
    String actual = ChainHash.of(previous, line.timestamp(), line.message(), hashed);
    if (!actual.equals(claimed)) {
      failures.add(
          new Failure(
              line.where(),
              "edited: the line's hash does not match its content and the hash of the line"
                  + " before (seq "
                  + line.field("seq")
                  + " of chain "
                  + line.field("chain")
                  + ")"));
    }
  }

  private void recordCovered(String chain, long seq, String hash, String where) {
    if (checkpointed.getOrDefault(chain, Set.of()).contains(seq)) {
      chains.get(chain).covered.put(seq, new CoveredLine(hash, where));
    }
  }

  private void checkCheckpoint(LoggedLine checkpoint) {
    String chain = checkpoint.field("chain");
    long seq = seq(checkpoint);
    String hash = checkpoint.field("hash");
    String keyId = checkpoint.field("key");
    String signature = checkpoint.field("signature");
    if (chain == null || seq < 1 || hash == null || keyId == null || signature == null) {
      failures.add(
          new Failure(
              checkpoint.where(),
              "a checkpoint without its fields (chain, seq, hash, key, signature)"));
      return;
    }
    if (!keys.isEmpty()) {
      PublicKey key = keys.get(keyId);
      if (key == null) {
        failures.add(
            new Failure(
                checkpoint.where(),
                "a checkpoint signed by key "
                    + keyId
                    + ", which is none of the public keys given"));
        return;
      }
      byte[] signed = ChainHash.checkpointContent(chain, seq, hash, checkpoint.timestamp());
      if (!CheckpointKeys.verifies(key, signed, base64url(signature))) {
        failures.add(
            new Failure(
                checkpoint.where(),
                "bad signature: the checkpoint of chain "
                    + chain
                    + " at seq "
                    + seq
                    + " was forged or edited"));
        return;
      }
    }
    ChainState state = chains.get(chain);
    if (partial && (state == null || seq < state.firstSeq)) {
      notCovered++;
      return;
    }
    if (state == null) {
      failures.add(
          new Failure(
              checkpoint.where(),
              "cut: the files hold no line of chain "
                  + chain
                  + ", though this checkpoint covers it up to seq "
                  + seq));
      return;
    }
    state.lastCheckpoint = Math.max(state.lastCheckpoint, seq);
    if (seq > state.lastSeq) {
      failures.add(
          new Failure(
              state.lastWhere,
              "cut tail: chain "
                  + chain
                  + " ends at seq "
                  + state.lastSeq
                  + " on this line, but the checkpoint at "
                  + checkpoint.where()
                  + " covers it up to seq "
                  + seq));
      return;
    }
    CoveredLine line = state.covered.get(seq);
    if (line != null && !line.hash().equals(hash)) {
      failures.add(
          new Failure(
              line.where(),
              "rewritten: the hash of seq "
                  + seq
                  + " of chain "
                  + chain
                  + " is not the one the checkpoint at "
                  + checkpoint.where()
                  + " signed"));
    }
  }

  private List<String> summary() {
    List<String> summary = new ArrayList<>();
    for (Map.Entry<String, ChainState> entry : chains.entrySet()) {
      ChainState state = entry.getValue();
      summary.add(
          "chain "
              + entry.getKey()
              + ": seq "
              + state.firstSeq
              + " to "
              + state.lastSeq
              + " ("
              + state.firstWhere
              + " to "
              + state.lastWhere
              + "), "
              + (state.firstSeq > 1 ? "its lines before not given (--partial), " : "")
              + (state.lastCheckpoint == 0
                  ? "no checkpoint"
                  : "checkpointed up to seq " + state.lastCheckpoint)
              + (state.lastCheckpoint < state.lastSeq
                  ? "; a cut after seq " + state.lastCheckpoint + " would not show"
                  : ""));
    }
    if (chains.isEmpty()) {
      summary.add("no audit line in the files");
    }
    if (notCovered > 0) {
      summary.add(
          notCovered
              + " checkpoints of lines before the files given (--partial) not held against them");
    }
    if (checkpoints.isEmpty()) {
      summary.add("no checkpoint: a cut tail would not show");
    } else if (keys.isEmpty()) {
      summary.add(
          checkpoints.size()
              + " checkpoints held against the chains, their signatures NOT checked: give"
              + " --public-key");
    } else {
      summary.add(checkpoints.size() + " checkpoints, their signatures checked");
    }
    return summary;
  }

  private static long seq(LoggedLine line) {
    String seq = line.field("seq");
    if (seq == null || !seq.matches("[0-9]{1,18}")) {
      return -1;
    }
    return Long.parseLong(seq);
  }

  private static byte[] base64url(String text) {
    try {
      return Base64.getUrlDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      return new byte[0];
    }
  }

  /** The hash a line of a chain claims, at a {@code seq} a checkpoint covers. */
  private record CoveredLine(String hash, String where) {}

  /** What the files held of one chain so far. */
  private static final class ChainState {

    private final long firstSeq;
    private final String firstWhere;
    private long lastSeq;
    private String lastHash;
    private String lastWhere;
    private long lastCheckpoint;
    private final Map<Long, CoveredLine> covered = new HashMap<>();

    ChainState(long firstSeq, String firstWhere) {
      this.firstSeq = firstSeq;
      this.firstWhere = firstWhere;
    }

    void advance(long seq, String hash, String where) {
      lastSeq = seq;
      lastHash = hash;
      lastWhere = where;
    }
  }
}
