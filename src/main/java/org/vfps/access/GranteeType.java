package org.vfps.access;

import java.util.Optional;
import org.vfps.error.ConstantNumbers;

/**
 * Whom a database grant is for, with the number the .NET vfps stores in {@code
 * namespace_access_grants.grantee_type}.
 */
public enum GranteeType {
  /** A role in the caller's role claim, matched case-sensitively. */
  ROLE(0),
  /** A verified e-mail address, stored and matched lower-cased. */
  EMAIL(1),
  /** A service account's name; matches that account's tokens only. */
  SERVICE_ACCOUNT(2);

  private static final ConstantNumbers<GranteeType> STORED =
      new ConstantNumbers<>(values(), GranteeType::stored);

  private final int stored;

  GranteeType(int stored) {
    this.stored = stored;
  }

  /** The number in the database. */
  public int stored() {
    return stored;
  }

  /** The type of a stored number; empty for a number no release writes. */
  public static Optional<GranteeType> ofStored(int stored) {
    return STORED.constantOf(stored);
  }
}
