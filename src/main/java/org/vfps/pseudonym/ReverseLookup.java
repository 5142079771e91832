package org.vfps.pseudonym;

import java.util.Optional;
import org.vfps.access.Audit;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/**
 * What a batch of reverse lookups made of one pseudonym value: the pseudonym stored under it
 * (withdrawn or not), none, or the refusal of the value on its own, which was then not looked up.
 *
 * @param pseudonym the pseudonym found; null when none was, or when the value was refused
 * @param refusal why the value was not looked up, null when it was: {@code INVALID_ARGUMENT} for a
 *     mistyped pseudonym (its check digit does not match), with {@code namespace}, {@code
 *     pseudonym} and the value's {@code index} in the metadata
 */
public record ReverseLookup(Pseudonym pseudonym, ServiceException refusal) {

  /** The pseudonym found, withdrawn or not; empty when none was or the value was refused. */
  public Optional<Pseudonym> found() {
    return Optional.ofNullable(pseudonym);
  }

  /**
   * The outcome for the audit trail: {@code OK}, {@code WITHDRAWN}, {@code NOT_FOUND} or the
   * refusal's code.
   */
  String auditOutcome() {
    if (refusal != null) {
      return refusal.code().name();
    }
    if (pseudonym == null) {
      return ErrorCode.NOT_FOUND.name();
    }
    return pseudonym.withdrawn() ? ErrorCode.WITHDRAWN.name() : Audit.OK;
  }
}
