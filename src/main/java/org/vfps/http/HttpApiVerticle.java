package org.vfps.http;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.vfps.admission.Admission;
import org.vfps.auth.Authenticator;
import org.vfps.auth.ServerTls;
import org.vfps.connection.ConnectionDeadlines;
import org.vfps.connection.ConnectionLimits;
import org.vfps.fhir.FhirOperations;
import org.vfps.log.EdgeWarnings;
import org.vfps.rpc.ApiService;

/**
 * Serves HTTP/1.1 (HTTPS when TLS is on): the REST routes of the contract, the FHIR operations, the
 * probes and the API docs. Deployed once per event loop; the instances share the port.
 */
public final class HttpApiVerticle extends VerticleBase {

  /**
   * What the HTTP listener needs.
   *
   * @param maxRequestBodyBytes larger bodies are answered with 413
   * @param api the API's table, whose methods the REST routes bind (shared by the instances)
   * @param startup completes when the service's start-up is finished (for {@code /readyz})
   * @param databaseHealthy whether PostgreSQL answers
   * @param tls plaintext, or the certificate to listen with
   * @param authenticator the callers of REST and FHIR requests
   * @param adminUi adds the admin UI's routes (under {@code /ui}) to the router
   * @param connections the limits the listener holds its connections to
   * @param admission admits every request with a caller, once the caller is authenticated
   * @param requestTimeout the deadline of each request but the probes ({@code
   *     Http__RequestTimeout}), zero for none
   * @param warnings logs the requests that failed UNAVAILABLE and the malformed ones
   */
  public record Dependencies(
      int port,
      int maxRequestBodyBytes,
      ApiContract contract,
      List<ApiService> api,
      FhirOperations fhir,
      Future<?> startup,
      Future<?> stopping,
      Supplier<Future<Boolean>> databaseHealthy,
      ServerTls tls,
      Authenticator authenticator,
      Consumer<Router> adminUi,
      ConnectionLimits connections,
      Admission admission,
      Duration requestTimeout,
      EdgeWarnings warnings) {}

  private final Dependencies dependencies;
  private HttpServer server;

  public HttpApiVerticle(Dependencies dependencies) {
    this.dependencies = dependencies;
  }

  @Override
  public Future<?> start() {
    RouterBuilder builder =
        RouterBuilder.create(
            vertx,
            dependencies.contract().contract(),
            new JsonRequests(dependencies.contract().contract()));
    builder.rootHandler(BodyHandler.create(false).setBodyLimit(dependencies.maxRequestBodyBytes()));
    // after the body: a request's deadline runs from here; it takes its place once its caller is
    // authenticated
    RequestAdmission admission =
        new RequestAdmission(dependencies.admission(), dependencies.requestTimeout());
    builder.rootHandler(admission);
    Authentication authentication = new Authentication(dependencies.authenticator(), admission);
    builder.rootHandler(authentication::admitSession);
    new RestRoutes(dependencies.api(), authentication).bind(builder);
    FhirRoutes fhirRoutes = new FhirRoutes(dependencies.fhir(), authentication);
    fhirRoutes.bind(builder);
    HttpErrors errors =
        new HttpErrors(dependencies.warnings(), new BodyFields(dependencies.contract().contract()));

    Router router = builder.createRouter();
    CustomMethodRoutes.matchLiterally(router);
    new Probes(
            dependencies.startup(),
            dependencies.stopping(),
            dependencies.databaseHealthy(),
            dependencies.authenticator())
        .mount(vertx, router);
    new ApiDocs(dependencies.contract()).mount(router);
    dependencies.adminUi().accept(router);
    router.route().failureHandler(errors::handle);
    // a path under a FHIR base is answered as FHIR, with an OperationOutcome
    router.errorHandler(
        404,
        rc -> {
          if (!fhirRoutes.answerUnrouted(rc)) {
            errors.handle(rc);
          }
        });
    router.errorHandler(
        405,
        rc -> {
          rc.response()
              .putHeader(HttpHeaders.ALLOW, AllowedMethods.of(router, rc.normalizedPath()));
          if (!fhirRoutes.answerUnrouted(rc)) {
            errors.handle(rc);
          }
        });

    server =
        dependencies
            .tls()
            .createHttpServer(
                vertx,
                new HttpServerOptions()
                    .setPort(dependencies.port())
                    .setHost("0.0.0.0")
                    // HTTP/1.1 only, as the contract says; Vert.x then sees each connection at
                    // once, before its first request, and the connection limits apply from its
                    // first byte
                    .setHttp2ClearTextEnabled(false));
    server.requestHandler(
        ConnectionDeadlines.apply(
            vertx,
            server,
            dependencies.connections(),
            request -> {
              if (!errors.rejectMalformedUri(request)) {
                router.handle(request);
              }
            }));
    return server.listen();
  }

  /**
   * Stops taking connections and shuts the open ones down gracefully (HTTP/1.1: closed after the
   * response in flight); completes when they are closed, at the latest after {@code timeout}.
   */
  public Future<Void> shutdown(Duration timeout) {
    return server.shutdown(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** The port the server listens on (useful when configured as 0). */
  public int actualPort() {
    return server.actualPort();
  }
}
