package org.vfps.access;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * A row of {@code namespace_access_grants}: permissions on one namespace, or on every namespace,
 * for one grantee.
 *
 * @param namespace the namespace; null for every namespace, those created later included
 * @param grantee a role, a lower-cased e-mail address or a service account's name
 */
public record Grant(
    UUID id,
    String namespace,
    GranteeType granteeType,
    String grantee,
    boolean canRead,
    boolean canWrite,
    boolean canReverseLookup,
    Instant createdAt,
    Instant lastUpdatedAt) {

  public Grant {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(granteeType, "granteeType");
    Objects.requireNonNull(grantee, "grantee");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(lastUpdatedAt, "lastUpdatedAt");
  }

  /** Whether it grants every namespace. */
  public boolean allNamespaces() {
    return namespace == null;
  }
}
