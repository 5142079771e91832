package org.vfps.fhir;

import org.hl7.fhir.r4.model.Resource;

/**
 * What one operation answers, before it is encoded: an HTTP status and a resource ({@code
 * Parameters} on success, {@code OperationOutcome} on failure).
 *
 * @param created whether the call stored a new pair, which a batch-response shows as {@code 201}
 *     where the operation says so
 */
record Answer(int status, Resource resource, boolean created) {

  /** A success that stored nothing new. */
  static Answer ok(Resource resource) {
    return new Answer(200, resource, false);
  }

  boolean succeeded() {
    return status < 300;
  }
}
