package org.vfps.http;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.healthchecks.HealthChecks;
import io.vertx.ext.healthchecks.Status;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.healthchecks.HealthCheckHandler;
import java.util.function.Supplier;
import org.vfps.auth.Authenticator;

/**
 * The probes: {@code /livez} (the event loop answers), {@code /readyz} (start-up is finished, no
 * shutdown has begun, PostgreSQL answers and, when authorization is on, bearer tokens can be
 * checked) and {@code /healthz} (every check). Each answers 200 when all its checks are up and 503
 * otherwise, with a JSON body naming every check, and is never cached.
 */
final class Probes {

  // longer than the database check takes (it answers within 2 s by itself), so that a slow
  // database is DOWN (503), never a timed-out procedure, which the handler would answer with 500
  private static final long PROCEDURE_TIMEOUT_MILLIS = 3_000;

  private final Handler<Promise<Status>> process;
  private final Handler<Promise<Status>> startup;
  private final Handler<Promise<Status>> shutdown;
  private final Handler<Promise<Status>> database;
  private final Handler<Promise<Status>> authorization;

  /**
   * @param startup completes when start-up is finished
   * @param stopping completes when the shutdown begins
   * @param databaseHealthy whether PostgreSQL answers, within 2 s and never failing; the same check
   *     as gRPC health's
   * @param authenticator whether its keys are loaded is the {@code authorization} check, present
   *     when authorization is on
   */
  Probes(
      Future<?> startup,
      Future<?> stopping,
      Supplier<Future<Boolean>> databaseHealthy,
      Authenticator authenticator) {
    this.authorization =
        authenticator.enabled()
            ? promise ->
                promise.complete(
                    authenticator.ready()
                        ? Status.OK()
                        : Status.KO(
                            new JsonObject()
                                .put("reason", "the OIDC provider's signing keys are not loaded")))
            : null;
    this.process = promise -> promise.complete(Status.OK());
    this.startup =
        promise ->
            promise.complete(
                startup.succeeded()
                    ? Status.OK()
                    : Status.KO(new JsonObject().put("reason", "start-up is not finished")));
    this.shutdown =
        promise ->
            promise.complete(
                stopping.isComplete()
                    ? Status.KO(new JsonObject().put("reason", "shutting down"))
                    : Status.OK());
    this.database =
        promise ->
            databaseHealthy
                .get()
                .onComplete(
                    answered ->
                        promise.complete(
                            answered.succeeded() && answered.result()
                                ? Status.OK()
                                : Status.KO(
                                    new JsonObject().put("reason", "PostgreSQL does not answer"))));
  }

  void mount(Vertx vertx, Router router) {
    mount(
        router,
        "/livez",
        HealthChecks.create(vertx).register("process", PROCEDURE_TIMEOUT_MILLIS, process));
    mount(router, "/readyz", withAuthorization(withReadiness(HealthChecks.create(vertx))));
    mount(
        router,
        "/healthz",
        withAuthorization(
            withReadiness(
                HealthChecks.create(vertx)
                    .register("process", PROCEDURE_TIMEOUT_MILLIS, process))));
  }

  /** {@code checks} with the checks of readiness added: startup, shutdown and the database. */
  private HealthChecks withReadiness(HealthChecks checks) {
    return checks
        .register("startup", PROCEDURE_TIMEOUT_MILLIS, startup)
        .register("shutdown", PROCEDURE_TIMEOUT_MILLIS, shutdown)
        .register("database", PROCEDURE_TIMEOUT_MILLIS, database);
  }

  private HealthChecks withAuthorization(HealthChecks checks) {
    return authorization == null
        ? checks
        : checks.register("authorization", PROCEDURE_TIMEOUT_MILLIS, authorization);
  }

  private static void mount(Router router, String path, HealthChecks checks) {
    router
        .get(path)
        .handler(
            rc -> {
              rc.response().putHeader(HttpHeaders.CACHE_CONTROL, "no-store");
              rc.next();
            })
        .handler(HealthCheckHandler.createWithHealthChecks(checks));
  }
}
