package org.vfps.error;

/** Why a request failed, in the vocabulary of gRPC status codes that every edge maps from. */
public enum ErrorCode {
  INVALID_ARGUMENT,
  OUT_OF_RANGE,
  NOT_FOUND,
  /**
   * The pseudonym exists, but its original value was withdrawn (anonymized) and is known no more:
   * gRPC {@code NOT_FOUND} (REST 404), FHIR 410 {@code deleted}.
   */
  WITHDRAWN,
  ALREADY_EXISTS,
  /**
   * The request is well formed but the system is not in a state to run it: a generation method this
   * deployment does not offer, a namespace that still has children.
   */
  FAILED_PRECONDITION,
  /**
   * The original value does not match its namespace's validation regex: gRPC {@code
   * INVALID_ARGUMENT}, HTTP 400, FHIR 422 {@code business-rule}, as the .NET vfps answers it.
   */
  PATTERN_MISMATCH,
  /** The request carried no credentials, or credentials that are not valid. */
  UNAUTHENTICATED,
  /** The caller is authenticated but lacks the permission the operation needs. */
  PERMISSION_DENIED,
  /** A limit is reached: the namespace has no free pseudonym left. */
  RESOURCE_EXHAUSTED,
  /**
   * The replica is at its bound of work in flight and refused the request without starting it; the
   * same request may succeed a moment later. gRPC answers {@code RESOURCE_EXHAUSTED}, HTTP 503 with
   * {@code Retry-After}.
   */
  OVERLOADED,
  /** The call's deadline passed before its work was done; its work may or may not be stored. */
  DEADLINE_EXCEEDED,
  /** The database cannot be reached right now; the same request may succeed later. */
  UNAVAILABLE,
  /** A bug or an unexpected database state; logged with its cause where it is mapped. */
  INTERNAL
}
