import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.http.StreamResetException;
import io.vertx.core.net.SocketAddress;
import io.vertx.grpc.client.GrpcClient;
import io.vertx.grpc.client.GrpcClientOptions;
import io.vertx.grpc.client.GrpcClientRequest;
import io.vertx.grpc.client.InvalidStatusException;
import io.vertx.grpc.common.GrpcErrorException;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.common.ServiceMethod;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.PseudonymGenerationMethod;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceCreateResponse;
import org.vfps.api.v1.PseudonymServiceGetRequest;
import org.vfps.api.v1.PseudonymServiceGrpcClient;

/**
 * The load side of {@code .ci/ha-rehearsal.sh}, in three commands.
 *
 * <p>{@code load}: an open model. Creates of fresh original values are offered at a fixed {@code
 * --rate} on a wall-clock schedule, whether or not earlier calls have been answered. The calls go
 * round robin to the replicas that are ready, as through a Kubernetes Service that lists ready
 * pods only: each replica's {@code /readyz} ({@code --readiness}, its HTTP addresses in the order
 * of {@code --targets}) is polled every 250 ms, as endpoints follow readiness probes, and a replica
 * gets new attempts only while its last answer was 200 (an attempt already sent stays where it
 * is). When no replica is ready (the database is down, so every {@code /readyz} is 503), every
 * replica gets attempts again, as a gRPC client keeps the addresses it has when the name resolves
 * to none. A call has {@code --deadline-ms} from its scheduled send
 * time, retries included, and is sent with that {@code grpc-timeout}; at the deadline the client
 * ends a call only when no attempt of it is with a replica, and otherwise waits for the replica's
 * answer (at most 5 s more), so that the latency logged shows whether the service kept the
 * deadline. A call is retried, on the
 * next ready replica after a randomized exponential backoff (200 ms doubling, at most 5 attempts),
 * only when it fails with {@code UNAVAILABLE}; a transport failure (connection refused, closed or
 * reset) counts as {@code UNAVAILABLE}, as gRPC clients report it. {@code INTERNAL}, {@code
 * DEADLINE_EXCEEDED} and everything else fail the call. When {@code --max-in-flight} calls are
 * outstanding, a new one is shed (not sent) and counts as failed. Every acknowledged (original,
 * pseudonym) pair is appended to {@code --ledger}, every call to {@code --calls}, and with {@code
 * --acks} each pair's original value and the wall-clock time of its acknowledgement (Unix
 * milliseconds); the load stops when the file {@code --stop} appears.
 *
 * <p>{@code verify}: replays the whole ledger once the load has stopped: P2, a re-Create of each
 * original value must answer the same pseudonym; P3, a Get of each pseudonym must answer its
 * original value. Retries patiently on {@code UNAVAILABLE} and {@code DEADLINE_EXCEEDED}.
 *
 * <p>{@code report}: the table per scenario from the call log and the script's phase marks, and the
 * verdict; exits 1 when a budget is missed. With {@code --windows} (lines {@code partition <began>
 * <healed>}, Unix milliseconds), P1 counts the calls offered outside the partitions only, and the
 * partition has budgets of its own: no call under way during it takes longer than its deadline
 * plus {@code --max-overrun} seconds, and the first call offered after the heal is acknowledged
 * within {@code --max-recovery} seconds of it.
 *
 * <pre>
 * java -cp target/vfps.jar .ci/HaRehearsalClient.java load --targets 127.0.0.1:25451,... \
 *     --readiness 127.0.0.1:25441,... \
 *     --namespace ha --rate 200 --deadline-ms 5000 --ledger ledger.tsv --calls calls.tsv --stop stop
 * java -cp target/vfps.jar .ci/HaRehearsalClient.java verify --targets ... --namespace ha \
 *     --ledger ledger.tsv
 * java -cp target/vfps.jar .ci/HaRehearsalClient.java report --calls calls.tsv \
 *     --phases phases.tsv --windows windows.tsv --rate 200 --deadline-ms 5000 \
 *     --verify verify.out --duplicates 0 --lost-in-sql 0
 * </pre>
 */
public final class HaRehearsalClient {

  private static final int MAX_ATTEMPTS = 5;
  private static final long INITIAL_BACKOFF_MILLIS = 200;
  private static final long MAX_BACKOFF_MILLIS = 5000;
  private static final long TICK_MILLIS = 10;
  private static final long WEDGED_NANOS = TimeUnit.SECONDS.toNanos(3);

  /** How long after its deadline a call the service has is cancelled by the client itself. */
  private static final long BACKSTOP_MILLIS = 5000;
  private static final int VERIFY_ATTEMPTS = 60;
  private static final long READINESS_POLL_MILLIS = 250;

  /** How often each kind of unexpected transport failure was printed, to print only the first. */
  private static final Map<String, Integer> UNEXPECTED_LOGGED =
      new java.util.concurrent.ConcurrentHashMap<>();

  private final Vertx vertx;
  private final Context context;
  private final List<Replica> replicas;
  private final String namespace;
  private final HttpClient probes;
  private long startNanos = System.nanoTime();

  /** The replica the next call tries first (if it is ready); touched only on {@link #context}. */
  private int nextReplica;

  private HaRehearsalClient(Vertx vertx, Options options) {
    this.vertx = vertx;
    this.context = vertx.getOrCreateContext();
    this.namespace = options.get("namespace");
    this.replicas = new ArrayList<>();
    String[] targets = options.get("targets").split(",");
    String[] readiness =
        options.containsKey("readiness") ? options.get("readiness").split(",") : null;
    if (readiness != null && readiness.length != targets.length) {
      throw new IllegalArgumentException("--readiness needs one address per target");
    }
    for (int i = 0; i < targets.length; i++) {
      replicas.add(
          new Replica(
              replicas.size() + 1,
              address(targets[i]),
              readiness == null ? null : address(readiness[i])));
    }
    this.probes =
        vertx.createHttpClient(new HttpClientOptions().setConnectTimeout(1000).setKeepAlive(false));
  }

  /**
   * One replica: the address, the client of its own connection, and what waits there; touched only
   * on {@link #context}.
   */
  private final class Replica {
    final int number;
    final SocketAddress address;

    /** Its HTTP address, whose {@code /readyz} decides whether it gets calls; null: always. */
    final SocketAddress readiness;

    GrpcClient client = newClient();
    int waitingForStream;
    int sent;
    long lastStreamNanos = System.nanoTime();
    int reconnects;
    boolean ready;
    String lastProbe = "";
    boolean probing;

    Replica(int number, SocketAddress address, SocketAddress readiness) {
      this.number = number;
      this.address = address;
      this.readiness = readiness;
      this.ready = readiness == null;
    }

    /** Asks {@code /readyz} once (1 s at most); a replica that does not answer 200 is not ready. */
    Future<Void> probe() {
      if (readiness == null || probing) {
        return Future.succeededFuture();
      }
      probing = true;
      return probes
          .request(
              new RequestOptions()
                  .setMethod(HttpMethod.GET)
                  .setServer(readiness)
                  .setHost(readiness.host())
                  .setPort(readiness.port())
                  .setURI("/readyz")
                  .setTimeout(1000))
          .compose(request -> request.send())
          .compose(response -> response.body().map(body -> response.statusCode()))
          .map(Object::toString)
          .otherwise(failure -> "no answer")
          .map(
              answer -> {
                probing = false;
                ready = answer.equals("200");
                if (!answer.equals(lastProbe)) {
                  System.err.printf(
                      Locale.ROOT,
                      "%.1f s: replica %d /readyz %s: %s%n",
                      (System.nanoTime() - startNanos) / 1e9,
                      number,
                      answer,
                      ready ? "gets calls" : "gets no new calls");
                  lastProbe = answer;
                }
                return null;
              });
    }

    private GrpcClient newClient() {
      return GrpcClient.client(
          vertx,
          new GrpcClientOptions().setScheduleDeadlineAutomatically(false),
          new HttpClientOptions()
              .setProtocolVersion(HttpVersion.HTTP_2)
              .setHttp2ClearTextUpgrade(false)
              .setConnectTimeout(2000));
    }

    /**
     * Replaces a connection on which no stream was granted for {@link #WEDGED_NANOS} while calls
     * wait for one. Vert.x's HTTP/2 client can end up there when opening a stream fails ("Maximum
     * active streams violated"): the slot is never given back, and after as many failures as the
     * server allows concurrent streams the connection sends nothing, forever, while the replica
     * answers a new client at once. Every reconnect is printed and counted.
     */
    void reconnectIfWedged(long now) {
      if (waitingForStream > 0 && sent == 0 && now - lastStreamNanos > WEDGED_NANOS) {
        reconnects++;
        System.err.printf(
            Locale.ROOT,
            "replica %d: no stream granted for %.1f s, %d calls waiting: a new connection%n",
            number,
            (now - lastStreamNanos) / 1e9,
            waitingForStream);
        GrpcClient wedged = client;
        client = newClient();
        lastStreamNanos = now;
        wedged.close();
      }
    }
  }

  public static void main(String[] args) throws Exception {
    if (args.length == 0) {
      throw new IllegalArgumentException("usage: load|verify|report --option value ...");
    }
    Options options = Options.parse(Arrays.copyOfRange(args, 1, args.length));
    int exit;
    if (args[0].equals("report")) {
      exit = new Report(options).print();
    } else {
      Vertx vertx = Vertx.vertx();
      try {
        HaRehearsalClient client = new HaRehearsalClient(vertx, options);
        exit =
            switch (args[0]) {
              case "load" -> client.load(options);
              case "verify" -> client.verify(options);
              default -> throw new IllegalArgumentException("unknown command " + args[0]);
            };
      } finally {
        vertx.close().await();
      }
    }
    System.exit(exit);
  }

  // ---------------------------------------------------------------- load

  /** One offered call; touched only on {@link #context}. */
  private final class Call {
    final long index;
    final long offeredNanos;
    final long deadlineNanos;
    final String original;
    final List<String> attemptFailures = new ArrayList<>(2);
    final Promise<String> result = Promise.promise();
    GrpcClientRequest<?, ?> current;
    int replica;

    Call(long index, long offeredNanos, long deadlineNanos, String original) {
      this.index = index;
      this.offeredNanos = offeredNanos;
      this.deadlineNanos = deadlineNanos;
      this.original = original;
    }
  }

  /** The outcome of one attempt that did not succeed: a gRPC status and what was seen. */
  private record Failure(GrpcStatus status, String detail) {
    String label() {
      return detail.isEmpty() ? status.name() : status.name() + "/" + detail;
    }
  }

  private static final class FailedAttempt extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final transient Failure failure;

    FailedAttempt(Failure failure) {
      super(failure.label(), null, false, false);
      this.failure = failure;
    }
  }

  private int load(Options options) throws Exception {
    double rate = Double.parseDouble(options.get("rate"));
    long deadlineNanos = TimeUnit.MILLISECONDS.toNanos(Long.parseLong(options.get("deadline-ms")));
    int maxInFlight =
        Integer.parseInt(
            options.getOrDefault(
                "max-in-flight",
                Long.toString(
                    Math.round(2 * rate * Long.parseLong(options.get("deadline-ms")) / 1000))));
    Path stop = Path.of(options.get("stop"));
    String run = Long.toString(System.currentTimeMillis(), 36);

    createNamespace().await();
    watchConnections();
    watchReadiness().await();

    BufferedWriter ledger = Files.newBufferedWriter(Path.of(options.get("ledger")));
    BufferedWriter calls = Files.newBufferedWriter(Path.of(options.get("calls")));
    // when each pair was acknowledged, in Unix milliseconds (.ci/backup-rehearsal.sh)
    BufferedWriter acks =
        options.containsKey("acks") ? Files.newBufferedWriter(Path.of(options.get("acks"))) : null;
    Map<String, Integer> messages = new TreeMap<>();
    startNanos = System.nanoTime();
    long startEpochMillis = System.currentTimeMillis();
    calls.write("# start_epoch_ms=" + startEpochMillis + " rate=" + rate + "\n");
    calls.write("# index\toffered_ms\tlatency_ms\toutcome\treplica\tattempt_failures\n");
    System.out.println("load started");
    System.out.flush();

    Promise<Void> finished = Promise.promise();
    long[] offered = {0};
    int[] inFlight = {0};
    boolean[] stopping = {false};
    long[] lastStatus = {startNanos};
    context.runOnContext(
        v -> {
          vertx.setPeriodic(
              TICK_MILLIS,
              timer -> {
                if (!stopping[0] && Files.exists(stop)) {
                  stopping[0] = true;
                  vertx.cancelTimer(timer);
                }
                if (stopping[0]) {
                  if (inFlight[0] == 0) {
                    finished.tryComplete();
                  }
                  return;
                }
                long now = System.nanoTime();
                if (now - lastStatus[0] >= 1_000_000_000L) {
                  lastStatus[0] = now;
                  System.err.println(status(now - startNanos, offered[0], inFlight[0]));
                }
                long due = (long) ((now - startNanos) * rate / 1e9);
                while (offered[0] < due) {
                  long index = offered[0]++;
                  long scheduled = startNanos + (long) (index * 1e9 / rate);
                  if (inFlight[0] >= maxInFlight) {
                    writeLine(calls, index, scheduled - startNanos, -1, "SHED", -1, List.of());
                    continue;
                  }
                  inFlight[0]++;
                  Call call =
                      new Call(
                          index, scheduled, scheduled + deadlineNanos, "ha-" + run + "-" + index);
                  startCall(call, messages);
                  call.result
                      .future()
                      .onComplete(
                          result -> {
                            inFlight[0]--;
                            long latency = System.nanoTime() - call.offeredNanos;
                            String outcome;
                            if (result.succeeded()) {
                              outcome = "OK";
                              write(ledger, call.original + "\t" + result.result() + "\n");
                              if (acks != null) {
                                write(
                                    acks,
                                    call.original + "\t" + System.currentTimeMillis() + "\n");
                              }
                            } else {
                              outcome =
                                  result.cause() instanceof FailedAttempt failed
                                      ? outcome(failed.failure)
                                      : "UNKNOWN";
                            }
                            writeLine(
                                calls,
                                index,
                                call.offeredNanos - startNanos,
                                latency,
                                outcome,
                                call.replica,
                                call.attemptFailures);
                            if (stopping[0] && inFlight[0] == 0) {
                              finished.tryComplete();
                            }
                          });
                }
              });
        });
    finished.future().await();
    ledger.close();
    calls.close();
    if (acks != null) {
      acks.close();
    }
    try (BufferedWriter out =
        Files.newBufferedWriter(Path.of(options.get("calls") + ".messages"))) {
      for (Map.Entry<String, Integer> entry : messages.entrySet()) {
        out.write(entry.getValue() + "\t" + entry.getKey() + "\n");
      }
    }
    System.out.println("offered=" + offered[0]);
    System.out.println("reconnects=" + reconnects());
    return 0;
  }

  /** A failed call's outcome in the call log: its status, and whether the client ended it. */
  private static String outcome(Failure failure) {
    return failure.detail().equals("backstop")
        ? failure.label()
        : failure.status().name();
  }

  /** Checks twice a second for connections that no longer grant streams. */
  private void watchConnections() {
    context.runOnContext(
        v ->
            vertx.setPeriodic(
                500,
                id -> {
                  long now = System.nanoTime();
                  replicas.forEach(replica -> replica.reconnectIfWedged(now));
                }));
  }

  /**
   * Polls every replica's {@code /readyz} every {@link #READINESS_POLL_MILLIS}; completes after the
   * first round.
   */
  private Future<Void> watchReadiness() {
    Promise<Void> firstRound = Promise.promise();
    context.runOnContext(
        v -> {
          Future.all(replicas.stream().map(Replica::probe).toList())
              .<Void>mapEmpty()
              .onComplete(firstRound);
          vertx.setPeriodic(
              READINESS_POLL_MILLIS, id -> replicas.forEach(replica -> replica.probe()));
        });
    return firstRound.future();
  }

  /**
   * The first ready replica from {@code from} on, round robin; {@code from} itself when none is
   * ready, as a gRPC client whose resolver finds no address keeps the ones it has.
   */
  private int readyFrom(int from) {
    for (int i = 0; i < replicas.size(); i++) {
      int replica = (from + i) % replicas.size();
      if (replicas.get(replica).ready) {
        return replica;
      }
    }
    return from % replicas.size();
  }

  private String reconnects() {
    return replicas.stream()
        .map(replica -> Integer.toString(replica.reconnects))
        .collect(Collectors.joining(" / "));
  }

  /** One line of progress: what is offered, in flight, and waiting at each replica. */
  private String status(long elapsedNanos, long offered, int inFlight) {
    StringBuilder line =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "%.0f s: offered %d, in flight %d;",
                elapsedNanos / 1e9,
                offered,
                inFlight));
    for (Replica replica : replicas) {
      line.append(
          String.format(
              Locale.ROOT,
              " replica %d: %d waiting for a stream, %d sent;",
              replica.number,
              replica.waitingForStream,
              replica.sent));
    }
    return line.toString();
  }

  /**
   * Starts the call's first attempt, and at its deadline ends it unless the service is working on
   * it: a call whose attempt is waiting for a stream or a retry fails then, as the service never
   * saw it; one the service has is left to the service, which must answer by its {@code
   * grpc-timeout}, and is cancelled only {@link #BACKSTOP_MILLIS} after the deadline. The latency
   * logged is therefore the service's: the rehearsal's partition budget is that no call outlives its
   * deadline by more than a second.
   */
  private void startCall(Call call, Map<String, Integer> messages) {
    long untilDeadline = call.deadlineNanos - System.nanoTime();
    long[] timer = new long[1];
    timer[0] =
        vertx.setTimer(
            Math.max(1, TimeUnit.NANOSECONDS.toMillis(untilDeadline)),
            id -> {
              if (call.current == null) {
                call.result.tryFail(
                    new FailedAttempt(new Failure(GrpcStatus.DEADLINE_EXCEEDED, "client")));
                return;
              }
              timer[0] =
                  vertx.setTimer(
                      BACKSTOP_MILLIS,
                      late -> {
                        if (call.result.tryFail(
                            new FailedAttempt(
                                new Failure(GrpcStatus.DEADLINE_EXCEEDED, "backstop")))) {
                          call.current.cancel();
                        }
                      });
            });
    call.result.future().onComplete(done -> vertx.cancelTimer(timer[0]));
    attempt(call, nextReplica, 1, messages);
  }

  /** An attempt of the call on the first ready replica from {@code from} on. */
  private void attempt(Call call, int from, int attempt, Map<String, Integer> messages) {
    if (call.result.future().isComplete()) {
      return;
    }
    int replica = readyFrom(from);
    call.replica = replica + 1;
    if (attempt == 1) {
      nextReplica = (replica + 1) % replicas.size();
    }
    create(
            replicas.get(replica),
            call.original,
            call.deadlineNanos,
            req -> call.current = req,
            messages)
        .onSuccess(call.result::tryComplete)
        .onFailure(
            error -> {
              if (call.result.future().isComplete()) {
                return; // the deadline passed; this is the cancelled attempt
              }
              call.current = null;
              Failure failure = ((FailedAttempt) error).failure;
              call.attemptFailures.add("r" + (replica + 1) + ":" + failure.label());
              long backoff =
                  ThreadLocalRandom.current()
                      .nextLong(
                          1,
                          1
                              + Math.min(
                                  MAX_BACKOFF_MILLIS, INITIAL_BACKOFF_MILLIS << (attempt - 1)));
              boolean timeLeft =
                  System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(backoff) < call.deadlineNanos;
              if (failure.status() == GrpcStatus.UNAVAILABLE
                  && attempt < MAX_ATTEMPTS
                  && timeLeft) {
                vertx.setTimer(
                    backoff,
                    id ->
                        attempt(call, (replica + 1) % replicas.size(), attempt + 1, messages));
              } else {
                call.result.tryFail(error);
              }
            });
  }

  /** A Create of {@code original}; yields the pseudonym. */
  private Future<String> create(
      Replica target,
      String original,
      long deadlineNanos,
      Consumer<GrpcClientRequest<PseudonymServiceCreateRequest, PseudonymServiceCreateResponse>>
          sent,
      Map<String, Integer> messages) {
    return unary(
            target,
            PseudonymServiceGrpcClient.Create,
            PseudonymServiceCreateRequest.newBuilder()
                .setNamespace(namespace)
                .setOriginalValue(original)
                .build(),
            deadlineNanos,
            sent,
            messages)
        .map(response -> response.getPseudonym().getPseudonymValue());
  }

  /**
   * One unary call with the time left until {@code deadlineNanos} as its {@code grpc-timeout};
   * fails with a {@link FailedAttempt}. Status messages are counted in {@code messages}.
   */
  private <Q, R> Future<R> unary(
      Replica target,
      ServiceMethod<R, Q> method,
      Q request,
      long deadlineNanos,
      Consumer<GrpcClientRequest<Q, R>> sent,
      Map<String, Integer> messages) {
    target.waitingForStream++;
    return target
        .client
        .request(target.address, method)
        .andThen(
            done -> {
              target.waitingForStream--;
              target.lastStreamNanos = System.nanoTime();
            })
        .compose(
            req -> {
              long left = deadlineNanos - System.nanoTime();
              if (left <= 0) {
                req.cancel();
                return Future.failedFuture(
                    new FailedAttempt(new Failure(GrpcStatus.DEADLINE_EXCEEDED, "client")));
              }
              sent.accept(req);
              req.timeout(TimeUnit.NANOSECONDS.toMillis(left), TimeUnit.MILLISECONDS);
              req.end(request);
              target.sent++;
              return req.response()
                  .andThen(done -> target.sent--)
                  .compose(
                      response ->
                          response
                              .last()
                              .recover(
                                  error -> {
                                    GrpcStatus status = response.status();
                                    if (status == null || status == GrpcStatus.OK) {
                                      return Future.failedFuture(error);
                                    }
                                    String message = response.statusMessage();
                                    messages.merge(
                                        status.name() + ": " + (message == null ? "" : message),
                                        1,
                                        Integer::sum);
                                    return Future.failedFuture(
                                        new FailedAttempt(new Failure(status, "")));
                                  }));
            })
        .recover(
            error ->
                Future.failedFuture(
                    error instanceof FailedAttempt ? error : new FailedAttempt(transport(error))));
  }

  /**
   * A failure below gRPC: a stream reset by the server has its gRPC status (REFUSED_STREAM is
   * UNAVAILABLE), everything else is reported as {@code UNAVAILABLE} with what happened.
   */
  private static Failure transport(Throwable error) {
    if (error instanceof GrpcErrorException reset) {
      return new Failure(reset.status(), "stream-reset");
    }
    String detail;
    if (error instanceof ConnectException) {
      detail = "refused";
    } else if (error instanceof HttpClosedException) {
      detail = "connection-closed";
    } else if ("Client is closed".equals(error.getMessage())
        || "Pool closed".equals(error.getMessage())) {
      detail = "client-reconnect"; // waited on a connection that was replaced, see Replica
    } else if ("Connection was closed".equals(error.getMessage())) {
      detail = "connection-closed";
    } else if (error instanceof StreamResetException) {
      detail = "stream-reset";
    } else if (error instanceof TimeoutException
        || error.getClass().getSimpleName().contains("Timeout")) {
      detail = "connect-timeout";
    } else {
      detail = error.getClass().getSimpleName();
      if (UNEXPECTED_LOGGED.merge(detail, 1, Integer::sum) <= 3) {
        System.err.println("attempt failed: " + error);
      }
    }
    return new Failure(GrpcStatus.UNAVAILABLE, detail);
  }

  private Future<Void> createNamespace() {
    NamespaceServiceGrpcClient namespaces =
        NamespaceServiceGrpcClient.create(replicas.get(0).client, replicas.get(0).address);
    return namespaces
        .create(
            NamespaceServiceCreateRequest.newBuilder()
                .setName(namespace)
                .setPseudonymGenerationMethod(
                    PseudonymGenerationMethod
                        .PSEUDONYM_GENERATION_METHOD_SECURE_RANDOM_BASE64URL_ENCODED)
                .setPseudonymLength(32)
                .setPseudonymPrefix("ha-")
                .build())
        .<Void>mapEmpty()
        .recover(
            error ->
                error instanceof InvalidStatusException status
                        && status.actualStatus() == GrpcStatus.ALREADY_EXISTS
                    ? Future.succeededFuture()
                    : Future.failedFuture(error));
  }

  // ---------------------------------------------------------------- verify

  private int verify(Options options) throws Exception {
    List<String[]> pairs;
    try (var lines = Files.lines(Path.of(options.get("ledger")))) {
      pairs = lines.filter(line -> !line.isEmpty()).map(line -> line.split("\t", 2)).toList();
    }
    int concurrency = Integer.parseInt(options.getOrDefault("concurrency", "64"));
    long deadline = TimeUnit.SECONDS.toNanos(10);
    Map<String, Integer> messages = new TreeMap<>();
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (String key :
        List.of("p2_changed", "p2_unverified", "p3_wrong", "p3_not_found", "p3_unverified")) {
      counts.put(key, 0);
    }
    List<String> examples = new ArrayList<>();
    int[] cursor = {0, 0};
    Promise<Void> finished = Promise.promise();
    Runnable[] lane = new Runnable[1];
    lane[0] =
        () -> {
          if (cursor[0] >= pairs.size()) {
            if (cursor[1] == pairs.size()) {
              finished.tryComplete();
            }
            return;
          }
          int index = cursor[0]++;
          String original = pairs.get(index)[0];
          String pseudonym = pairs.get(index)[1];
          Future<String> recreated =
              patiently(
                  index,
                  target ->
                      create(target, original, System.nanoTime() + deadline, req -> {}, messages),
                  1);
          Future<String> lookedUp =
              recreated.transform(
                  done ->
                      patiently(
                          index,
                          target ->
                              unary(
                                      target,
                                      PseudonymServiceGrpcClient.Get,
                                      PseudonymServiceGetRequest.newBuilder()
                                          .setNamespace(namespace)
                                          .setPseudonymValue(pseudonym)
                                          .build(),
                                      System.nanoTime() + deadline,
                                      req -> {},
                                      messages)
                                  .map(response -> response.getPseudonym().getOriginalValue()),
                          1));
          lookedUp.onComplete(
              done -> {
                cursor[1]++;
                if (recreated.failed()) {
                  count(
                      counts, examples, "p2_unverified", original, recreated.cause().getMessage());
                } else if (!recreated.result().equals(pseudonym)) {
                  count(counts, examples, "p2_changed", original, recreated.result());
                }
                if (lookedUp.failed()) {
                  boolean notFound =
                      lookedUp.cause() instanceof FailedAttempt failed
                          && failed.failure.status() == GrpcStatus.NOT_FOUND;
                  count(
                      counts,
                      examples,
                      notFound ? "p3_not_found" : "p3_unverified",
                      pseudonym,
                      lookedUp.cause().getMessage());
                } else if (!lookedUp.result().equals(original)) {
                  count(counts, examples, "p3_wrong", pseudonym, lookedUp.result());
                }
                lane[0].run();
              });
        };
    long started = System.nanoTime();
    watchConnections();
    context.runOnContext(
        v -> {
          if (pairs.isEmpty()) {
            finished.tryComplete();
          }
          for (int i = 0; i < concurrency; i++) {
            lane[0].run();
          }
        });
    finished.future().await();
    System.out.println("pairs=" + pairs.size());
    counts.forEach((key, value) -> System.out.println(key + "=" + value));
    System.out.printf(Locale.ROOT, "seconds=%.1f%n", (System.nanoTime() - started) / 1e9);
    System.out.println("reconnects=" + reconnects());
    examples.forEach(example -> System.out.println("example=" + example));
    messages.forEach((message, n) -> System.out.println("status_message=" + n + " " + message));
    return 0;
  }

  /**
   * Retries {@code UNAVAILABLE} and {@code DEADLINE_EXCEEDED} up to {@link #VERIFY_ATTEMPTS} times,
   * a second apart, on the next replica each time: the load has stopped, but a replica may be
   * restarting, and a pair that cannot be checked counts against P2 or P3. Both calls are
   * idempotent.
   */
  private <T> Future<T> patiently(int index, Function<Replica, Future<T>> call, int attempt) {
    int replica = (index + attempt - 1) % replicas.size();
    return call.apply(replicas.get(replica))
        .recover(
            error -> {
              boolean retryable =
                  error instanceof FailedAttempt failed
                      && (failed.failure.status() == GrpcStatus.UNAVAILABLE
                          || failed.failure.status() == GrpcStatus.DEADLINE_EXCEEDED);
              if (!retryable || attempt >= VERIFY_ATTEMPTS) {
                return Future.failedFuture(error);
              }
              Promise<T> retried = Promise.promise();
              vertx.setTimer(1000, id -> patiently(index, call, attempt + 1).onComplete(retried));
              return retried.future();
            });
  }

  private static void count(
      Map<String, Integer> counts, List<String> examples, String key, String subject, String seen) {
    int n = counts.merge(key, 1, Integer::sum);
    if (n <= 5) {
      examples.add(key + " " + subject + " -> " + seen);
    }
  }

  // ---------------------------------------------------------------- report

  /**
   * The table per scenario and the verdict. A call belongs to the scenario during which it was
   * offered (its scheduled send time), and so does the second it was offered in.
   */
  private static final class Report {

    private final Options options;

    Report(Options options) {
      this.options = options;
    }

    private record CallRecord(
        long offeredMillis, long latencyMillis, String outcome, List<String> attemptFailures) {}

    private record Phase(String name, long startMillis, long endMillis) {}

    int print() throws IOException {
      double rate = Double.parseDouble(options.get("rate"));
      long startEpoch = 0;
      List<CallRecord> calls = new ArrayList<>();
      for (String line : Files.readAllLines(Path.of(options.get("calls")))) {
        if (line.startsWith("# start_epoch_ms=")) {
          startEpoch = Long.parseLong(line.substring("# start_epoch_ms=".length()).split(" ")[0]);
          continue;
        }
        if (line.startsWith("#") || line.isEmpty()) {
          continue;
        }
        String[] f = line.split("\t", -1);
        if (f.length < 6) {
          continue; // the last line of a load that was stopped midway
        }
        calls.add(
            new CallRecord(
                Long.parseLong(f[1]),
                Long.parseLong(f[2]),
                f[3],
                f[5].isEmpty() ? List.of() : List.of(f[5].split(","))));
      }
      long end = calls.isEmpty() ? 0 : calls.get(calls.size() - 1).offeredMillis() + 1;
      for (CallRecord call : calls) {
        end = Math.max(end, call.offeredMillis() + 1);
      }
      List<Phase> phases = new ArrayList<>();
      List<String[]> marks = new ArrayList<>();
      for (String line : Files.readAllLines(Path.of(options.get("phases")))) {
        if (!line.isBlank()) {
          marks.add(line.split("\t"));
        }
      }
      for (int i = 0; i < marks.size(); i++) {
        long from = i == 0 ? 0 : Long.parseLong(marks.get(i)[1]) - startEpoch;
        long to = i + 1 < marks.size() ? Long.parseLong(marks.get(i + 1)[1]) - startEpoch : end;
        phases.add(new Phase(marks.get(i)[0], from, to));
      }

      List<Window> partitions = new ArrayList<>();
      if (options.containsKey("windows")) {
        for (String line : Files.readAllLines(Path.of(options.get("windows")))) {
          String[] f = line.split("\t");
          if (f.length == 3 && f[0].equals("partition")) {
            partitions.add(
                new Window(Long.parseLong(f[1]) - startEpoch, Long.parseLong(f[2]) - startEpoch));
          }
        }
      }
      List<CallRecord> outside =
          calls.stream()
              .filter(c -> partitions.stream().noneMatch(w -> w.holds(c.offeredMillis())))
              .toList();

      System.out.println(
          "| scenario | seconds | offered | ok | failed, by status | retried attempts, by what"
              + " failed | longest outage | failure-equivalent | p99 / max of ok |");
      System.out.println("|---|---:|---:|---:|---|---|---:|---:|---:|");
      TreeMap<Long, long[]> seconds = seconds(calls);
      for (Phase phase : phases) {
        List<CallRecord> in =
            calls.stream()
                .filter(
                    c ->
                        c.offeredMillis() >= phase.startMillis()
                            && c.offeredMillis() < phase.endMillis())
                .toList();
        printRow(phase.name(), phase.startMillis(), phase.endMillis(), in, seconds, rate);
      }
      Stats all = printRow("**all**", 0, end, calls, seconds, rate);
      Stats p1 =
          partitions.isEmpty()
              ? all
              : printRow("**outside the partition**", 0, end, outside, seconds(outside), rate);

      Map<String, String> verify = new HashMap<>();
      for (String line : Files.readAllLines(Path.of(options.get("verify")))) {
        int eq = line.indexOf('=');
        if (eq > 0 && !verify.containsKey(line.substring(0, eq))) {
          verify.put(line.substring(0, eq), line.substring(eq + 1));
        }
      }
      int p2 = intOf(verify, "p2_changed") + intOf(verify, "p2_unverified");
      int p3 =
          intOf(verify, "p3_wrong")
              + intOf(verify, "p3_not_found")
              + intOf(verify, "p3_unverified");
      int duplicates = Integer.parseInt(options.get("duplicates"));
      int lostInSql = Integer.parseInt(options.get("lost-in-sql"));
      int crashes = Integer.parseInt(options.getOrDefault("crashes", "0"));
      int maxOutage = Integer.parseInt(options.getOrDefault("max-outage", "10"));
      double maxUnavailable = Double.parseDouble(options.getOrDefault("max-unavailable", "30"));
      System.out.println();
      System.out.printf(
          Locale.ROOT,
          "P2 re-Create: %s pairs, %s changed, %s not verifiable; P3 Get: %s wrong, %s not found,"
              + " %s not verifiable; duplicate pseudonyms in the database: %d; acknowledged pairs"
              + " missing or different in the database: %d; replicas that died on their own: %d%n",
          verify.getOrDefault("pairs", "?"),
          verify.getOrDefault("p2_changed", "?"),
          verify.getOrDefault("p2_unverified", "?"),
          verify.getOrDefault("p3_wrong", "?"),
          verify.getOrDefault("p3_not_found", "?"),
          verify.getOrDefault("p3_unverified", "?"),
          duplicates,
          lostInSql,
          crashes);
      List<String> missed = new ArrayList<>();
      if (p1.longestOutage() > maxOutage) {
        missed.add("longest outage " + p1.longestOutage() + " s > " + maxOutage + " s");
      }
      if (p1.failureEquivalent() > maxUnavailable) {
        missed.add(
            String.format(
                Locale.ROOT,
                "unavailable %.1f s > %.0f s",
                p1.failureEquivalent(),
                maxUnavailable));
      }
      String partitionLine = "partition: not rehearsed in this run";
      if (!partitions.isEmpty()) {
        long deadlineMillis = Long.parseLong(options.get("deadline-ms"));
        long maxOverrunMillis =
            Math.round(1000 * Double.parseDouble(options.getOrDefault("max-overrun", "1")));
        long maxRecoveryMillis =
            Math.round(1000 * Double.parseDouble(options.getOrDefault("max-recovery", "5")));
        long longest = 0;
        long recovery = 0;
        for (Window partition : partitions) {
          longest = Math.max(longest, partition.longestCall(calls));
          recovery = Math.max(recovery, partition.firstSuccessAfterHeal(calls));
        }
        if (longest > deadlineMillis + maxOverrunMillis) {
          missed.add(
              String.format(
                  Locale.ROOT,
                  "a call in the partition took %.1f s, %.1f s past its deadline",
                  longest / 1000.0,
                  (longest - deadlineMillis) / 1000.0));
        }
        if (recovery == Long.MAX_VALUE) {
          missed.add("no call succeeded after the partition healed");
        } else if (recovery > maxRecoveryMillis) {
          missed.add(
              String.format(
                  Locale.ROOT,
                  "first success %.1f s after the partition healed",
                  recovery / 1000.0));
        }
        partitionLine =
            String.format(
                Locale.ROOT,
                "partition: longest call %.1f s, first success %s after it healed",
                longest / 1000.0,
                recovery == Long.MAX_VALUE
                    ? "never"
                    : String.format(Locale.ROOT, "%.1f s", recovery / 1000.0));
      }
      if (p2 != 0) {
        missed.add("P2 " + p2);
      }
      if (p3 != 0) {
        missed.add("P3 " + p3);
      }
      if (duplicates != 0) {
        missed.add(duplicates + " duplicate pseudonyms");
      }
      if (lostInSql != 0) {
        missed.add(lostInSql + " acknowledged pairs missing in the database");
      }
      if (crashes != 0) {
        missed.add(crashes + " replica crashes");
      }
      if (all.ok() == 0 || !verify.containsKey("pairs") || intOf(verify, "pairs") == 0) {
        missed.add("nothing was acknowledged or verified");
      }
      System.out.println(
          missed.isEmpty() ? "budgets met" : "budgets missed: " + String.join("; ", missed));
      System.out.printf(
          Locale.ROOT,
          "P1 max outage %d s, unavailable %.1f s; P2 %d; P3 %d%n",
          p1.longestOutage(),
          p1.failureEquivalent(),
          p2,
          p3);
      System.out.println(partitionLine);
      return missed.isEmpty() ? 0 : 1;
    }

    /**
     * A second since the start -> {offered, ok} of the calls offered in it: a second is down when
     * calls were offered in it and none succeeded. Seconds without calls are absent, and break a
     * run of seconds down.
     */
    private static TreeMap<Long, long[]> seconds(List<CallRecord> calls) {
      TreeMap<Long, long[]> seconds = new TreeMap<>();
      for (CallRecord call : calls) {
        long[] second = seconds.computeIfAbsent(call.offeredMillis() / 1000, s -> new long[2]);
        second[0]++;
        if (call.outcome().equals("OK")) {
          second[1]++;
        }
      }
      return seconds;
    }

    /** A partition, from when it began to when it healed, in milliseconds since the start. */
    private record Window(long fromMillis, long toMillis) {

      boolean holds(long millis) {
        return millis >= fromMillis && millis < toMillis;
      }

      /** The longest of the calls that were under way at some time in the window. */
      long longestCall(List<CallRecord> calls) {
        long longest = 0;
        for (CallRecord call : calls) {
          if (call.latencyMillis() >= 0
              && call.offeredMillis() < toMillis
              && call.offeredMillis() + call.latencyMillis() > fromMillis) {
            longest = Math.max(longest, call.latencyMillis());
          }
        }
        return longest;
      }

      /**
       * How long after the heal the first call offered after it was acknowledged ({@code
       * Long.MAX_VALUE}: none was).
       */
      long firstSuccessAfterHeal(List<CallRecord> calls) {
        long first = Long.MAX_VALUE;
        for (CallRecord call : calls) {
          if (call.offeredMillis() >= toMillis && call.outcome().equals("OK")) {
            first = Math.min(first, call.offeredMillis() + call.latencyMillis() - toMillis);
          }
        }
        return first;
      }
    }

    private record Stats(long ok, int longestOutage, double failureEquivalent) {}

    /**
     * One row: the calls offered from {@code fromMillis} to {@code toMillis}, and the longest
     * outage among the seconds that begin in that span.
     */
    private static Stats printRow(
        String name,
        long fromMillis,
        long toMillis,
        List<CallRecord> calls,
        TreeMap<Long, long[]> seconds,
        double rate) {
      long ok = 0;
      Map<String, Integer> failed = new TreeMap<>();
      Map<String, Integer> retried = new TreeMap<>();
      List<Long> latencies = new ArrayList<>();
      for (CallRecord call : calls) {
        if (call.outcome().equals("OK")) {
          ok++;
          latencies.add(call.latencyMillis());
        } else {
          failed.merge(call.outcome(), 1, Integer::sum);
        }
        for (String attempt : call.attemptFailures()) {
          retried.merge(attempt.substring(attempt.indexOf(':') + 1), 1, Integer::sum);
        }
      }
      int longest = 0;
      int run = 0;
      long previous = Long.MIN_VALUE;
      for (Map.Entry<Long, long[]> second :
          seconds.subMap((fromMillis + 999) / 1000, true, (toMillis - 1) / 1000, true).entrySet()) {
        if (second.getKey() != previous + 1) {
          run = 0;
        }
        previous = second.getKey();
        run = second.getValue()[1] == 0 ? run + 1 : 0;
        longest = Math.max(longest, run);
      }
      latencies.sort(null);
      long failures = calls.size() - ok;
      double failureEquivalent = failures / rate;
      System.out.printf(
          Locale.ROOT,
          "| %s | %.0f | %d | %d | %s | %s | %d s | %.1f s | %s |%n",
          name,
          (toMillis - fromMillis) / 1000.0,
          calls.size(),
          ok,
          summary(failed),
          summary(retried),
          longest,
          failureEquivalent,
          latencies.isEmpty()
              ? "-"
              : percentile(latencies, 0.99) + " / " + latencies.get(latencies.size() - 1) + " ms");
      return new Stats(ok, longest, failureEquivalent);
    }

    private static String summary(Map<String, Integer> counts) {
      if (counts.isEmpty()) {
        return "0";
      }
      return counts.entrySet().stream()
          .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
          .map(entry -> entry.getKey() + " " + entry.getValue())
          .collect(Collectors.joining(", "));
    }

    private static long percentile(List<Long> sorted, double p) {
      int index = (int) Math.ceil(p * sorted.size()) - 1;
      return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
    }

    private static int intOf(Map<String, String> values, String key) {
      return Integer.parseInt(values.getOrDefault(key, "0"));
    }
  }

  // ---------------------------------------------------------------- plumbing

  private static void writeLine(
      BufferedWriter out,
      long index,
      long offeredNanos,
      long latencyNanos,
      String outcome,
      int replica,
      List<String> attemptFailures) {
    write(
        out,
        index
            + "\t"
            + TimeUnit.NANOSECONDS.toMillis(offeredNanos)
            + "\t"
            + (latencyNanos < 0 ? -1 : TimeUnit.NANOSECONDS.toMillis(latencyNanos))
            + "\t"
            + outcome
            + "\t"
            + replica
            + "\t"
            + String.join(",", attemptFailures)
            + "\n");
  }

  private static void write(BufferedWriter out, String text) {
    try {
      out.write(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static SocketAddress address(String target) {
    int colon = target.lastIndexOf(':');
    return SocketAddress.inetSocketAddress(
        Integer.parseInt(target.substring(colon + 1)), target.substring(0, colon));
  }

  /** {@code --key value} pairs. */
  private record Options(Map<String, String> values) {
    static Options parse(String[] args) {
      Map<String, String> values = new HashMap<>();
      for (int i = 0; i + 1 < args.length; i += 2) {
        values.put(args[i].replaceFirst("^--", ""), args[i + 1]);
      }
      return new Options(values);
    }

    String get(String key) {
      String value = values.get(key);
      if (value == null) {
        throw new IllegalArgumentException("missing --" + key);
      }
      return value;
    }

    String getOrDefault(String key, String fallback) {
      return values.getOrDefault(key, fallback);
    }

    boolean containsKey(String key) {
      return values.containsKey(key);
    }
  }
}
