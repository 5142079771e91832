package org.vfps.audit;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.LoggingEvent;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.LoggerFactory;
import org.slf4j.event.KeyValuePair;
import org.vfps.config.AuditChainConfig;

/**
 * The chain of one process's audit lines on the logger {@value #LOGGER}, and its signed checkpoints
 * on the logger {@value #CHECKPOINT_LOGGER}.
 *
 * <p>Each line gets three fields after its own: {@code chain}, the chain's id (random, made when
 * the chain is, so that the lines of several replicas in one collected log are told apart), {@code
 * seq}, its number in the chain from 1, and {@code hash}, the {@link ChainHash} of the line and of
 * the line before. With a signing key, a checkpoint follows every {@link
 * AuditChainConfig#checkpointEvery()} lines and, when lines were written since the last one, every
 * {@link AuditChainConfig#checkpointInterval()}, and one more when the chain is closed: a line
 * naming the chain, the {@code seq} and {@code hash} of the last line it covers, the {@code key} id
 * and the Ed25519 {@code signature} of these and the checkpoint's timestamp.
 *
 * <p>Order: a line's number and hash are assigned, and the line handed to logback's appenders,
 * under one lock. Logback's appenders encode an event in the caller's thread and take their own
 * lock only to write the bytes, so lines chained first and logged after could reach the file in
 * another order; under this lock they cannot. The lock is held for the hash and the appenders' work
 * (formatting and writing the line, which logback serializes anyway); the signature is made on a
 * thread of the chain's own, never in the writing thread. The line's timestamp, which the hash
 * covers, is the logback event's own: the chain makes the event, so it knows it.
 *
 * <p>Thread-safe.
 */
public final class AuditChain implements AutoCloseable {

  /** The audit trail's logger. */
  public static final String LOGGER = "audit";

  /** The logger of the checkpoints, which a logging configuration can send elsewhere. */
  public static final String CHECKPOINT_LOGGER = "audit.checkpoint";

  private static final String CALLER_BOUNDARY = AuditChain.class.getName();
  private static final org.slf4j.Logger LOG = LoggerFactory.getLogger(AuditChain.class);

  private final Logger lines;
  private final Logger checkpoints;
  private final String id;
  private final AuditChainConfig config;
  private final Signer signer;
  private final ScheduledExecutorService signing;
  private final ReentrantLock lock = new ReentrantLock();

  // guarded by lock
  private final MessageDigest sha256 = ChainHash.sha256();
  private long seq;
  private String previous = ChainHash.START;
  private long checkpointed;
  private boolean closed;

  private AuditChain(AuditChainConfig config) {
    this.lines = logbackLogger(LOGGER);
    this.checkpoints = logbackLogger(CHECKPOINT_LOGGER);
    this.id = newId();
    this.config = config;
    this.signer = config.signingKey().map(Signer::new).orElse(null);
    this.signing = signer == null ? null : startSigning(config);
  }

  /**
   * A new chain; with a signing key, its checkpoints start (on a daemon thread of their own) and
   * {@link #close()} writes the last.
   */
  public static AuditChain start(AuditChainConfig config) {
    return new AuditChain(config);
  }

  /** A chain without checkpoints. */
  public static AuditChain unsigned() {
    return new AuditChain(AuditChainConfig.UNSIGNED);
  }

  /** The chain's id, its lines' {@code chain}. */
  public String id() {
    return id;
  }

  /** The id of the key that signs the checkpoints, or null when there is none. */
  public String signingKeyId() {
    return signer == null ? null : signer.keyId;
  }

  /**
   * Writes an audit line at INFO with its fields and then the chain's; nothing when the logger is
   * off at INFO. A line written after {@link #close()} is still chained, but no checkpoint covers
   * it.
   *
   * @param fields the line's own fields, in order, none named {@code chain}, {@code seq} or {@code
   *     hash}; values as {@link String#valueOf(Object)} writes them
   */
  public void write(String message, List<KeyValuePair> fields) {
    if (!lines.isInfoEnabled()) {
      return;
    }
    // the line's own part, before the lock
    List<KeyValuePair> pairs = new ArrayList<>(fields.size() + 3);
    List<Field> hashed = new ArrayList<>(fields.size() + 2);
    for (KeyValuePair field : fields) {
      pairs.add(field);
      hashed.add(new Field(field.key, String.valueOf(field.value)));
    }
    long covered = 0;
    String coveredHash = null;
    lock.lock();
    try {
      // made here, so that the timestamps follow the numbers
      LoggingEvent event =
          new LoggingEvent(CALLER_BOUNDARY, lines, Level.INFO, message, null, null);
      long number = seq + 1;
      pairs.add(new KeyValuePair("chain", id));
      hashed.add(new Field("chain", id));
      pairs.add(new KeyValuePair("seq", number));
      hashed.add(new Field("seq", Long.toString(number)));
      String hash = ChainHash.of(sha256, previous, event.getTimeStamp(), message, hashed);
      pairs.add(new KeyValuePair("hash", hash));
      event.setKeyValuePairs(pairs);
      lines.callAppenders(event);
      seq = number;
      previous = hash;
      if (signer != null && !closed && seq - checkpointed >= config.checkpointEvery()) {
        checkpointed = seq;
        covered = seq;
        coveredHash = hash;
      }
    } finally {
      lock.unlock();
    }
    if (coveredHash != null) {
      long at = covered;
      String hash = coveredHash;
      try {
        signing.execute(() -> checkpoint(at, hash));
      } catch (RejectedExecutionException e) {
        // closing: the last checkpoint covers this line
      }
    }
  }

  /** A checkpoint of the chain as it is, if lines came since the last; on the signing thread. */
  private void checkpointIfBehind() {
    try {
      checkpointIfLinesCame();
    } catch (RuntimeException e) {
      // a failure would end the schedule: the next interval tries again
      LOG.warn("The audit chain's checkpoint could not be written: {}", e.toString());
    }
  }

  private void checkpointIfLinesCame() {
    long covered;
    String coveredHash;
    lock.lock();
    try {
      if (seq == checkpointed || closed) {
        return;
      }
      covered = seq;
      coveredHash = previous;
      checkpointed = seq;
    } finally {
      lock.unlock();
    }
    checkpoint(covered, coveredHash);
  }

  private void checkpoint(long covered, String coveredHash) {
    if (!checkpoints.isInfoEnabled()) {
      return;
    }
    LoggingEvent event =
        new LoggingEvent(CALLER_BOUNDARY, checkpoints, Level.INFO, "Checkpoint", null, null);
    byte[] signature =
        CheckpointKeys.sign(
            signer.key,
            ChainHash.checkpointContent(id, covered, coveredHash, event.getTimeStamp()));
    event.setKeyValuePairs(
        new ArrayList<>(
            List.of(
                new KeyValuePair("chain", id),
                new KeyValuePair("seq", covered),
                new KeyValuePair("hash", coveredHash),
                new KeyValuePair("key", signer.keyId),
                new KeyValuePair(
                    "signature",
                    Base64.getUrlEncoder().withoutPadding().encodeToString(signature)))));
    checkpoints.callAppenders(event);
  }

  /**
   * Stops the checkpoints, after a last one that covers every line written so far. Blocks up to a
   * few seconds for the checkpoints being signed; a second call does nothing.
   */
  @Override
  public void close() {
    if (signing == null) {
      return;
    }
    long covered;
    String coveredHash;
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      covered = seq;
      coveredHash = previous;
    } finally {
      lock.unlock();
    }
    signing.shutdown();
    try {
      signing.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (covered > 0) {
      checkpoint(covered, coveredHash);
    }
  }

  private ScheduledExecutorService startSigning(AuditChainConfig config) {
    ScheduledExecutorService executor =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread thread = new Thread(task, "vfps-audit-checkpoints");
              thread.setDaemon(true);
              return thread;
            });
    long interval = config.checkpointInterval().toMillis();
    executor.scheduleAtFixedRate(
        this::checkpointIfBehind, interval, interval, TimeUnit.MILLISECONDS);
    return executor;
  }

  private static Logger logbackLogger(String name) {
    if (!(LoggerFactory.getLogger(name) instanceof Logger logger)) {
      throw new IllegalStateException(
          "the audit chain needs logback as the SLF4J provider; "
              + LoggerFactory.getILoggerFactory().getClass().getName()
              + " is");
    }
    return logger;
  }

  private static String newId() {
    byte[] random = new byte[12];
    new SecureRandom().nextBytes(random);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(random);
  }

  /** The signing key and its id. */
  private static final class Signer {

    private final PrivateKey key;
    private final String keyId;

    Signer(PrivateKey key) {
      PublicKey publicKey = CheckpointKeys.publicKeyOf(key);
      this.key = key;
      this.keyId = CheckpointKeys.id(publicKey);
    }
  }
}
