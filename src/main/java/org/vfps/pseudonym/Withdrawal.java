package org.vfps.pseudonym;

import org.vfps.access.Operation;

/**
 * What a consent withdrawal does to an original value's pseudonyms (see {@link
 * PseudonymService#withdraw}).
 */
public enum Withdrawal {
  /**
   * Every pseudonym of the value is deleted: data released under them can no longer be linked to
   * the person, and a new Create of the value makes a new pseudonym.
   */
  DELETE(Operation.PSEUDONYM_DELETE, Operation.PSEUDONYM_BATCH_DELETE),
  /**
   * The stored original value is replaced by an {@link AnonymizedOriginals anonymized} one: the
   * pseudonyms stay (listed, counted, released data keep their links), a reverse lookup answers
   * {@code WITHDRAWN}, and a new Create of the value makes a new pseudonym.
   */
  ANONYMIZE(Operation.PSEUDONYM_ANONYMIZE, Operation.PSEUDONYM_BATCH_ANONYMIZE);

  private final Operation single;
  private final Operation batch;

  Withdrawal(Operation single, Operation batch) {
    this.single = single;
    this.batch = batch;
  }

  /** The operation of one value, as the audit trail names it. */
  public Operation single() {
    return single;
  }

  /** The operation of many values of one namespace. */
  public Operation batch() {
    return batch;
  }
}
