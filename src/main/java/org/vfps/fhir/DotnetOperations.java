package org.vfps.fhir;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.hl7.fhir.r4.model.OperationOutcome.IssueType;
import org.hl7.fhir.r4.model.Parameters;
import org.hl7.fhir.r4.model.Parameters.ParametersParameterComponent;
import org.hl7.fhir.r4.model.StringType;
import org.vfps.log.EdgeWarnings;
import org.vfps.pseudonym.Pseudonym;

/**
 * The .NET service's operations: {@code $create-pseudonym} and {@code $resolve-pseudonym} (since
 * 1.22), each with the {@code valueString} parameters {@code namespace} and {@code originalValue}
 * in, the same plus {@code pseudonymValue} out, failures with issue code {@code processing} as the
 * .NET service words them ({@code business-rule}, 422, for a value the namespace's regex refuses).
 * Always {@code 200}, also for a new pair in a batch-response: the .NET operation knows no {@code
 * 201}. {@code $resolve-pseudonym} creates nothing, and answers 404 {@code not-found} for a value
 * without a pseudonym.
 */
final class DotnetOperations {

  /** The operations' names, as FHIR clients call them. */
  static final String CREATE_PSEUDONYM = "create-pseudonym";

  static final String RESOLVE_PSEUDONYM = "resolve-pseudonym";

  private DotnetOperations() {}

  /** Reads a {@code $create-pseudonym}; a {@link RefusedFhirRequest} when it is not one. */
  static PseudonymCall createPseudonym(Parameters parameters) {
    return read(parameters, PseudonymCall.Kind.CREATE, CREATE_PSEUDONYM);
  }

  /** Reads a {@code $resolve-pseudonym}; a {@link RefusedFhirRequest} when it is not one. */
  static PseudonymCall resolvePseudonym(Parameters parameters) {
    return read(parameters, PseudonymCall.Kind.RESOLVE, RESOLVE_PSEUDONYM);
  }

  /**
   * Reads the call; a {@link RefusedFhirRequest} with the .NET checks' message when it is not one.
   */
  private static PseudonymCall read(Parameters parameters, PseudonymCall.Kind kind, String name) {
    Optional<String> namespace = stringParameter(parameters, "namespace");
    Optional<String> originalValue = stringParameter(parameters, "originalValue");
    Optional<String> missing = missing(parameters, namespace, originalValue);
    if (missing.isPresent()) {
      throw new RefusedFhirRequest(400, IssueType.PROCESSING, missing.get(), null);
    }
    return new PseudonymCall(
        kind,
        namespace.get(),
        originalValue.get(),
        new Reply(name, namespace.get(), originalValue.get()));
  }

  private record Reply(String operation, String namespace, String originalValue)
      implements CallReply {

    @Override
    public Parameters success(Pseudonym pseudonym) {
      Parameters reply = new Parameters();
      reply.addParameter().setName("namespace").setValue(new StringType(namespace));
      reply.addParameter().setName("originalValue").setValue(new StringType(originalValue));
      reply
          .addParameter()
          .setName("pseudonymValue")
          .setValue(new StringType(pseudonym.pseudonymValue()));
      return reply;
    }

    /** Only a {@code $resolve-pseudonym} finds a value without a pseudonym. */
    @Override
    public Answer unknownValue() {
      return FhirErrors.notFound(
          "the namespace '" + namespace + "' holds no pseudonym for the requested original value.",
          null);
    }

    @Override
    public Answer failure(Throwable failure, EdgeWarnings warnings) {
      return FhirErrors.fail("$" + operation, failure, warnings);
    }
  }

  /** The .NET checks: each parameter present once as a string, the original value not blank. */
  private static Optional<String> missing(
      Parameters parameters, Optional<String> namespace, Optional<String> originalValue) {
    List<String> problems = new ArrayList<>();
    for (String name : List.of("namespace", "originalValue")) {
      if (count(parameters, name) > 1) {
        problems.add("the parameter '" + name + "' must be given once");
      }
    }
    if (namespace.isEmpty() && count(parameters, "namespace") <= 1) {
      problems.add(absentOrMistyped(parameters, "namespace"));
    }
    if (originalValue.isEmpty()) {
      if (count(parameters, "originalValue") <= 1) {
        problems.add(absentOrMistyped(parameters, "originalValue"));
      }
    } else if (originalValue.get().isBlank()) {
      problems.add("the parameter 'originalValue' is blank");
    }
    return problems.isEmpty()
        ? Optional.empty()
        : Optional.of("Invalid request: " + String.join("; ", problems) + ".");
  }

  /**
   * Why the one parameter of that name gave no string: missing (the .NET words), or given with
   * another type, which is named beside the one expected.
   */
  private static String absentOrMistyped(Parameters parameters, String name) {
    return parameters.getParameter().stream()
        .filter(parameter -> name.equals(parameter.getName()))
        .findFirst()
        .map(
            given ->
                "the parameter '"
                    + name
                    + "' has the wrong type: it must be a valueString, not "
                    + ParameterReader.given(given))
        .orElse("the parameter '" + name + "' (valueString) is missing");
  }

  /** The string value of the one parameter of that name; empty when absent or not a string. */
  private static Optional<String> stringParameter(Parameters parameters, String name) {
    if (count(parameters, name) != 1) {
      return Optional.empty();
    }
    return parameters.getParameter().stream()
        .filter(parameter -> name.equals(parameter.getName()))
        .map(ParametersParameterComponent::getValue)
        .filter(value -> value instanceof StringType string && string.getValue() != null)
        .map(value -> ((StringType) value).getValue())
        .findFirst();
  }

  private static long count(Parameters parameters, String name) {
    return parameters.getParameter().stream()
        .filter(parameter -> name.equals(parameter.getName()))
        .count();
  }
}
