package org.vfps.voprf.client;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.text.Normalizer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.api.voprf.v1.VoprfServiceBlindEvaluateResponse;
import org.vfps.config.ConfigException;
import org.vfps.config.VoprfConfig;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.pseudonym.KeyedGenerator;
import org.vfps.voprf.BlindedInput;
import org.vfps.voprf.InvalidElementException;
import org.vfps.voprf.ServerPublicKey;
import org.vfps.voprf.VerificationException;

/**
 * The pseudonym cores of VOPRF namespaces, byte for byte as the .NET vfps 1.22 derives them: each
 * value normalized ({@code Voprf__Normalization}), encoded as UTF-8, blinded, evaluated by the
 * server, checked against the pinned key, unblinded and finalized (RFC 9497), the output's first
 * {@code Voprf__Length} bytes written as {@code Voprf__Format}, after {@code <keyId>.} when {@code
 * Voprf__IncludeKeyIdInPseudonym}.
 *
 * <p>Values of concurrent calls share the server's calls: they queue, and whenever fewer than
 * {@value #CALLS_IN_FLIGHT} calls are in flight the queue is sent in chunks of at most {@code
 * Voprf__MaxBatchSize}, each with one proof. A chunk whose answer fails any check fails every call
 * with a value in it, and no core is made from it. The group arithmetic runs on a worker pool of
 * its own, never on an event loop. Thread-safe.
 */
public final class VoprfGenerator implements KeyedGenerator {

  private static final Logger LOG = LoggerFactory.getLogger(VoprfGenerator.class);

  /**
   * The server's calls in flight at once; more values wait, to share the next ones. Two keep the
   * server busy while an answer is checked; more would split the waiting values into smaller
   * chunks, each with a proof to verify (a proof costs about as much as four values).
   */
  static final int CALLS_IN_FLIGHT = 2;

  private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

  private final VoprfConfig config;
  private final VoprfChannel channel;
  private final WorkerExecutor worker;
  private final SecureRandom random = new SecureRandom();
  private final AtomicReference<Future<ServerPublicKey>> publicKey = new AtomicReference<>();
  private final ArrayDeque<Item> queue = new ArrayDeque<>();
  // guarded by queue
  private int inFlight;

  private VoprfGenerator(
      VoprfConfig config,
      VoprfChannel channel,
      WorkerExecutor worker,
      Future<ServerPublicKey> pinned) {
    this.config = config;
    this.channel = channel;
    this.worker = worker;
    this.publicKey.set(pinned);
  }

  /**
   * A generator for the configured server; nothing is sent before the first value.
   *
   * @throws ConfigException if the pinned key ({@code Voprf__PublicKey}) is no group element
   */
  public static VoprfGenerator start(Vertx vertx, VoprfConfig config) {
    Future<ServerPublicKey> pinned = null;
    if (config.publicKey().isPresent()) {
      try {
        pinned = Future.succeededFuture(ServerPublicKey.of(config.publicKey().get().bytes()));
      } catch (InvalidElementException e) {
        throw new ConfigException(
            "Voprf__PublicKey: is no ristretto255 public key (" + e.getMessage() + ")");
      }
    }
    int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
    return new VoprfGenerator(
        config,
        VoprfChannel.open(vertx, config),
        vertx.createSharedWorkerExecutor("vfps-voprf", threads),
        pinned);
  }

  /** Closes the channel and the worker pool. */
  public Future<Void> close() {
    return channel.close().eventually(worker::close);
  }

  @Override
  public Future<List<String>> derive(List<String> originalValues) {
    if (originalValues.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    List<byte[]> inputs;
    try {
      inputs = originalValues.stream().map(this::encode).toList();
    } catch (ServiceException e) {
      return Future.failedFuture(e);
    }
    return worker
        .executeBlocking(
            () -> inputs.stream().map(input -> BlindedInput.blind(input, random)).toList(), false)
        .compose(this::submit);
  }

  /** Equal once normalized ({@code Voprf__Normalization}). */
  @Override
  public boolean sameInput(String a, String b) {
    return a.equals(b) || normalized(a).equals(normalized(b));
  }

  /** The value as the derivation takes it: normalized, if a normalization is configured. */
  private String normalized(String originalValue) {
    if (config.normalization().isPresent()
        && !Normalizer.isNormalized(originalValue, config.normalization().get())) {
      return Normalizer.normalize(originalValue, config.normalization().get());
    }
    return originalValue;
  }

  /** The value normalized and encoded; {@code INVALID_ARGUMENT} beyond the protocol's length. */
  private byte[] encode(String originalValue) {
    byte[] utf8 = normalized(originalValue).getBytes(StandardCharsets.UTF_8);
    if (utf8.length > 0xFFFF) {
      throw new ServiceException(
          ErrorCode.INVALID_ARGUMENT,
          "The value is "
              + utf8.length
              + " bytes of UTF-8; the VOPRF protocol frames lengths as uint16, so at most 65535"
              + " can be pseudonymized.");
    }
    return utf8;
  }

  private Future<List<String>> submit(List<BlindedInput> blinded) {
    Submission submission = new Submission(blinded.size(), Vertx.currentContext());
    synchronized (queue) {
      for (int i = 0; i < blinded.size(); i++) {
        queue.add(new Item(blinded.get(i), submission, i));
      }
    }
    pump();
    return submission.promise.future();
  }

  /** Sends queued values while fewer than {@link #CALLS_IN_FLIGHT} calls are in flight. */
  private void pump() {
    List<List<Item>> chunks = new ArrayList<>();
    synchronized (queue) {
      while (inFlight < CALLS_IN_FLIGHT && !queue.isEmpty()) {
        List<Item> chunk = new ArrayList<>(Math.min(queue.size(), config.maxBatchSize()));
        while (chunk.size() < config.maxBatchSize() && !queue.isEmpty()) {
          chunk.add(queue.poll());
        }
        inFlight++;
        chunks.add(chunk);
      }
    }
    chunks.forEach(this::send);
  }

  /**
   * Sends the chunk; once the server has answered, the next chunk may go while this one is checked
   * and unblinded on the worker pool.
   */
  private void send(List<Item> chunk) {
    List<BlindedInput> inputs = chunk.stream().map(Item::input).toList();
    Future<Answer> answered =
        publicKey()
            .compose(
                key ->
                    channel
                        .blindEvaluate(inputs.stream().map(BlindedInput::element).toList())
                        .map(answer -> new Answer(key, answer)));
    answered.onComplete(
        ignored -> {
          synchronized (queue) {
            inFlight--;
          }
          pump();
        });
    answered
        .compose(
            answer ->
                worker.executeBlocking(() -> cores(answer.key, inputs, answer.evaluation), false))
        .onComplete(
            done -> {
              for (int i = 0; i < chunk.size(); i++) {
                Item item = chunk.get(i);
                if (done.succeeded()) {
                  item.submission.deliver(item.index, done.result().get(i));
                } else {
                  item.submission.fail(done.cause());
                }
              }
            });
  }

  private record Answer(ServerPublicKey key, VoprfServiceBlindEvaluateResponse evaluation) {}

  /** The cores of a chunk from the server's answer, once it has passed every check. */
  private List<String> cores(
      ServerPublicKey key, List<BlindedInput> inputs, VoprfServiceBlindEvaluateResponse answer) {
    String keyId = answer.getKeyId();
    if (config.expectedKeyId().isPresent() && !config.expectedKeyId().get().equals(keyId)) {
      throw hostile(
          "The VOPRF server answered with key id '"
              + keyId
              + "', not the expected '"
              + config.expectedKeyId().get()
              + "' (Voprf__ExpectedKeyId)");
    }
    if (config.includeKeyIdInPseudonym() && (keyId.isEmpty() || keyId.contains("."))) {
      throw hostile(
          "The VOPRF server's key id '"
              + keyId
              + "' cannot head a pseudonym: it is empty or contains the separator '.'");
    }
    if (answer.getEvaluatedElementsCount() != inputs.size()) {
      throw hostile(
          "The VOPRF server answered "
              + answer.getEvaluatedElementsCount()
              + " evaluated elements for "
              + inputs.size()
              + " blinded ones");
    }
    List<byte[]> outputs;
    try {
      outputs =
          key.finalize(
              inputs,
              answer.getEvaluatedElementsList().stream()
                  .map(element -> element.toByteArray())
                  .toList(),
              answer.getProof().toByteArray());
    } catch (VerificationException e) {
      throw hostile(
          "The VOPRF server's answer does not verify against the pinned public key"
              + " (Voprf__PublicKey): "
              + e.getMessage());
    }
    String head = config.includeKeyIdInPseudonym() ? keyId + "." : "";
    List<String> cores = new ArrayList<>(outputs.size());
    for (byte[] output : outputs) {
      byte[] kept = Arrays.copyOf(output, config.length());
      String encoded =
          config.format() == VoprfConfig.Format.HEX
              ? HexFormat.of().formatHex(kept)
              : BASE64URL.encodeToString(kept);
      cores.add(head + encoded);
    }
    return cores;
  }

  /** A misconfigured or hostile server: {@code INTERNAL}, which the edges log at ERROR. */
  private static ServiceException hostile(String problem) {
    return new ServiceException(
        ErrorCode.INTERNAL,
        problem + "; no pseudonym was made from the answer (a misconfigured or hostile server?).",
        Map.of());
  }

  /** The pinned key; else the server's own, fetched once (development only, a WARN says so). */
  private Future<ServerPublicKey> publicKey() {
    Future<ServerPublicKey> known = publicKey.get();
    if (known != null && !known.failed()) {
      return known;
    }
    Promise<ServerPublicKey> fetching = Promise.promise();
    if (!publicKey.compareAndSet(known, fetching.future())) {
      return publicKey();
    }
    channel
        .getPublicKey()
        .map(
            answer -> {
              try {
                ServerPublicKey key = ServerPublicKey.of(answer.getPublicKey().toByteArray());
                LOG.warn(
                    "Voprf__AllowUnpinnedPublicKey=true: trusting the public key the VOPRF server"
                        + " offers ({}, key id '{}') without a pin; for development only",
                    Base64.getEncoder().encodeToString(key.bytes()),
                    answer.getKeyId());
                return key;
              } catch (InvalidElementException e) {
                throw hostile("The VOPRF server's public key is no ristretto255 element");
              }
            })
        .onComplete(fetching);
    return fetching.future();
  }

  private record Item(BlindedInput input, Submission submission, int index) {}

  /**
   * One call's values: its cores fill in as their chunks are answered, in any order, and the call
   * continues on its own context (where its deadline is kept), whichever thread answered last.
   */
  private static final class Submission {
    private final String[] cores;
    private final AtomicInteger missing;
    private final Context context;
    private final Promise<List<String>> promise = Promise.promise();

    Submission(int size, Context context) {
      this.cores = new String[size];
      this.missing = new AtomicInteger(size);
      this.context = context;
    }

    void deliver(int index, String core) {
      cores[index] = core;
      if (missing.decrementAndGet() == 0) {
        List<String> all = List.of(cores);
        onContext(() -> promise.tryComplete(all));
      }
    }

    void fail(Throwable failure) {
      onContext(() -> promise.tryFail(failure));
    }

    private void onContext(Runnable completion) {
      if (context == null) {
        completion.run();
      } else {
        context.runOnContext(ignored -> completion.run());
      }
    }
  }
}
