package org.vfps.cache;

import java.util.Objects;
import java.util.Set;
import org.vfps.error.ConstantNames;

/**
 * One committed change that every replica must apply to its caches, as the database's invalidation
 * log holds it: numbered by its generation, which grows by one with each change in the order the
 * changes were committed.
 *
 * @param namespace the namespace deleted, or whose pseudonyms were withdrawn; null for an access
 *     change
 * @param pseudonymValues the pseudonyms withdrawn; empty for other kinds; unmodifiable
 */
public record Invalidation(
    long generation, Kind kind, String namespace, Set<String> pseudonymValues) {

  /** What changed, as the log's {@code kind} column names it. */
  public enum Kind {
    /** A namespace was deleted, and with it its pseudonyms and grants. */
    NAMESPACE,
    /** Pseudonyms of a namespace were deleted, or their original values anonymized. */
    PSEUDONYMS,
    /** Grants, service accounts or access tokens changed. */
    ACCESS;

    private static final ConstantNames<Kind> STORED = ConstantNames.lowerCase(values());

    /** The name in the log: the constant's name in lower case. */
    public String stored() {
      return STORED.of(this);
    }

    /** The kind of a name in the log. */
    public static Kind of(String stored) {
      return STORED.constantOf(stored, "invalidation kind");
    }
  }

  public Invalidation {
    Objects.requireNonNull(kind, "kind");
    pseudonymValues = Set.copyOf(pseudonymValues);
  }
}
