package org.vfps.fhir;

/**
 * What a FHIR operation answers: an HTTP status and a resource in FHIR JSON, sent as {@link
 * #CONTENT_TYPE}.
 *
 * @param retryAfterSeconds the {@code Retry-After} header's value; 0 for none
 */
public record FhirReply(int status, String body, int retryAfterSeconds) {

  /** The content type of every FHIR reply, errors included. */
  public static final String CONTENT_TYPE = "application/fhir+json; charset=utf-8";

  /** A reply without {@code Retry-After}. */
  public FhirReply(int status, String body) {
    this(status, body, 0);
  }
}
