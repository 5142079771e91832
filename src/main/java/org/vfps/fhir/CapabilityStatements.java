package org.vfps.fhir;

import ca.uhn.fhir.parser.IParser;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.hl7.fhir.r4.model.CapabilityStatement;
import org.hl7.fhir.r4.model.CapabilityStatement.CapabilityStatementKind;
import org.hl7.fhir.r4.model.CapabilityStatement.CapabilityStatementRestComponent;
import org.hl7.fhir.r4.model.CapabilityStatement.RestfulCapabilityMode;
import org.hl7.fhir.r4.model.CapabilityStatement.SystemRestfulInteraction;
import org.hl7.fhir.r4.model.DateTimeType;
import org.hl7.fhir.r4.model.Enumerations.FHIRVersion;
import org.hl7.fhir.r4.model.Enumerations.PublicationStatus;

/**
 * The CapabilityStatements of the two FHIR bases: the .NET service's fields (status, the date now
 * in UTC without a zone, kind, software name, FHIR version, format, {@code rest.mode}) plus every
 * operation the base serves in {@code rest.operation} (name and definition), which clients such as
 * FTS-next check at start, and for {@code /v1/fhir} the {@code batch} and {@code transaction}
 * interactions.
 */
final class CapabilityStatements {

  private static final DateTimeFormatter DATE =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss", Locale.ROOT);

  /**
   * The elements a subset keeps whatever {@code _elements} asks for: the statement's mandatory
   * ones, as FHIR asks of servers.
   */
  private static final List<String> MANDATORY =
      List.of("status", "date", "kind", "fhirVersion", "format", "rest.mode");

  /** An operation as the statement lists it. */
  interface Listed {

    /** The operation's name without {@code $}. */
    String code();

    /** The canonical URL of its OperationDefinition. */
    String definition();
  }

  private CapabilityStatements() {}

  /** The statement of a base that serves these operations and system interactions. */
  static CapabilityStatement of(
      Clock clock, List<? extends Listed> operations, List<SystemRestfulInteraction> interactions) {
    CapabilityStatement statement = new CapabilityStatement();
    statement.setStatus(PublicationStatus.ACTIVE);
    statement.setDateElement(
        new DateTimeType(
            DATE.format(
                LocalDateTime.ofInstant(
                    clock.instant().truncatedTo(ChronoUnit.SECONDS), ZoneOffset.UTC))));
    statement.setKind(CapabilityStatementKind.INSTANCE);
    statement.getSoftware().setName("VFPS FHIR API");
    statement.setFhirVersion(FHIRVersion._4_0_1);
    statement.addFormat("application/fhir+json");
    CapabilityStatementRestComponent rest =
        statement.addRest().setMode(RestfulCapabilityMode.SERVER);
    for (SystemRestfulInteraction interaction : interactions) {
      rest.addInteraction().setCode(interaction);
    }
    for (Listed operation : operations) {
      rest.addOperation().setName(operation.code()).setDefinition(operation.definition());
    }
    return statement;
  }

  /**
   * Has the parser write only the elements a {@code _elements} parameter names (comma-separated
   * paths such as {@code rest.operation}) and the mandatory ones, marked {@code SUBSETTED}; names
   * it does not know are ignored, as is a missing or empty parameter.
   *
   * @param elements the parameter's value, may be null
   */
  static IParser subset(IParser parser, String elements) {
    if (elements == null || elements.isBlank()) {
      return parser;
    }
    Set<String> kept = new LinkedHashSet<>();
    for (String element : elements.split(",")) {
      if (!element.isBlank()) {
        kept.add("CapabilityStatement." + element.strip());
      }
    }
    MANDATORY.forEach(element -> kept.add("CapabilityStatement." + element));
    parser.setEncodeElements(kept);
    return parser;
  }
}
