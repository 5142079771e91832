package org.vfps.config;

import java.time.Duration;

/**
 * Admission control ({@code Admission__*}): the bounds of one replica's work in flight, beyond
 * which new work is refused at once.
 *
 * @param maxConcurrentRequests gRPC calls and HTTP requests in flight at once, the probes and gRPC
 *     health not counted ({@code MaxConcurrentRequests})
 * @param maxQueuedWrites values waiting in the write coalescers for their upsert statement ({@code
 *     MaxQueuedWrites})
 * @param maxReplyBytes bytes held at once by the replies a replica builds whole in memory before it
 *     sends them: the gRPC {@code NamespaceService/GetAll}, and every reply with pseudonyms looked
 *     up (gRPC and REST Get and BatchGet, the FHIR lookups) ({@code MaxReplyBytes})
 * @param httpRequestTimeout the deadline of a REST or FHIR request, from the moment its body is in
 *     ({@code Http__RequestTimeout}); zero for none
 */
public record AdmissionConfig(
    int maxConcurrentRequests,
    int maxQueuedWrites,
    int maxReplyBytes,
    Duration httpRequestTimeout) {

  public AdmissionConfig {
    if (maxConcurrentRequests < 1) {
      throw new IllegalArgumentException(
          "maxConcurrentRequests must be positive: " + maxConcurrentRequests);
    }
    if (maxQueuedWrites < 1) {
      throw new IllegalArgumentException("maxQueuedWrites must be positive: " + maxQueuedWrites);
    }
    if (httpRequestTimeout.isNegative()) {
      throw new IllegalArgumentException("httpRequestTimeout is negative: " + httpRequestTimeout);
    }
    if (maxReplyBytes < 1) {
      throw new IllegalArgumentException("maxReplyBytes must be positive: " + maxReplyBytes);
    }
  }
}
