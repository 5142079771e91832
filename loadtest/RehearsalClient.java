import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.net.SocketAddress;
import io.vertx.grpc.client.GrpcClient;
import io.vertx.grpc.client.GrpcClientOptions;
import io.vertx.grpc.client.InvalidStatusException;
import io.vertx.grpc.common.GrpcStatus;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.PseudonymGenerationMethod;
import org.vfps.api.v1.PseudonymServiceClient;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceGetRequest;
import org.vfps.api.v1.PseudonymServiceGrpcClient;

/**
 * The load side of {@code loadtest/rehearsal.sh}: sends a bounded number of pseudonym Creates
 * round-robin through every replica, as a client behind a Kubernetes Service would, retries a
 * failed call on the next replica (Create is idempotent), records every acknowledged (original,
 * pseudonym) pair, and afterwards looks each one up again (Get) through the replicas.
 *
 * <p>Run with the service's jar on the class path (it holds the vfps stubs and Vert.x):
 *
 * <pre>
 * java -cp target/vfps.jar loadtest/RehearsalClient.java --targets 127.0.0.1:38181,127.0.0.1:38281 \
 *     --namespace rehearsal --requests 20000 --concurrency 24 --distinct 15000 \
 *     --max-seconds 120 --progress /tmp/progress --acks /tmp/acks.tsv
 * </pre>
 *
 * Prints one {@code key=value} line per figure; exits 0 when every request was acknowledged with a
 * consistent pseudonym and every acknowledgement was found again, 1 otherwise.
 */
public final class RehearsalClient {

  private static final int ATTEMPTS = 3;

  private final Vertx vertx;

  /** Every call is made and answered on this one context, so the counters need no locking. */
  private final Context context;

  private final List<String> targets;
  private final List<PseudonymServiceClient> clients;
  private final String namespace;
  private final int requests;
  private final int concurrency;
  private final int distinct;
  private final long deadlineNanos;

  private int next;
  private int done;
  private volatile int acknowledgedCount;
  private int failedForGood;
  private int retried;
  private int inconsistent;
  private final Map<String, String> acknowledged = new HashMap<>();
  private final List<String[]> acks = new ArrayList<>();
  private final Map<String, Integer> attemptErrors = new TreeMap<>();
  private final long[] okByTarget;
  private final List<Long> latenciesMicros = new ArrayList<>();

  private RehearsalClient(Vertx vertx, Map<String, String> options) {
    this.vertx = vertx;
    this.context = vertx.getOrCreateContext();
    this.targets = Arrays.asList(options.get("targets").split(","));
    this.namespace = options.get("namespace");
    this.requests = Integer.parseInt(options.get("requests"));
    this.concurrency = Integer.parseInt(options.get("concurrency"));
    this.distinct = Integer.parseInt(options.getOrDefault("distinct", options.get("requests")));
    this.deadlineNanos =
        System.nanoTime()
            + TimeUnit.SECONDS.toNanos(Long.parseLong(options.getOrDefault("max-seconds", "120")));
    GrpcClient grpc =
        GrpcClient.client(
            vertx,
            new GrpcClientOptions()
                .setTimeout(5)
                .setTimeoutUnit(TimeUnit.SECONDS)
                .setScheduleDeadlineAutomatically(true),
            new HttpClientOptions()
                .setProtocolVersion(HttpVersion.HTTP_2)
                .setHttp2ClearTextUpgrade(false)
                .setConnectTimeout(2000));
    this.clients = new ArrayList<>();
    for (String target : targets) {
      clients.add(PseudonymServiceGrpcClient.create(grpc, address(target)));
    }
    this.okByTarget = new long[targets.size()];
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> options = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    }
    Vertx vertx = Vertx.vertx();
    int exit;
    try {
      exit = new RehearsalClient(vertx, options).run(options);
    } finally {
      vertx.close().await();
    }
    System.exit(exit);
  }

  private int run(Map<String, String> options) throws Exception {
    createNamespace().await();
    Path progress = Path.of(options.get("progress"));
    long timer =
        vertx.setPeriodic(100, id -> writeQuietly(progress, Integer.toString(acknowledgedCount)));
    long started = System.nanoTime();
    Promise<Void> finished = Promise.promise();
    context.runOnContext(
        v -> {
          for (int i = 0; i < concurrency; i++) {
            sendNext(finished);
          }
        });
    finished.future().await();
    double seconds = (System.nanoTime() - started) / 1e9;
    vertx.cancelTimer(timer);
    writeQuietly(progress, Integer.toString(acks.size()));

    try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(Path.of(options.get("acks"))))) {
      for (String[] ack : acks) {
        out.println(ack[0] + "\t" + ack[1]);
      }
    }

    int[] verify = verifyAll();
    List<Long> sorted = new ArrayList<>(latenciesMicros);
    sorted.sort(null);
    print("requests", requests);
    print("sent", next);
    print("acknowledged", acks.size());
    print("distinct_acknowledged", acknowledged.size());
    print("failed_attempts", attemptErrors.values().stream().mapToInt(Integer::intValue).sum());
    print("failed_attempts_by_kind", attemptErrors);
    print("retried_requests", retried);
    print("failed_requests", failedForGood);
    print("inconsistent_pseudonyms", inconsistent);
    print("ok_by_replica", Arrays.toString(okByTarget));
    print("seconds", String.format("%.1f", seconds));
    print("creates_per_second", String.format("%.0f", acks.size() / seconds));
    print("latency_p50_ms", String.format("%.1f", percentile(sorted, 0.50) / 1000.0));
    print("latency_p99_ms", String.format("%.1f", percentile(sorted, 0.99) / 1000.0));
    print("latency_max_ms", String.format("%.1f", percentile(sorted, 1.0) / 1000.0));
    print("verified_by_get", verify[0]);
    print("lost_by_get", verify[1]);
    boolean ok =
        next == requests
            && failedForGood == 0
            && inconsistent == 0
            && verify[1] == 0
            && verify[0] == acknowledged.size();
    return ok ? 0 : 1;
  }

  private Future<Void> createNamespace() {
    NamespaceServiceGrpcClient namespaces =
        NamespaceServiceGrpcClient.create(GrpcClient.client(vertx), address(targets.get(0)));
    return namespaces
        .create(
            NamespaceServiceCreateRequest.newBuilder()
                .setName(namespace)
                .setPseudonymGenerationMethod(
                    PseudonymGenerationMethod
                        .PSEUDONYM_GENERATION_METHOD_SECURE_RANDOM_BASE64URL_ENCODED)
                .setPseudonymLength(16)
                .setPseudonymPrefix("r-")
                .build())
        .mapEmpty();
  }

  /** Sends the next request of one lane (of {@code concurrency}); runs on {@link #context}. */
  private void sendNext(Promise<Void> finished) {
    if (next >= requests || System.nanoTime() > deadlineNanos) {
      if (done == next) {
        finished.tryComplete();
      }
      return;
    }
    int request = next++;
    String original = "v-" + (request % distinct);
    long sent = System.nanoTime();
    create(original, request % clients.size(), 0)
        .onComplete(
            result -> {
              done++;
              if (result.succeeded()) {
                latenciesMicros.add((System.nanoTime() - sent) / 1000);
                String pseudonym = result.result();
                String earlier = acknowledged.putIfAbsent(original, pseudonym);
                if (earlier != null && !earlier.equals(pseudonym)) {
                  inconsistent++;
                }
                acks.add(new String[] {original, pseudonym});
                acknowledgedCount = acks.size();
              } else {
                failedForGood++;
              }
              sendNext(finished);
            });
  }

  /** Creates through replica {@code target}, then the next ones, on failures worth a retry. */
  private Future<String> create(String original, int target, int attempt) {
    PseudonymServiceCreateRequest request =
        PseudonymServiceCreateRequest.newBuilder()
            .setNamespace(namespace)
            .setOriginalValue(original)
            .build();
    return clients
        .get(target)
        .create(request)
        .map(
            response -> {
              okByTarget[target]++;
              return response.getPseudonym().getPseudonymValue();
            })
        .recover(
            failure -> {
              String kind = kind(failure);
              attemptErrors.merge("replica" + (target + 1) + ":" + kind, 1, Integer::sum);
              if (attempt + 1 < ATTEMPTS && retryable(failure)) {
                if (attempt == 0) {
                  retried++;
                }
                return create(original, (target + 1) % clients.size(), attempt + 1);
              }
              return Future.failedFuture(failure);
            });
  }

  /** Looks every acknowledged pseudonym up again; returns {found, lost}. */
  private int[] verifyAll() {
    ConcurrentHashMap<String, Boolean> lost = new ConcurrentHashMap<>();
    int[] found = {0};
    List<Map.Entry<String, String>> entries = new ArrayList<>(acknowledged.entrySet());
    Promise<Void> finished = Promise.promise();
    int[] cursor = {0, 0};
    Runnable[] lane = new Runnable[1];
    lane[0] =
        () -> {
          if (cursor[0] >= entries.size()) {
            if (cursor[1] == entries.size()) {
              finished.tryComplete();
            }
            return;
          }
          int index = cursor[0]++;
          Map.Entry<String, String> entry = entries.get(index);
          lookup(entry.getValue(), index % clients.size(), 0)
              .onComplete(
                  result -> {
                    cursor[1]++;
                    if (result.succeeded() && entry.getKey().equals(result.result())) {
                      found[0]++;
                    } else {
                      lost.put(entry.getKey(), Boolean.TRUE);
                    }
                    lane[0].run();
                  });
        };
    context.runOnContext(
        v -> {
          if (entries.isEmpty()) {
            finished.tryComplete();
          }
          for (int i = 0; i < concurrency; i++) {
            lane[0].run();
          }
        });
    finished.future().await();
    return new int[] {found[0], lost.size()};
  }

  private Future<String> lookup(String pseudonym, int target, int attempt) {
    return clients
        .get(target)
        .get(
            PseudonymServiceGetRequest.newBuilder()
                .setNamespace(namespace)
                .setPseudonymValue(pseudonym)
                .build())
        .map(response -> response.getPseudonym().getOriginalValue())
        .recover(
            failure ->
                attempt + 1 < clients.size() && retryable(failure)
                    ? lookup(pseudonym, (target + 1) % clients.size(), attempt + 1)
                    : Future.failedFuture(failure));
  }

  private static boolean retryable(Throwable failure) {
    if (failure instanceof InvalidStatusException status) {
      GrpcStatus code = status.actualStatus();
      return code == GrpcStatus.UNAVAILABLE
          || code == GrpcStatus.INTERNAL
          || code == GrpcStatus.DEADLINE_EXCEEDED
          || code == GrpcStatus.CANCELLED;
    }
    return true; // connection refused or reset, stream reset, timeout
  }

  private static String kind(Throwable failure) {
    if (failure instanceof InvalidStatusException status) {
      return status.actualStatus().name();
    }
    return failure.getClass().getSimpleName();
  }

  private static long percentile(List<Long> sorted, double p) {
    if (sorted.isEmpty()) {
      return 0;
    }
    int index = (int) Math.ceil(p * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
  }

  private static SocketAddress address(String target) {
    int colon = target.lastIndexOf(':');
    return SocketAddress.inetSocketAddress(
        Integer.parseInt(target.substring(colon + 1)), target.substring(0, colon));
  }

  private static void print(String key, Object value) {
    System.out.println(key + "=" + value);
  }

  private static void writeQuietly(Path file, String text) {
    try {
      Path partial = file.resolveSibling(file.getFileName() + ".partial");
      Files.writeString(partial, text, StandardCharsets.UTF_8);
      Files.move(partial, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      // progress is advisory; the script falls back to its time bound
    }
  }
}
