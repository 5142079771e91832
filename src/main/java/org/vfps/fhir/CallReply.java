package org.vfps.fhir;

import java.util.List;
import org.hl7.fhir.r4.model.Parameters;
import org.vfps.log.EdgeWarnings;
import org.vfps.pseudonym.Pseudonym;

/** How one operation words the answers to a {@link PseudonymCall}. */
interface CallReply {

  /** The operation's {@code Parameters} for the pseudonym found or created. */
  Parameters success(Pseudonym pseudonym);

  /**
   * The operation's {@code Parameters} for several pseudonyms of one original value ({@code
   * FIND_ALL}, {@code ADD}), by sequence number; only the replies of such operations give one.
   */
  default Parameters successes(List<Pseudonym> pseudonyms) {
    throw new IllegalStateException("this operation answers one pseudonym");
  }

  /**
   * The answer when the value is unknown: an original value without a pseudonym ({@code FIND},
   * {@code FIND_ALL}) or a value that is no pseudonym ({@code REVERSE_LOOKUP}).
   */
  Answer unknownValue();

  /** The answer to a failed domain call; an {@code UNAVAILABLE} one is told to {@code warnings}. */
  Answer failure(Throwable failure, EdgeWarnings warnings);

  /**
   * The answer when the value was withdrawn ({@code DELETE}, {@code ANONYMIZE}); only the replies
   * of withdrawing operations give one.
   */
  default Answer withdrawn() {
    throw new IllegalStateException("this operation withdraws nothing");
  }

  /** Whether a new pair is {@code 201 Created} in a batch-response (else {@code 200}). */
  default boolean createdIs201() {
    return false;
  }
}
