package org.vfps.grpc;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.reflection.ReflectionService;
import io.vertx.grpc.server.GrpcProtocol;
import io.vertx.grpc.server.GrpcServer;
import io.vertx.grpc.server.GrpcServerOptions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.vfps.access.Operation;
import org.vfps.admission.Admission;
import org.vfps.admission.CallLocals;
import org.vfps.auth.Authenticator;
import org.vfps.auth.ServerTls;
import org.vfps.connection.ConnectionDeadlines;
import org.vfps.connection.ConnectionLimits;
import org.vfps.error.ServiceException;
import org.vfps.log.EdgeWarnings;
import org.vfps.rpc.ApiService;

/**
 * Serves gRPC over cleartext HTTP/2 (h2c), or over TLS with h2 chosen by ALPN when TLS is on (then
 * only TLS): the two vfps services, the access service of this implementation, {@code
 * grpc.health.v1.Health} (serving while the service is ready) and, when enabled, server reflection
 * (with authorization on, for authenticated callers only). Deployed once per event loop; the
 * instances share the port.
 */
public final class GrpcApiVerticle extends VerticleBase {

  /**
   * The stream resets a connection may send in Vert.x's window (30 s) before it is closed, the
   * HTTP/2 rapid-reset guard. Vert.x's default, 200, closes the connection of an honest client
   * whose calls hit their deadlines while the database is away (each cancellation is a reset),
   * failing every other call on it; a rapid-reset attack sends tens of thousands per second.
   */
  static final int MAX_STREAM_RESETS_PER_WINDOW = 10_000;

  /**
   * The largest request message read, in bytes: the default of ASP.NET Core gRPC (which the .NET
   * vfps runs on) and grpc-java. A {@code BatchCreate} of 10,000 values of up to about 400 bytes
   * fits; a larger message is {@code RESOURCE_EXHAUSTED}. Vert.x's own default is 256 KiB.
   */
  public static final long MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

  /** The path prefix of both reflection services' calls (v1 and v1alpha). */
  private static final String REFLECTION_PATH = "/grpc.reflection.";

  /**
   * What the gRPC listener needs.
   *
   * @param reflection whether server reflection is served
   * @param api the API's table, whose methods are bound (shared by the instances)
   * @param ready whether the service is ready, as {@code grpc.health.v1.Health} reports it
   * @param observer told of every call of the vfps services
   * @param tls plaintext, or the certificate to listen with
   * @param authenticator the callers of the calls
   * @param connections the limits the listener holds its connections to
   * @param admission admits the calls of the vfps services (health and reflection are never
   *     refused)
   * @param warnings logs the calls that failed UNAVAILABLE and the malformed ones
   */
  public record Dependencies(
      int port,
      boolean reflection,
      List<ApiService> api,
      Supplier<Future<Boolean>> ready,
      CallObserver observer,
      ServerTls tls,
      Authenticator authenticator,
      ConnectionLimits connections,
      Admission admission,
      EdgeWarnings warnings) {

    public Dependencies {
      api = List.copyOf(api);
    }
  }

  private final Dependencies dependencies;
  private HttpServer server;

  public GrpcApiVerticle(Dependencies dependencies) {
    this.dependencies = dependencies;
  }

  @Override
  public Future<?> start() {
    GrpcServer grpc =
        GrpcServer.server(
            vertx,
            new GrpcServerOptions()
                .removeEnabledProtocol(GrpcProtocol.TRANSCODING)
                .setMaxMessageSize(MAX_MESSAGE_BYTES));
    for (ApiService service : dependencies.api()) {
      grpc.addService(
          BoundService.of(
              service,
              dependencies.observer(),
              dependencies.authenticator(),
              dependencies.admission(),
              dependencies.warnings()));
    }
    grpc.addService(new HealthChecks(vertx, dependencies.ready(), dependencies.warnings()));
    if (dependencies.reflection()) {
      grpc.addService(ReflectionService.v1());
      grpc.addService(new LegacyReflection());
    }
    server =
        dependencies
            .tls()
            .createHttpServer(
                vertx,
                ConnectionDeadlines.options(
                    new HttpServerOptions()
                        .setPort(dependencies.port())
                        .setHost("0.0.0.0")
                        .setUseAlpn(true)
                        .setHttp2RstFloodMaxRstFramePerWindow(MAX_STREAM_RESETS_PER_WINDOW),
                    dependencies.connections()));
    MessageEncodings encodings = new MessageEncodings(grpc, dependencies.warnings());
    server.requestHandler(
        ConnectionDeadlines.apply(
            vertx,
            server,
            dependencies.connections(),
            ReplyFlushes::consolidate,
            request -> {
              CallLocals.watchStreamClose(request.response());
              if (dependencies.reflection()
                  && dependencies.authenticator().enabled()
                  && request.path().startsWith(REFLECTION_PATH)) {
                authenticateReflection(request, encodings);
              } else {
                encodings.handle(request);
              }
            }));
    return server.listen();
  }

  /**
   * Serves a dependencies.reflection() call once its caller is authenticated, as the .NET vfps
   * 1.22.3 asks: any valid credentials will do; without them the call is answered {@code
   * UNAUTHENTICATED} at once.
   */
  private void authenticateReflection(HttpServerRequest request, MessageEncodings encodings) {
    request.pause();
    SocketAddress remote = request.remoteAddress();
    dependencies
        .authenticator()
        .authenticate(
            request.getHeader("authorization"),
            remote == null ? "" : remote.hostAddress(),
            Operation.REFLECTION)
        .onComplete(
            authenticated -> {
              if (authenticated.succeeded()) {
                encodings.handle(request);
                request.resume();
                return;
              }
              Throwable failure = authenticated.cause();
              GrpcStatus status = GrpcErrors.status(failure);
              request
                  .response()
                  .putHeader("content-type", "application/grpc")
                  .putHeader("grpc-status", Integer.toString(status.code))
                  .putHeader(
                      "grpc-message",
                      GrpcErrors.asciiSafe(
                          failure instanceof ServiceException
                              ? failure.getMessage()
                              : "The credentials could not be checked."))
                  .end();
            });
  }

  /**
   * Stops taking dependencies.connections() and shuts the open ones down gracefully (an HTTP/2
   * GOAWAY at once, then the calls in flight finish); completes when they are closed, at the latest
   * after {@code timeout}.
   */
  public Future<Void> shutdown(Duration timeout) {
    return server.shutdown(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** The dependencies.port() the server listens on (useful when configured as 0). */
  public int actualPort() {
    return server.actualPort();
  }
}
