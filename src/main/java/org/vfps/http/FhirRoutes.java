package org.vfps.http;

import io.vertx.core.Future;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import java.util.Map;
import java.util.function.Function;
import org.vfps.fhir.FhirOperations;
import org.vfps.fhir.FhirReply;

/**
 * The FHIR operations on their routes of the contract, unvalidated by it: they read their own
 * content types and answer with their own bodies, failures included, never through {@link
 * HttpErrors}: those of {@code /v1/fhir} and of the gPAS dialect under {@code /ttp-fhir/fhir/gpas}.
 * The operations authenticate their caller through {@link Authentication}, by the {@code
 * Authorization} header only (the admin UI's session cookie is no credential here, so that no link
 * on another site can make a signed-in browser call them); the CapabilityStatements are open.
 */
final class FhirRoutes {

  /** The contract's operation ids of the whole-system operations of {@code /v1/fhir}. */
  private static final Map<String, String> OPERATIONS =
      Map.of(
          "Fhir_CreatePseudonym", "create-pseudonym",
          "Fhir_ResolvePseudonym", "resolve-pseudonym",
          "Fhir_Pseudonymize", "pseudonymize",
          "Fhir_GetPseudonym", "get-pseudonym",
          "Fhir_PseudonymizeMultiple", "pseudonymize-multiple",
          "Fhir_DePseudonymize", "de-pseudonymize",
          "Fhir_DeletePseudonym", "delete-pseudonym",
          "Fhir_AnonymizeOriginal", "anonymize-original");

  /** The contract's operation ids of the gPAS dialect's {@code POST} operations. */
  private static final Map<String, String> GPAS_OPERATIONS =
      Map.of(
          "Gpas_PseudonymizeAllowCreate", "pseudonymizeAllowCreate",
          "Gpas_Pseudonymize", "pseudonymize",
          "Gpas_DePseudonymize", "dePseudonymize",
          "Gpas_DeletePseudonyms", "deletePseudonyms",
          "Gpas_AnonymizeOriginals", "anonymizeOriginals",
          "Gpas_LegacyPseudonymizeAllowCreate", "pseudonymize-allow-create",
          "Gpas_LegacyDePseudonymize", "de-pseudonymize");

  /** The contract's operation ids of the older gPAS {@code GET} shapes. */
  private static final Map<String, String> GPAS_QUERIES =
      Map.of(
          "Gpas_LegacyPseudonymizeAllowCreateQuery", "pseudonymize-allow-create",
          "Gpas_LegacyDePseudonymizeQuery", "de-pseudonymize");

  /** The longest operation name of an unrouted request that its reply repeats. */
  private static final int MAX_ECHOED_OPERATION = 64;

  private final FhirOperations fhir;
  private final Authentication authentication;

  FhirRoutes(FhirOperations fhir, Authentication authentication) {
    this.fhir = fhir;
    this.authentication = authentication;
  }

  void bind(RouterBuilder builder) {
    OPERATIONS.forEach(
        (operationId, code) ->
            on(
                builder,
                operationId,
                rc -> fhir.operation(code, callers(rc), contentType(rc), rc.body().buffer())));
    on(builder, "Fhir_Bundle", rc -> fhir.bundle(callers(rc), contentType(rc), rc.body().buffer()));
    on(
        builder,
        "Fhir_Metadata",
        rc -> Future.succeededFuture(fhir.metadata(rc.request().getParam("_elements"))));
    GPAS_OPERATIONS.forEach(
        (operationId, code) ->
            on(
                builder,
                operationId,
                rc -> fhir.gpas(code, callers(rc), contentType(rc), rc.body().buffer())));
    GPAS_QUERIES.forEach(
        (operationId, code) ->
            on(builder, operationId, rc -> fhir.gpasQuery(code, callers(rc), rc.queryParams())));
    on(
        builder,
        "Gpas_Metadata",
        rc -> Future.succeededFuture(fhir.gpasMetadata(rc.request().getParam("_elements"))));
  }

  private void on(
      RouterBuilder builder,
      String operationId,
      Function<RoutingContext, Future<FhirReply>> operation) {
    builder
        .getRoute(operationId)
        .setDoValidation(false)
        .addHandler(
            rc -> operation.apply(rc).onSuccess(reply -> send(rc, reply)).onFailure(rc::fail))
        .addFailureHandler(this::routerFailure);
  }

  /**
   * Answers a request that no route took (404), or not by its method (405), with an {@code
   * OperationOutcome} when its path lies under a FHIR base ({@code /v1/fhir}, or anything under
   * {@code /ttp-fhir/}); returns whether it did. The 405's {@code Allow} header is set already.
   */
  boolean answerUnrouted(RoutingContext rc) {
    String path = rc.normalizedPath();
    boolean gpas = path.startsWith("/ttp-fhir/");
    if (!gpas && !path.equals(FhirOperations.BASE) && !path.startsWith(FhirOperations.BASE + "/")) {
      return false;
    }
    String last = path.substring(path.lastIndexOf('/') + 1);
    // the client's own text, echoed only when it is short and plainly an operation's name
    String operation =
        last.startsWith("$") && last.length() <= MAX_ECHOED_OPERATION && isPrintableAscii(last)
            ? last
            : null;
    send(
        rc,
        fhir.unrouted(
            rc.statusCode(),
            gpas,
            rc.request().method().name(),
            operation,
            rc.response().headers().get(HttpHeaders.ALLOW)));
    return true;
  }

  private static boolean isPrintableAscii(String text) {
    return text.chars().allMatch(c -> c > 0x20 && c < 0x7F);
  }

  private FhirOperations.Callers callers(RoutingContext rc) {
    return operation -> authentication.caller(rc, operation);
  }

  private static String contentType(RoutingContext rc) {
    return rc.request().getHeader(HttpHeaders.CONTENT_TYPE);
  }

  /** A body over the limit, or anything else that failed before or inside the operation. */
  private void routerFailure(RoutingContext rc) {
    send(rc, fhir.routerFailure(rc.statusCode(), rc.failure()));
  }

  private static void send(RoutingContext rc, FhirReply reply) {
    if (RequestAdmission.answered(rc)) {
      return;
    }
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
