package org.vfps.pseudonym;

import java.time.Instant;

/**
 * A stored pseudonym.
 *
 * @param originalValue null where the contract does not return it (list pages)
 */
public record Pseudonym(
    String namespace,
    String originalValue,
    String pseudonymValue,
    Instant createdAt,
    Instant lastUpdatedAt) {}
