package org.vfps.pseudonym;

import java.time.Instant;

/**
 * A stored pseudonym.
 *
 * @param originalValue null where the contract does not return it (list pages), and for a withdrawn
 *     one
 * @param sequenceNumber which of the original value's pseudonyms it is, from 0 in creation order; 0
 *     in a namespace that allows one pseudonym per original value
 * @param withdrawn whether its original value was anonymized (see {@link AnonymizedOriginals}): the
 *     pseudonym stays, but no original value belongs to it any more
 */
public record Pseudonym(
    String namespace,
    String originalValue,
    String pseudonymValue,
    Instant createdAt,
    Instant lastUpdatedAt,
    long sequenceNumber,
    boolean withdrawn) {

  /** A pseudonym whose original value was not withdrawn. */
  public Pseudonym(
      String namespace,
      String originalValue,
      String pseudonymValue,
      Instant createdAt,
      Instant lastUpdatedAt,
      long sequenceNumber) {
    this(namespace, originalValue, pseudonymValue, createdAt, lastUpdatedAt, sequenceNumber, false);
  }

  /** This pseudonym, answered for {@code value} (a stored key's value, another spelling). */
  public Pseudonym withOriginalValue(String value) {
    return new Pseudonym(
        namespace, value, pseudonymValue, createdAt, lastUpdatedAt, sequenceNumber, withdrawn);
  }
}
