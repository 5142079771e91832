package org.vfps.cache;

import io.vertx.core.Future;
import java.util.List;

/**
 * The database's log of the {@link Invalidation}s every replica must apply: the way a change
 * reaches a replica that the cluster's event bus did not reach. The transaction of each change
 * appends its entry, so that no committed change lacks one.
 */
public interface InvalidationLog {

  /**
   * The newest generation, and the entries after {@code generation} in their order, at most {@code
   * limit} of them; entries older than the log keeps may be gone, which the caller tells from a
   * count that does not reach the newest generation. Fails when the database cannot be read.
   */
  Future<Entries> after(long generation, int limit);

  /** The newest generation, and entries after the one asked for. */
  record Entries(long newest, List<Invalidation> entries) {

    public Entries {
      entries = List.copyOf(entries);
    }

    /** Whether the entries are every one up to the newest, none left out or pruned. */
    public boolean complete(long after) {
      return newest - after == entries.size();
    }
  }
}
