package org.vfps.access;

import io.vertx.core.Future;
import java.time.Instant;

/**
 * The admin UI's sessions that were signed out before their time, kept where every replica reads
 * them, so that a copy of a signed-out session's cookie is refused everywhere. Failures are {@code
 * ServiceException}s ({@code UNAVAILABLE} when the database cannot be reached). Thread-safe.
 */
public interface EndedSessions {

  /**
   * Records that the session {@code id} has ended, until {@code keptUntil} (when it would have
   * ended anyway), and forgets the sessions whose time was up before {@code now}. Idempotent.
   */
  Future<Void> end(String id, Instant keptUntil, Instant now);

  /** Whether the session {@code id} has been ended. */
  Future<Boolean> ended(String id);
}
