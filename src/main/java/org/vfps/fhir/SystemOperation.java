package org.vfps.fhir;

import java.util.Arrays;
import java.util.Optional;
import java.util.function.Function;
import org.hl7.fhir.r4.model.Parameters;
import org.vfps.access.Operation;

/**
 * The whole-system operations of the base {@code /v1/fhir} that take one {@code Parameters}
 * resource, alone or as the entries of a batch or transaction Bundle: the .NET service's {@code
 * $create-pseudonym} and {@code $resolve-pseudonym}, and the MII interface module's six.
 */
enum SystemOperation implements ListedOperation {
  CREATE_PSEUDONYM(
      DotnetOperations.CREATE_PSEUDONYM,
      "urn:vfps:OperationDefinition:create-pseudonym",
      DotnetOperations::createPseudonym,
      Operation.PSEUDONYM_CREATE),
  RESOLVE_PSEUDONYM(
      DotnetOperations.RESOLVE_PSEUDONYM,
      "urn:vfps:OperationDefinition:resolve-pseudonym",
      DotnetOperations::resolvePseudonym,
      Operation.PSEUDONYM_RESOLVE),
  PSEUDONYMIZE(
      MiiOperations.PSEUDONYMIZE,
      SystemOperation.MII + "Pseudonymize",
      MiiOperations::pseudonymize,
      Operation.PSEUDONYM_CREATE),
  GET_PSEUDONYM(
      MiiOperations.GET_PSEUDONYM,
      SystemOperation.MII + "GetPseudonym",
      MiiOperations::getPseudonym,
      Operation.PSEUDONYM_FIND),
  PSEUDONYMIZE_MULTIPLE(
      MiiOperations.PSEUDONYMIZE_MULTIPLE,
      SystemOperation.MII + "PseudonymizeMultiple",
      MiiOperations::pseudonymizeMultiple,
      Operation.PSEUDONYM_CREATE),
  DE_PSEUDONYMIZE(
      MiiOperations.DE_PSEUDONYMIZE,
      SystemOperation.MII + "DePseudonymize",
      MiiOperations::dePseudonymize,
      Operation.PSEUDONYM_GET),
  DELETE_PSEUDONYM(
      MiiOperations.DELETE_PSEUDONYM,
      SystemOperation.MII + "DeletePseudonym",
      MiiOperations::deletePseudonym,
      Operation.PSEUDONYM_DELETE),
  ANONYMIZE_ORIGINAL(
      MiiOperations.ANONYMIZE_ORIGINAL,
      SystemOperation.MII + "AnonymizeOriginal",
      MiiOperations::anonymizeOriginal,
      Operation.PSEUDONYM_ANONYMIZE);

  /** Where the MII interface module's OperationDefinitions live (its canonical URL). */
  private static final String MII =
      "https://www.medizininformatik-initiative.de/fhir/ext/mii-interface-module-pseudonymization"
          + "/OperationDefinition/";

  private final Listing listing;
  private final Function<Parameters, PseudonymCall> reader;

  SystemOperation(
      String code,
      String definition,
      Function<Parameters, PseudonymCall> reader,
      Operation access) {
    this.listing = new Listing(code, definition, access);
    this.reader = reader;
  }

  @Override
  public Listing listing() {
    return listing;
  }

  /** Reads a request; a {@link RefusedFhirRequest} when it is not one of this operation. */
  PseudonymCall read(Parameters parameters) {
    return reader.apply(parameters);
  }

  /** The operation named {@code code} (without {@code $}). */
  static Optional<SystemOperation> named(String code) {
    return Arrays.stream(values()).filter(operation -> operation.code().equals(code)).findFirst();
  }
}
