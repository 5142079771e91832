package org.vfps.fhir;

import ca.uhn.fhir.parser.IParser;
import org.hl7.fhir.r4.model.OperationOutcome;
import org.hl7.fhir.r4.model.OperationOutcome.IssueSeverity;
import org.hl7.fhir.r4.model.OperationOutcome.IssueType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.admission.Admission;
import org.vfps.error.ServiceException;

/**
 * The one failure mapping of the FHIR edge: every failure becomes an {@code OperationOutcome} with
 * one issue of severity {@code error}, as the .NET service answers (400, 404 and 500 with issue
 * code {@code processing}, 403 {@code forbidden}); 401, 413, 415, 429, 503 and 504 are vfps's own.
 * An overloaded replica's refusal is a 503 {@code throttled} with {@code Retry-After}.
 */
final class FhirErrors {

  private static final Logger LOG = LoggerFactory.getLogger(FhirErrors.class);

  /** The .NET service's diagnostics for a body that is no resource. */
  static final String MALFORMED = "Received malformed or missing resource";

  private FhirErrors() {}

  /** A client error found by the edge itself. */
  static FhirReply reject(IParser parser, int status, IssueType code, String diagnostics) {
    LOG.debug("$create-pseudonym rejected: {} {}", status, code);
    return outcome(parser, status, code, diagnostics);
  }

  /** A failed domain call or an unexpected throwable; unexpected ones are logged here, once. */
  static FhirReply fail(IParser parser, String operation, Throwable failure) {
    if (!(failure instanceof ServiceException service)) {
      LOG.error("{} failed unexpectedly", operation, failure);
      return outcome(parser, 500, IssueType.PROCESSING, "Internal error.");
    }
    return switch (service.code()) {
      case INVALID_ARGUMENT, OUT_OF_RANGE ->
          reject(parser, 400, IssueType.PROCESSING, service.getMessage());
      case NOT_FOUND ->
          reject(
              parser,
              404,
              IssueType.PROCESSING,
              "the namespace '" + service.metadata().get("namespace") + "' could not be found.");
      case ALREADY_EXISTS -> reject(parser, 409, IssueType.DUPLICATE, service.getMessage());
      case UNAUTHENTICATED -> reject(parser, 401, IssueType.LOGIN, service.getMessage());
      case PERMISSION_DENIED -> reject(parser, 403, IssueType.FORBIDDEN, service.getMessage());
      case RESOURCE_EXHAUSTED -> reject(parser, 429, IssueType.BUSINESSRULE, service.getMessage());
      case OVERLOADED -> {
        FhirReply refused = reject(parser, 503, IssueType.THROTTLED, service.getMessage());
        yield new FhirReply(refused.status(), refused.body(), Admission.RETRY_AFTER_SECONDS);
      }
      case DEADLINE_EXCEEDED -> reject(parser, 504, IssueType.TIMEOUT, service.getMessage());
      case UNAVAILABLE -> {
        LOG.warn(
            "{} failed: {} ({})",
            operation,
            service.getMessage(),
            service.getCause() == null
                ? "no cause"
                : service.getCause().getClass().getSimpleName());
        yield outcome(parser, 503, IssueType.TRANSIENT, service.getMessage());
      }
      case INTERNAL -> {
        LOG.error("{} failed: {}", operation, service.getMessage(), service.getCause());
        yield outcome(parser, 500, IssueType.PROCESSING, service.getMessage());
      }
    };
  }

  /** A failure the HTTP router found before the operation ran (a body over the limit). */
  static FhirReply routerFailure(IParser parser, int status, Throwable failure) {
    if (failure instanceof ServiceException) {
      return fail(parser, "FHIR request", failure);
    }
    if (status == 413) {
      return reject(
          parser,
          413,
          IssueType.TOOCOSTLY,
          "The request body is larger than the limit (Http__MaxRequestBodyBytes).");
    }
    if (status >= 400 && status < 500) {
      return reject(parser, status, IssueType.PROCESSING, MALFORMED);
    }
    return fail(parser, "FHIR request", failure == null ? new IllegalStateException() : failure);
  }

  static FhirReply outcome(IParser parser, int status, IssueType code, String diagnostics) {
    OperationOutcome outcome = new OperationOutcome();
    outcome.addIssue().setSeverity(IssueSeverity.ERROR).setCode(code).setDiagnostics(diagnostics);
    return new FhirReply(status, parser.encodeResourceToString(outcome));
  }
}
