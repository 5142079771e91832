package org.vfps.fhir;

import org.vfps.access.Operation;

/**
 * An operation of a FHIR base's table ({@link SystemOperation}, {@link GpasOperation}): what the
 * CapabilityStatement lists of it and what it asks of the domain, held once in its {@link Listing}.
 */
interface ListedOperation extends CapabilityStatements.Listed {

  /** The operation's name, definition and access. */
  Listing listing();

  @Override
  default String code() {
    return listing().code();
  }

  @Override
  default String definition() {
    return listing().definition();
  }

  /** What the operation asks of the domain, for the authentication's audit line. */
  default Operation access() {
    return listing().access();
  }

  /**
   * An operation's name and definition, as the CapabilityStatement lists them, and its access.
   *
   * @param code the operation's name without {@code $}
   * @param definition the canonical URL of its OperationDefinition
   * @param access what it asks of the domain
   */
  record Listing(String code, String definition, Operation access) {}
}
