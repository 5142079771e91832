package org.vfps.fhir;

import org.hl7.fhir.r4.model.OperationOutcome;
import org.hl7.fhir.r4.model.OperationOutcome.IssueSeverity;
import org.hl7.fhir.r4.model.OperationOutcome.IssueType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.admission.Admission;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.log.EdgeWarnings;

/**
 * The one failure mapping of the FHIR edge: every failure becomes an {@code OperationOutcome} with
 * one issue of severity {@code error}, as the .NET service answers (400, 404 and 500 with issue
 * code {@code processing}, 403 {@code forbidden}); 401, 413, 415, 429, 503 and 504 are vfps's own.
 * An overloaded replica's refusal is a 503 {@code throttled} with {@code Retry-After}. The dialects
 * word an unknown namespace their own way before they fall back on {@link #fail}.
 */
final class FhirErrors {

  private static final Logger LOG = LoggerFactory.getLogger(FhirErrors.class);

  /** The .NET service's diagnostics for a body that is no resource. */
  static final String MALFORMED = "Received malformed or missing resource";

  private FhirErrors() {}

  /**
   * A failed domain call, a {@link RefusedFhirRequest} or an unexpected throwable, logged by the
   * edges' policy ({@link EdgeWarnings#failed}).
   */
  static Answer fail(String operation, Throwable failure, EdgeWarnings warnings) {
    if (failure instanceof RefusedFhirRequest rejection) {
      warnings.rejected(LOG, operation, Integer.toString(rejection.answer().status()));
      return rejection.answer();
    }
    warnings.failed(LOG, operation, failure);
    if (!(failure instanceof ServiceException service)) {
      return outcome(500, IssueType.PROCESSING, "Internal error.", null);
    }
    return switch (service.code()) {
      case INVALID_ARGUMENT, FAILED_PRECONDITION, OUT_OF_RANGE ->
          outcome(400, IssueType.PROCESSING, service.getMessage(), null);
      case PATTERN_MISMATCH -> outcome(422, IssueType.BUSINESSRULE, service.getMessage(), null);
      case NOT_FOUND ->
          outcome(
              404,
              IssueType.PROCESSING,
              service.metadata().containsKey("pseudonym")
                  ? "the pseudonym could not be found in the namespace '"
                      + service.metadata().get("namespace")
                      + "'."
                  : "the namespace '"
                      + service.metadata().get("namespace")
                      + "' could not be found.",
              null);
      case WITHDRAWN -> outcome(410, IssueType.DELETED, service.getMessage(), null);
      case ALREADY_EXISTS -> outcome(409, IssueType.DUPLICATE, service.getMessage(), null);
      case UNAUTHENTICATED -> outcome(401, IssueType.LOGIN, service.getMessage(), null);
      case PERMISSION_DENIED -> outcome(403, IssueType.FORBIDDEN, service.getMessage(), null);
      case RESOURCE_EXHAUSTED -> outcome(429, IssueType.BUSINESSRULE, service.getMessage(), null);
      case OVERLOADED -> outcome(503, IssueType.THROTTLED, service.getMessage(), null);
      case DEADLINE_EXCEEDED -> outcome(504, IssueType.TIMEOUT, service.getMessage(), null);
      case UNAVAILABLE -> outcome(503, IssueType.TRANSIENT, service.getMessage(), null);
      case INTERNAL -> outcome(500, IssueType.PROCESSING, service.getMessage(), null);
    };
  }

  /**
   * The {@code Retry-After} seconds of an answer: those of {@link Admission} for an overloaded
   * replica's refusal ({@code throttled}), 0 (none) for anything else.
   */
  static int retryAfterSeconds(Answer answer) {
    return answer.resource() instanceof OperationOutcome outcome
            && outcome.hasIssue()
            && outcome.getIssueFirstRep().getCode() == IssueType.THROTTLED
        ? Admission.RETRY_AFTER_SECONDS
        : 0;
  }

  /** Whether the failure is the domain's {@code NOT_FOUND} for a namespace (not for a value). */
  static boolean isUnknownNamespace(Throwable failure) {
    return failure instanceof ServiceException service
        && service.code() == ErrorCode.NOT_FOUND
        && !service.metadata().containsKey("pseudonym");
  }

  /** The namespace a failure names, or an empty string. */
  static String namespaceOf(Throwable failure) {
    return failure instanceof ServiceException service
        ? service.metadata().getOrDefault("namespace", "")
        : "";
  }

  /** A client error: one line through {@link EdgeWarnings#rejected}, and its outcome. */
  static Answer reject(
      String operation, int status, IssueType code, String diagnostics, EdgeWarnings warnings) {
    warnings.rejected(LOG, operation, Integer.toString(status));
    return outcome(status, code, diagnostics, null);
  }

  /** A failure the HTTP router found before the operation ran (a body over the limit). */
  static Answer routerFailure(int status, Throwable failure, EdgeWarnings warnings) {
    if (failure instanceof ServiceException) {
      return fail("FHIR request", failure, warnings);
    }
    if (status == 413) {
      return reject(
          "FHIR request",
          413,
          IssueType.TOOCOSTLY,
          "The request body is larger than the limit (Http__MaxRequestBodyBytes).",
          warnings);
    }
    if (status >= 400 && status < 500) {
      return reject("FHIR request", status, IssueType.PROCESSING, MALFORMED, warnings);
    }
    return fail("FHIR request", failure == null ? new IllegalStateException() : failure, warnings);
  }

  /**
   * A 404 {@code not-found} outcome: what the request names does not exist.
   *
   * @param expression the FHIRPath of the parameter that names it, or null
   */
  static Answer notFound(String diagnostics, String expression) {
    return outcome(404, IssueType.NOTFOUND, diagnostics, expression);
  }

  /**
   * An {@code OperationOutcome} with one error issue.
   *
   * @param expression the FHIRPath of the offending element, or null
   */
  static Answer outcome(int status, IssueType code, String diagnostics, String expression) {
    OperationOutcome outcome = new OperationOutcome();
    OperationOutcome.OperationOutcomeIssueComponent issue =
        outcome
            .addIssue()
            .setSeverity(IssueSeverity.ERROR)
            .setCode(code)
            .setDiagnostics(diagnostics);
    if (expression != null) {
      issue.addExpression(expression);
    }
    return new Answer(status, outcome, false);
  }
}
