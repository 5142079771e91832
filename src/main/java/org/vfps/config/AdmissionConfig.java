package org.vfps.config;

import java.time.Duration;

/**
 * Admission control ({@code Admission__*}): the bounds of one replica's work in flight, in total
 * and per caller, beyond which new work is refused at once.
 *
 * @param maxConcurrentRequests gRPC calls and HTTP requests in flight at once, the probes and gRPC
 *     health not counted ({@code MaxConcurrentRequests})
 * @param maxConcurrentRequestsPerCaller of them, those of one caller at most, from 1 to {@code
 *     maxConcurrentRequests} ({@code MaxConcurrentRequestsPerCaller}; by default a quarter of them)
 * @param maxOpenStreamsPerCaller {@code CreateStream} calls of one caller open at once, from 1 to
 *     {@code maxConcurrentRequestsPerCaller} ({@code MaxOpenStreamsPerCaller}; by default a quarter
 *     of them)
 * @param streamIdleTimeout a stream that sends no request and reads no reply for this long is
 *     closed ({@code StreamIdleTimeout}); zero for never
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
    int maxConcurrentRequestsPerCaller,
    int maxOpenStreamsPerCaller,
    Duration streamIdleTimeout,
    int maxQueuedWrites,
    int maxReplyBytes,
    Duration httpRequestTimeout) {

  public AdmissionConfig {
    if (maxConcurrentRequests < 1) {
      throw new IllegalArgumentException(
          "maxConcurrentRequests must be positive: " + maxConcurrentRequests);
    }
    if (maxConcurrentRequestsPerCaller < 1
        || maxConcurrentRequestsPerCaller > maxConcurrentRequests) {
      throw new IllegalArgumentException(
          "maxConcurrentRequestsPerCaller must be from 1 to maxConcurrentRequests: "
              + maxConcurrentRequestsPerCaller);
    }
    if (maxOpenStreamsPerCaller < 1 || maxOpenStreamsPerCaller > maxConcurrentRequestsPerCaller) {
      throw new IllegalArgumentException(
          "maxOpenStreamsPerCaller must be from 1 to maxConcurrentRequestsPerCaller: "
              + maxOpenStreamsPerCaller);
    }
    if (streamIdleTimeout.isNegative()) {
      throw new IllegalArgumentException("streamIdleTimeout is negative: " + streamIdleTimeout);
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

  /** The default share of one caller: a quarter of {@code whole}, at least 1. */
  public static int quarterOf(int whole) {
    return Math.max(1, whole / 4);
  }
}
