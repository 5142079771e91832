package org.vfps.fhir;

import java.util.Optional;
import org.vfps.pseudonym.Withdrawal;

/**
 * One request of a FHIR operation, read and checked: what the domain is asked to do with which
 * values, and how the operation words its answer. The same call runs alone, in a batch Bundle or in
 * a transaction Bundle.
 *
 * @param value the original value (every kind but {@link Kind#REVERSE_LOOKUP}) or the pseudonym
 *     ({@link Kind#REVERSE_LOOKUP})
 * @param count how many new pseudonyms {@link Kind#ADD} makes, from 1 to {@link
 *     org.vfps.pseudonym.PseudonymService#MAX_COUNT}; 1 for the other kinds
 */
record PseudonymCall(Kind kind, String namespace, String value, int count, CallReply reply) {

  /** A call of any kind but {@link Kind#ADD}. */
  PseudonymCall(Kind kind, String namespace, String value, CallReply reply) {
    this(kind, namespace, value, 1, reply);
  }

  /** What the domain does. */
  enum Kind {
    /** Create or get the pseudonym of an original value (write). */
    CREATE,
    /** Get the pseudonym of an original value without creating one (write). */
    FIND,
    /**
     * As {@link #FIND}, with the checks of the 1.22 {@code Resolve}: the namespace's regex, and the
     * pseudonym of sequence number 0.
     */
    RESOLVE,
    /** Get every stored pseudonym of an original value, creating none (write). */
    FIND_ALL,
    /**
     * Give an original value {@code count} pseudonyms more than it has, answering only those
     * (write; a namespace that allows multiple pseudonyms per value, unless the value has none
     * yet).
     */
    ADD,
    /** Get the original value of a pseudonym (reverse lookup, audited). */
    REVERSE_LOOKUP,
    /** Delete every pseudonym of an original value (consent withdrawn, audited). */
    DELETE,
    /** Anonymize an original value, its pseudonyms kept (consent withdrawn, audited). */
    ANONYMIZE;

    /** The withdrawal the kind asks for; none for the kinds that withdraw nothing. */
    Optional<Withdrawal> withdrawal() {
      return switch (this) {
        case DELETE -> Optional.of(Withdrawal.DELETE);
        case ANONYMIZE -> Optional.of(Withdrawal.ANONYMIZE);
        default -> Optional.empty();
      };
    }
  }
}
