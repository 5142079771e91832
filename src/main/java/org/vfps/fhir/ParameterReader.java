package org.vfps.fhir;

import java.util.List;
import java.util.Optional;
import org.hl7.fhir.r4.model.BooleanType;
import org.hl7.fhir.r4.model.Identifier;
import org.hl7.fhir.r4.model.IntegerType;
import org.hl7.fhir.r4.model.Parameters;
import org.hl7.fhir.r4.model.Parameters.ParametersParameterComponent;
import org.hl7.fhir.r4.model.PrimitiveType;
import org.hl7.fhir.r4.model.StringType;
import org.hl7.fhir.r4.model.Type;

/**
 * Reads the input parameters of one operation's {@code Parameters} resource by name; a parameter
 * that is missing, repeated where the operation takes one, or of another type is a {@link
 * RefusedFhirRequest} (400 {@code invalid}) naming it (and, for a wrong type, the type expected and
 * the one given). Parameters the operation does not know are ignored. Error messages name
 * parameters, never their values.
 */
final class ParameterReader {

  private final Parameters parameters;

  ParameterReader(Parameters parameters) {
    this.parameters = parameters;
  }

  /** Whether any parameter has that name. */
  boolean has(String name) {
    return parameters.getParameter().stream().anyMatch(p -> name.equals(p.getName()));
  }

  /** Every parameter of that name, in order. */
  List<ParametersParameterComponent> all(String name) {
    return parameters.getParameter().stream().filter(p -> name.equals(p.getName())).toList();
  }

  /** The parameter of that name, which the operation takes once. */
  ParametersParameterComponent one(String name) {
    return optional(name)
        .orElseThrow(
            () ->
                RefusedFhirRequest.invalid(
                    "The parameter '" + name + "' is missing.", expression(name)));
  }

  /** The parameter of that name if given, which the operation takes at most once. */
  Optional<ParametersParameterComponent> optional(String name) {
    List<ParametersParameterComponent> found = all(name);
    if (found.size() > 1) {
      throw RefusedFhirRequest.invalid(
          "The parameter '" + name + "' must be given once, not " + found.size() + " times.",
          expression(name));
    }
    return found.stream().findFirst();
  }

  /** The {@code valueString} of the parameter. */
  static String string(ParametersParameterComponent parameter) {
    return primitive(parameter, StringType.class, "a valueString");
  }

  /** The {@code valueIdentifier} of the parameter, which must have a {@code value}. */
  static Identifier identifier(ParametersParameterComponent parameter) {
    if (parameter.getValue() instanceof Identifier identifier && identifier.getValue() != null) {
      return identifier;
    }
    throw wrongType(parameter, "a valueIdentifier with a value");
  }

  /** The {@code valueString}, or the {@code value} of the {@code valueIdentifier}. */
  static String stringOrIdentifier(ParametersParameterComponent parameter) {
    Type value = parameter.getValue();
    if (value instanceof StringType string && string.getValue() != null) {
      return string.getValue();
    }
    if (value instanceof Identifier identifier && identifier.getValue() != null) {
      return identifier.getValue();
    }
    throw wrongType(parameter, "a valueString or a valueIdentifier with a value");
  }

  /** The {@code valueBoolean} of the parameter. */
  static boolean bool(ParametersParameterComponent parameter) {
    return primitive(parameter, BooleanType.class, "a valueBoolean");
  }

  /** The {@code valueInteger} of the parameter. */
  static int integer(ParametersParameterComponent parameter) {
    return primitive(parameter, IntegerType.class, "a valueInteger");
  }

  /**
   * The value of the parameter's primitive {@code value[x]} of {@code type}, which must have one;
   * else a wrong type naming {@code expected}.
   */
  private static <T> T primitive(
      ParametersParameterComponent parameter,
      Class<? extends PrimitiveType<T>> type,
      String expected) {
    if (type.isInstance(parameter.getValue())) {
      T value = type.cast(parameter.getValue()).getValue();
      if (value != null) {
        return value;
      }
    }
    throw wrongType(parameter, expected);
  }

  /** The FHIRPath of a parameter, as the MII interface module names it in its outcomes. */
  static String expression(String name) {
    return "Parameters.parameter.where(name='" + name + "')";
  }

  private static RefusedFhirRequest wrongType(
      ParametersParameterComponent parameter, String expected) {
    return RefusedFhirRequest.invalid(
        "The parameter '"
            + parameter.getName()
            + "' has the wrong type: it must be "
            + expected
            + ", not "
            + given(parameter)
            + ".",
        expression(parameter.getName()));
  }

  /**
   * What a parameter holds, in the words of its JSON ({@code a valueInteger}, {@code a valueString
   * without a value}, {@code no value}), for a message that names a wrong type; never the value.
   */
  static String given(ParametersParameterComponent parameter) {
    Type value = parameter.getValue();
    if (value == null) {
      return parameter.hasResource() || parameter.hasPart()
          ? "a " + (parameter.hasResource() ? "resource" : "part") + " without a value[x]"
          : "no value";
    }
    String type = value.fhirType();
    String element = "value" + Character.toUpperCase(type.charAt(0)) + type.substring(1);
    boolean empty =
        value.isPrimitive()
            ? !value.hasPrimitiveValue()
            : value instanceof Identifier identifier && !identifier.hasValue();
    return empty ? "a " + element + " without a value" : "a " + element;
  }
}
