import com.google.protobuf.Timestamp;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.grpc.server.GrpcProtocol;
import io.vertx.grpc.server.GrpcServer;
import io.vertx.grpc.server.GrpcServerOptions;
import org.vfps.api.v1.Meta;
import org.vfps.api.v1.Pseudonym;
import org.vfps.api.v1.PseudonymServiceCreateResponse;
import org.vfps.api.v1.PseudonymServiceGrpcService;

/**
 * The framework's floor for loadtest/benchmark.sh: a bare vertx-grpc server that answers
 * vfps.api.v1.PseudonymService/Create with a canned reply of the size of the service's (namespace
 * "bench", a 32-character original value and pseudonym, two timestamps), set up as the service sets
 * up its gRPC listener (one server per event loop, transcoding off). Run from source against the
 * jar: java -cp target/vfps.jar loadtest/FloorServer.java PORT
 */
public class FloorServer {

  public static void main(String[] args) {
    int port = Integer.parseInt(args[0]);
    Timestamp now = Timestamp.newBuilder().setSeconds(1_780_000_000L).setNanos(123_456_000).build();
    PseudonymServiceCreateResponse reply =
        PseudonymServiceCreateResponse.newBuilder()
            .setPseudonym(
                Pseudonym.newBuilder()
                    .setMeta(Meta.newBuilder().setCreatedAt(now).setLastUpdatedAt(now))
                    .setNamespace("bench")
                    .setOriginalValue("x".repeat(32))
                    .setPseudonymValue("p".repeat(32)))
            .build();
    Vertx vertx = Vertx.vertx();
    vertx
        .deployVerticle(
            () ->
                new VerticleBase() {
                  @Override
                  public Future<?> start() {
                    GrpcServer grpc =
                        GrpcServer.server(
                            vertx,
                            new GrpcServerOptions().removeEnabledProtocol(GrpcProtocol.TRANSCODING));
                    grpc.callHandler(
                        PseudonymServiceGrpcService.Create,
                        call -> call.last().onSuccess(request -> call.response().end(reply)));
                    return vertx
                        .createHttpServer(new HttpServerOptions().setPort(port).setHost("0.0.0.0"))
                        .requestHandler(grpc)
                        .listen();
                  }
                },
            new DeploymentOptions().setInstances(VertxOptions.DEFAULT_EVENT_LOOP_POOL_SIZE))
        .await();
    System.out.println("floor server listening on port " + port);
  }
}
