package org.vfps.pseudonym;

import java.time.Instant;

/**
 * A stored pseudonym.
 *
 * @param originalValue null where the contract does not return it (list pages)
 * @param sequenceNumber which of the original value's pseudonyms it is, from 0 in creation order; 0
 *     in a namespace that allows one pseudonym per original value
 */
public record Pseudonym(
    String namespace,
    String originalValue,
    String pseudonymValue,
    Instant createdAt,
    Instant lastUpdatedAt,
    long sequenceNumber) {}
