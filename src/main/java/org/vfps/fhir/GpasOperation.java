package org.vfps.fhir;

import org.vfps.access.Operation;

/**
 * The operations of the gPAS TTP-FHIR gateway dialect under {@code /ttp-fhir/fhir/gpas}: the five
 * of the gateway's implementation guide, which take many values, and the two older shapes the FHIR
 * pseudonymizer sends to gPAS before 1.10.3, which take one.
 */
enum GpasOperation implements ListedOperation {
  /** Create or get, {@code original} 1..*. */
  PSEUDONYMIZE_ALLOW_CREATE(
      "pseudonymizeAllowCreate",
      GpasOperation.GPAS + "pseudonymizeAllowCreate",
      PseudonymCall.Kind.CREATE,
      "original",
      Operation.PSEUDONYM_BATCH_CREATE,
      false),
  /** Get only, {@code original} 1..*; an original value without a pseudonym is not created. */
  PSEUDONYMIZE(
      "pseudonymize",
      GpasOperation.GPAS + "pseudonymize",
      PseudonymCall.Kind.FIND,
      "original",
      Operation.PSEUDONYM_FIND,
      false),
  /** The reverse lookup, {@code pseudonym} 1..*. */
  DE_PSEUDONYMIZE(
      "dePseudonymize",
      GpasOperation.GPAS + "dePseudonymize",
      PseudonymCall.Kind.REVERSE_LOOKUP,
      "pseudonym",
      Operation.PSEUDONYM_BATCH_GET,
      false),
  /** Deletes every pseudonym of each {@code original}, 1..* (consent withdrawn). */
  DELETE_PSEUDONYMS(
      "deletePseudonyms",
      GpasOperation.GPAS + "deletePseudonyms",
      PseudonymCall.Kind.DELETE,
      "original",
      Operation.PSEUDONYM_BATCH_DELETE,
      false),
  /** Anonymizes each {@code original}, 1..*, its pseudonyms kept (consent withdrawn). */
  ANONYMIZE_ORIGINALS(
      "anonymizeOriginals",
      GpasOperation.GPAS + "anonymizeOriginals",
      PseudonymCall.Kind.ANONYMIZE,
      "original",
      Operation.PSEUDONYM_BATCH_ANONYMIZE,
      false),
  /**
   * gPAS before 1.10.3: {@code GET ?domain=&original=} (before 1.10.2), answered with a parameter
   * named after the original value; {@code POST} with {@code target} and {@code original} (1.10.2),
   * answered with {@code pseudonym-result-set}.
   */
  LEGACY_PSEUDONYMIZE_ALLOW_CREATE(
      "pseudonymize-allow-create",
      "urn:vfps:OperationDefinition:gpas-pseudonymize-allow-create",
      PseudonymCall.Kind.CREATE,
      "original",
      Operation.PSEUDONYM_CREATE,
      true),
  /** gPAS before 1.10.3: the reverse lookup in the same two shapes. */
  LEGACY_DE_PSEUDONYMIZE(
      "de-pseudonymize",
      "urn:vfps:OperationDefinition:gpas-de-pseudonymize",
      PseudonymCall.Kind.REVERSE_LOOKUP,
      "pseudonym",
      Operation.PSEUDONYM_GET,
      true);

  /** Where the gateway's OperationDefinitions live. */
  private static final String GPAS = "https://ths-greifswald.de/fhir/OperationDefinition/gpas/";

  private final Listing listing;
  private final PseudonymCall.Kind kind;
  private final String valueName;
  private final boolean legacy;

  GpasOperation(
      String code,
      String definition,
      PseudonymCall.Kind kind,
      String valueName,
      Operation access,
      boolean legacy) {
    this.listing = new Listing(code, definition, access);
    this.kind = kind;
    this.valueName = valueName;
    this.legacy = legacy;
  }

  @Override
  public Listing listing() {
    return listing;
  }

  PseudonymCall.Kind kind() {
    return kind;
  }

  /** The parameter that holds the values: {@code original} or {@code pseudonym}. */
  String valueName() {
    return valueName;
  }

  /** Whether it is an older shape, which takes one value. */
  boolean legacy() {
    return legacy;
  }

  /** The operation named {@code code} (without {@code $}). */
  static GpasOperation named(String code) {
    for (GpasOperation operation : values()) {
      if (operation.code().equals(code)) {
        return operation;
      }
    }
    throw new IllegalArgumentException("no such gPAS operation: " + code);
  }
}
