import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.net.SocketAddress;
import io.vertx.grpc.client.GrpcClient;
import io.vertx.grpc.client.GrpcClientOptions;
import io.vertx.grpc.client.InvalidStatusException;
import io.vertx.grpc.common.GrpcStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.vfps.api.v1.NamespaceServiceClient;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceDeleteRequest;
import org.vfps.api.v1.NamespaceServiceGetRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.PseudonymGenerationMethod;
import org.vfps.api.v1.PseudonymServiceClient;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceGrpcClient;

/**
 * Namespace delete/re-create cycles across replicas, for loadtest/rehearsal.sh: cycle i creates
 * the namespace through replica i % n with settings of its own (a pseudonym length that changes
 * from cycle to cycle), creates a pseudonym through every replica (each must have the new length:
 * an old one was served from a deleted namespace), deletes it through replica (i + 1) % n and then
 * asks every replica for the namespace and for a pseudonym in it (each must answer NOT_FOUND).
 * An answer that still finds them after the Delete returned is a stale read; a replica that does
 * not answer (killed, restarting, a timeout) is counted apart. Prints key=value lines; exits 1 on any stale read.
 *
 * <p>java -cp target/vfps.jar loadtest/CyclesClient.java --targets 127.0.0.1:38181,127.0.0.1:38281
 * --namespace cycles --cycles 1000
 */
public class CyclesClient {

  private final List<NamespaceServiceClient> namespaces = new ArrayList<>();
  private final List<PseudonymServiceClient> pseudonyms = new ArrayList<>();
  private final String namespace;
  private int staleReads;
  private int readsAfterDelete;
  private int unreachable;
  private int failedCycles;

  CyclesClient(Vertx vertx, List<String> targets, String namespace) {
    GrpcClient grpc =
        GrpcClient.client(
            vertx,
            new GrpcClientOptions()
                .setTimeout(10)
                .setTimeoutUnit(TimeUnit.SECONDS)
                .setScheduleDeadlineAutomatically(true),
            new HttpClientOptions()
                .setProtocolVersion(HttpVersion.HTTP_2)
                .setHttp2ClearTextUpgrade(false)
                .setConnectTimeout(2000));
    for (String target : targets) {
      String[] hostPort = target.split(":");
      SocketAddress address =
          SocketAddress.inetSocketAddress(Integer.parseInt(hostPort[1]), hostPort[0]);
      namespaces.add(NamespaceServiceGrpcClient.create(grpc, address));
      pseudonyms.add(PseudonymServiceGrpcClient.create(grpc, address));
    }
    this.namespace = namespace;
  }

  public static void main(String[] args) {
    Map<String, String> options = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    }
    Vertx vertx = Vertx.vertx();
    int exit;
    try {
      CyclesClient client =
          new CyclesClient(
              vertx,
              List.of(options.get("targets").split(",")),
              options.getOrDefault("namespace", "cycles"));
      exit = client.run(Integer.parseInt(options.getOrDefault("cycles", "1000")));
    } finally {
      vertx.close().await();
    }
    System.exit(exit);
  }

  private int run(int cycles) {
    long started = System.nanoTime();
    for (int cycle = 0; cycle < cycles; cycle++) {
      if (!cycle(cycle)) {
        failedCycles++;
      }
    }
    System.out.println("cycles=" + cycles);
    System.out.println("failed_cycles=" + failedCycles);
    System.out.println("reads_after_delete=" + readsAfterDelete);
    System.out.println("stale_reads=" + staleReads);
    System.out.println("answers_without_a_reply=" + unreachable);
    System.out.printf("seconds=%.1f%n", (System.nanoTime() - started) / 1e9);
    return staleReads == 0 ? 0 : 1;
  }

  /** One cycle; false when a create or delete did not go through (a replica was away). */
  private boolean cycle(int cycle) {
    int n = namespaces.size();
    int length = 10 + cycle % 17;
    GrpcStatus created =
        status(
            namespaces
                .get(cycle % n)
                .create(
                    NamespaceServiceCreateRequest.newBuilder()
                        .setName(namespace)
                        .setPseudonymGenerationMethod(
                            PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_FULL_RANDOM_HEX_ENCODED)
                        .setPseudonymLength(length)
                        .build()));
    if (created == GrpcStatus.ALREADY_EXISTS) {
      // a delete of an earlier cycle did not go through: clear up and start the cycle again
      status(namespaces.get(cycle % n).delete(delete()));
      return false;
    }
    if (created != GrpcStatus.OK) {
      return false;
    }
    for (int k = 0; k < n; k++) {
      Future<String> value =
          pseudonyms
              .get(k)
              .create(create())
              .map(response -> response.getPseudonym().getPseudonymValue());
      GrpcStatus answer = status(value);
      if (answer == GrpcStatus.OK && value.result().length() != length) {
        // the pseudonym of a namespace deleted in an earlier cycle, served from a cache
        staleReads++;
      }
    }
    if (status(namespaces.get((cycle + 1) % n).delete(delete())) != GrpcStatus.OK) {
      return false;
    }
    for (int k = 0; k < n; k++) {
      for (GrpcStatus answer :
          List.of(
              status(pseudonyms.get(k).create(create())),
              status(
                  namespaces
                      .get(k)
                      .get(NamespaceServiceGetRequest.newBuilder().setName(namespace).build())))) {
        if (answer == GrpcStatus.OK) {
          staleReads++;
        } else if (answer != GrpcStatus.NOT_FOUND) {
          unreachable++;
          continue;
        }
        readsAfterDelete++;
      }
    }
    return true;
  }

  private NamespaceServiceDeleteRequest delete() {
    return NamespaceServiceDeleteRequest.newBuilder().setName(namespace).build();
  }

  private PseudonymServiceCreateRequest create() {
    return PseudonymServiceCreateRequest.newBuilder()
        .setNamespace(namespace)
        .setOriginalValue("warm")
        .build();
  }

  /** Waits for the call; its gRPC status, UNAVAILABLE when the replica could not be reached. */
  private static GrpcStatus status(Future<?> call) {
    try {
      call.await();
      return GrpcStatus.OK;
    } catch (InvalidStatusException e) {
      return e.actualStatus();
    } catch (Exception e) {
      // await() rethrows what failed the call, checked exceptions included (connection refused)
      return GrpcStatus.UNAVAILABLE;
    }
  }
}
