package org.vfps.server;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.vfps.auth.ServerTls;
import org.vfps.config.AuthorizationConfig;
import org.vfps.config.ConnectionConfig;
import org.vfps.config.VfpsConfig;
import org.vfps.connection.ConnectionLimits;
import org.vfps.fhir.FhirModel;
import org.vfps.fhir.FhirOperations;
import org.vfps.grpc.CallObserver;
import org.vfps.grpc.GrpcApiVerticle;
import org.vfps.http.ApiContract;
import org.vfps.http.HttpApiVerticle;
import org.vfps.rpc.ApiMethods;
import org.vfps.rpc.ApiService;
import org.vfps.storage.Database;
import org.vfps.tracing.Tracing;
import org.vfps.ui.UiRoutes;

/**
 * The listeners, one after the other: metrics, gRPC, then HTTP (REST, FHIR, probes, docs, the admin
 * UI), each gRPC and HTTP one per event loop.
 */
final class ApiListeners {

  private ApiListeners() {}

  /** The listeners, once they listen; the metrics port is 0 when metrics are off. */
  record Listening(List<GrpcApiVerticle> grpc, List<HttpApiVerticle> http, int metricsPort) {}

  /** Readiness, which gRPC health and {@code /readyz} report: up once started, down on stopping. */
  record Lifecycle(Promise<Void> startup, Promise<Void> stopping) {}

  /** What the API listeners (gRPC, HTTP) are built from. */
  record Edges(
      VfpsConfig config,
      Vertx vertx,
      ServerTls tls,
      Services services,
      Lifecycle lifecycle,
      HttpFoundations foundations) {}

  /**
   * The REST contract and HAPI's model, whose loading takes most of a second of CPU each. They load
   * from Vert.x's start on, beside the database's first connection, and the listeners open once
   * they are loaded: on two cores, loading them once gRPC served made its first clients wait up to
   * several times as long as later ones.
   */
  record HttpFoundations(Future<ApiContract> contract, Future<FhirModel> fhir) {

    /** Starts loading both. */
    static HttpFoundations load(Vertx vertx) {
      BuildInfo build = BuildInfo.current();
      return new HttpFoundations(
          ApiContract.load(vertx, build.version(), build.revision()), FhirModel.load(vertx));
    }

    /**
     * Waits, at most ten seconds, until both have loaded or failed: a start that fails meanwhile
     * closes Vert.x only then, since a worker that ends after its event loop has stopped cannot
     * hand over its result (Vert.x logs that as an error).
     */
    void settle() throws TimeoutException {
      Future.join(contract, fhir).<Void>mapEmpty().otherwiseEmpty().await(10, TimeUnit.SECONDS);
    }

    /** What the HTTP listener serves besides the services, once both are loaded. */
    Future<HttpParts> parts(Services services) {
      return Future.all(contract, fhir)
          .map(
              both ->
                  new HttpParts(
                      contract.result(),
                      fhir.result().operations(services.pseudonyms(), services.warnings())));
    }
  }

  /** What the HTTP listener serves besides the services. */
  private record HttpParts(ApiContract contract, FhirOperations fhir) {}

  /**
   * Starts the listeners, metrics, gRPC, then HTTP, once the HTTP foundations are loaded and the
   * authenticator has {@linkplain org.vfps.auth.Authenticator#started() started}.
   */
  static Future<Listening> listen(Edges edges, MeterHooks meters, Tracing tracing) {
    Services services = edges.services();
    // one table for both edges and all their instances: it holds no state of its own
    List<ApiService> api =
        ApiMethods.of(
            services.namespaces(),
            services.pseudonyms(),
            services.accessAdmin(),
            services.csvJobs());
    Future<HttpParts> parts =
        edges
            .foundations()
            .parts(services)
            .compose(loaded -> services.authenticator().started().map(loaded));
    Future<Integer> metricsPort =
        parts.compose(loaded -> meters.listen(edges.vertx(), edges.config(), services.database()));
    Future<List<GrpcApiVerticle>> grpc =
        metricsPort.compose(
            port -> listenGrpc(edges, api, Instrumentation.callObserver(meters, tracing)));
    Future<List<HttpApiVerticle>> http =
        grpc.compose(serving -> listenHttp(edges, api, parts.result()));
    return Future.all(metricsPort, grpc, http)
        .map(all -> new Listening(grpc.result(), http.result(), metricsPort.result()));
  }

  private static Future<List<GrpcApiVerticle>> listenGrpc(
      Edges edges, List<ApiService> api, CallObserver observer) {
    Lifecycle lifecycle = edges.lifecycle();
    Database database = edges.services().database();
    // ready as /readyz: started (HTTP up too), not stopping, bearer tokens checkable, database up
    Supplier<Future<Boolean>> ready =
        () ->
            lifecycle.startup().future().succeeded()
                    && !lifecycle.stopping().future().isComplete()
                    && edges.services().authenticator().ready()
                ? database.healthy()
                : Future.succeededFuture(false);
    int port = edges.config().server().grpcPort();
    return Listeners.deploy(
        edges.vertx(),
        "gRPC",
        "Grpc__Port",
        port,
        Stream.generate(() -> grpcVerticle(edges, api, ready, observer))
            .limit(Listeners.PER_EVENT_LOOP)
            .toList());
  }

  private static GrpcApiVerticle grpcVerticle(
      Edges edges, List<ApiService> api, Supplier<Future<Boolean>> ready, CallObserver observer) {
    VfpsConfig config = edges.config();
    Services services = edges.services();
    return new GrpcApiVerticle(
        new GrpcApiVerticle.Dependencies(
            config.server().grpcPort(),
            config.server().grpcReflectionEnabled(),
            api,
            ready,
            observer,
            edges.tls(),
            services.authenticator(),
            grpcConnections(config.connections()),
            services.admission(),
            services.warnings()));
  }

  private static Future<List<HttpApiVerticle>> listenHttp(
      Edges edges, List<ApiService> api, HttpParts parts) {
    HttpApiVerticle.Dependencies http = httpDependencies(edges, api, parts);
    return Listeners.deploy(
        edges.vertx(),
        "HTTP",
        "Http__Port",
        edges.config().server().httpPort(),
        Stream.generate(() -> new HttpApiVerticle(http)).limit(Listeners.PER_EVENT_LOOP).toList());
  }

  private static HttpApiVerticle.Dependencies httpDependencies(
      Edges edges, List<ApiService> api, HttpParts parts) {
    VfpsConfig config = edges.config();
    Services services = edges.services();
    Lifecycle lifecycle = edges.lifecycle();
    return new HttpApiVerticle.Dependencies(
        config.server().httpPort(),
        config.server().httpMaxRequestBodyBytes(),
        parts.contract(),
        api,
        parts.fhir(),
        lifecycle.startup().future(),
        lifecycle.stopping().future(),
        services.database()::healthy,
        edges.tls(),
        services.authenticator(),
        uiRoutes(config, services)::mount,
        httpConnections(config.connections()),
        services.admission(),
        config.admission().httpRequestTimeout(),
        services.warnings());
  }

  private static UiRoutes uiRoutes(VfpsConfig config, Services services) {
    AuthorizationConfig authorization = config.authorization();
    return new UiRoutes(
        new UiRoutes.Dependencies(
            BuildInfo.current().version(),
            BuildInfo.current().revision(),
            config.server().httpMaxRequestBodyBytes(),
            authorization.enabled(),
            services.authenticator().signIn(),
            services.permissions(),
            services.namespaces(),
            new UiRoutes.AccessTokenSettings(
                authorization.accessTokens().enabled(),
                authorization.accessTokens().defaultLifetime(),
                authorization.accessTokens().maximumLifetime()),
            ServiceWiring.generationSupport(config),
            services.csvJobs().transferOrigin(),
            config.server().trustedProxies()::trusts));
  }

  private static ConnectionLimits httpConnections(ConnectionConfig config) {
    return new ConnectionLimits(
        config.httpRequestHeadersTimeout(),
        config.httpIdleTimeout(),
        Duration.ZERO,
        Duration.ZERO,
        Duration.ZERO);
  }

  private static ConnectionLimits grpcConnections(ConnectionConfig config) {
    return new ConnectionLimits(
        config.grpcRequestHeadersTimeout(),
        config.grpcMaxConnectionIdle(),
        config.grpcKeepAliveTime(),
        config.grpcKeepAliveTimeout(),
        config.grpcMaxConnectionAge());
  }
}
