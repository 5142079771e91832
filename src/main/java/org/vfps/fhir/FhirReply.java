package org.vfps.fhir;

/**
 * What a FHIR operation answers: an HTTP status and a resource in FHIR JSON, sent as {@link
 * #CONTENT_TYPE}.
 */
public record FhirReply(int status, String body) {

  /** The content type of every FHIR reply, errors included. */
  public static final String CONTENT_TYPE = "application/fhir+json; charset=utf-8";
}
