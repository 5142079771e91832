package org.vfps.fhir;

import org.hl7.fhir.r4.model.OperationOutcome.IssueType;

/**
 * A request the FHIR edge refuses while reading it, before any domain call: thrown by the readers,
 * answered by {@link FhirErrors#fail} as an {@code OperationOutcome}. Carries no stack trace.
 */
final class RefusedFhirRequest extends RuntimeException {

  private final int status;
  private final IssueType code;
  private final String expression;

  /**
   * @param diagnostics what is wrong, in words a client understands; never an original value
   * @param expression the FHIRPath of the offending element, or null
   */
  RefusedFhirRequest(int status, IssueType code, String diagnostics, String expression) {
    super(diagnostics, null, false, false);
    this.status = status;
    this.code = code;
    this.expression = expression;
  }

  /** A 400 {@code invalid}: a parameter missing, repeated, of the wrong type or malformed. */
  static RefusedFhirRequest invalid(String diagnostics, String expression) {
    return new RefusedFhirRequest(400, IssueType.INVALID, diagnostics, expression);
  }

  Answer answer() {
    return FhirErrors.outcome(status, code, getMessage(), expression);
  }
}
