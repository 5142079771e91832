package org.vfps.pseudonym;

import io.vertx.core.Future;
import java.util.List;
import java.util.Optional;

/**
 * Where pseudonyms are stored. Futures fail with {@link org.vfps.error.ServiceException}: {@code
 * UNAVAILABLE} while the database cannot be reached, {@code INTERNAL} otherwise.
 */
public interface PseudonymRepository {

  /**
   * Returns the stored pseudonym of (namespace, original value), storing a candidate first if there
   * is none. Idempotent: every call for the same pair yields the same stored row, also under
   * concurrency. A candidate already used by another original value of the namespace is replaced by
   * the next one from {@code candidates}, until the namespace is (almost) full. The future
   * completes only after the row is committed. Fails with {@code NOT_FOUND} if the namespace does
   * not exist (or was deleted meanwhile), {@code RESOURCE_EXHAUSTED} if it has no free pseudonym
   * left.
   */
  Future<Pseudonym> upsert(String namespace, String originalValue, Candidates candidates);

  /** The pseudonym with that value in the namespace, with its original value. */
  Future<Optional<Pseudonym>> findByValue(String namespace, String pseudonymValue);

  /**
   * Up to {@code limit} pseudonyms of the namespace after {@code after} (from the start when
   * empty), newest first, without original values.
   */
  Future<List<PageRow>> list(String namespace, int limit, Optional<ListCursor> after);

  /** How many pseudonyms the namespace has. */
  Future<Long> count(String namespace);

  /** A list row: the pseudonym to return and the cursor that points after it. */
  record PageRow(Pseudonym pseudonym, ListCursor cursor) {}
}
