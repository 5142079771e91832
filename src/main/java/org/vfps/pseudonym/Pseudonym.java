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
    Instant lastUpdatedAt) {

  /** This pseudonym without its original value, as list pages carry it. */
  public Pseudonym withoutOriginalValue() {
    return new Pseudonym(namespace, null, pseudonymValue, createdAt, lastUpdatedAt);
  }
}
