package org.vfps.storage;

import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.namespace.NamespaceCapacity;
import org.vfps.pseudonym.PseudonymFailures;

/**
 * The collision policy of one value's candidates with other values' pseudonyms, and the collisions
 * seen so far. Whether the namespace is full is asked only on this path: after {@value
 * #COUNT_AFTER_COLLISIONS} collisions in a row, the namespace's pseudonyms are counted once in the
 * database (so every replica judges by the same figure); a namespace that is {@linkplain
 * NamespaceCapacity#full() full} is refused at once, and in one that is not, the fuller it is, the
 * more candidates are tried ({@link #candidateLimit}). A run of collisions in a namespace that is
 * not even half full means the candidates are not random: a deterministic method, or a bug, which
 * is {@code INTERNAL}. Used by one upsert at a time.
 */
final class Collisions {

  /** Collisions in a row after which the namespace's pseudonyms are counted. */
  static final int COUNT_AFTER_COLLISIONS = 4;

  /** The most collisions tolerated for one value: a bound on its round trips. */
  static final int MAX_COLLISIONS = 1000;

  private int seen;
  private int limit = COUNT_AFTER_COLLISIONS;
  private NamespaceCapacity capacity;

  /** Notes one more collision. */
  void seenAnother() {
    seen++;
  }

  /** Whether the namespace was counted for this value already. */
  boolean counted() {
    return capacity != null;
  }

  /** Whether another candidate may be tried now. */
  boolean mayTryAnother() {
    return seen < limit;
  }

  /** The namespace holds {@code count} of {@code distinct} possible pseudonyms. */
  void counted(long count, double distinct) {
    capacity = new NamespaceCapacity(distinct, count);
    limit = capacity.full() ? 0 : candidateLimit(count, distinct);
  }

  /**
   * The failure once no more candidates are tried: a full namespace (or one at least half full
   * whose free pseudonyms were not found), or {@code INTERNAL}.
   */
  ServiceException exhausted(String namespace, Throwable lastFailure) {
    return capacity.usedPseudonyms() >= capacity.distinctPseudonyms() / 2
        ? PseudonymFailures.namespaceFull(namespace, capacity)
        : PseudonymRows.upsertFailed(namespace, PgFailures.loggable(lastFailure));
  }

  /**
   * How many collisions to tolerate for one value in a namespace that holds {@code count} of {@code
   * distinct} possible pseudonyms: enough that a free one is found with a probability of 1 - 10^-6
   * (while there is one), at most {@value #MAX_COLLISIONS}; 0 when the namespace is full.
   */
  static int candidateLimit(long count, double distinct) {
    if (count >= distinct) {
      return 0;
    }
    double taken = count / distinct;
    double needed = taken <= 0 ? 0 : Math.ceil(Math.log(1e-6) / Math.log(taken));
    return (int) Math.min(MAX_COLLISIONS, Math.max(COUNT_AFTER_COLLISIONS + 1, needed));
  }

  /**
   * A deterministic method's one pseudonym for a value is another row's. Whose, and so what it
   * means, the caller finds out (see {@link
   * org.vfps.pseudonym.PseudonymRepository#insertIfAbsent}).
   */
  static ServiceException derivedPseudonymTaken(String namespace) {
    return new ServiceException(
        ErrorCode.FAILED_PRECONDITION,
        "The pseudonym the namespace's deterministic method derives for the value belongs to"
            + " another row.",
        PseudonymRows.metadata(namespace));
  }
}
