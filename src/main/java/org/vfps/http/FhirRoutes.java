package org.vfps.http;

import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import org.vfps.access.Operation;
import org.vfps.fhir.FhirOperations;
import org.vfps.fhir.FhirReply;

/**
 * The FHIR operations on their routes of the contract, unvalidated by it: they read their own
 * content types and answer with their own bodies, failures included, never through {@link
 * HttpErrors}. {@code $create-pseudonym} needs a caller; {@code metadata} is open.
 */
final class FhirRoutes {

  private final FhirOperations fhir;
  private final Authentication authentication;

  FhirRoutes(FhirOperations fhir, Authentication authentication) {
    this.fhir = fhir;
    this.authentication = authentication;
  }

  void bind(RouterBuilder builder) {
    builder
        .getRoute("Fhir_CreatePseudonym")
        .setDoValidation(false)
        .addHandler(
            rc ->
                authentication
                    .caller(rc.request(), Operation.PSEUDONYM_CREATE)
                    .compose(
                        caller ->
                            fhir.createPseudonym(
                                caller,
                                rc.request().getHeader(HttpHeaders.CONTENT_TYPE),
                                rc.body().buffer()))
                    .onSuccess(reply -> send(rc, reply))
                    .onFailure(rc::fail))
        .addFailureHandler(this::routerFailure);
    builder
        .getRoute("Fhir_Metadata")
        .setDoValidation(false)
        .addHandler(rc -> send(rc, fhir.metadata()))
        .addFailureHandler(this::routerFailure);
  }

  /** A body over the limit, or anything else that failed before or inside the operation. */
  private void routerFailure(RoutingContext rc) {
    send(rc, fhir.routerFailure(rc.statusCode(), rc.failure()));
  }

  private static void send(RoutingContext rc, FhirReply reply) {
    Authentication.challenge(reply.status(), rc.request(), rc.response());
    if (reply.retryAfterSeconds() > 0) {
      rc.response().putHeader(HttpHeaders.RETRY_AFTER, Integer.toString(reply.retryAfterSeconds()));
    }
    rc.response()
        .setStatusCode(reply.status())
        .putHeader(HttpHeaders.CONTENT_TYPE, FhirReply.CONTENT_TYPE)
        .end(reply.body());
  }
}
