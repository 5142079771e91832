package org.vfps.pseudonym;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.namespace.NamespaceCapacity;

/**
 * The failures of pseudonym operations that more than one place raises: the pieces of {@link
 * PseudonymService} and the repositories build them here, so that each has one wording.
 */
public final class PseudonymFailures {

  private PseudonymFailures() {}

  /**
   * The failure of a create of a new value in a namespace that is {@linkplain
   * NamespaceCapacity#full() full} (or so nearly full that no free pseudonym was found), saying
   * what it holds of what its settings make.
   */
  public static ServiceException namespaceFull(String namespace, NamespaceCapacity capacity) {
    return new ServiceException(
        ErrorCode.RESOURCE_EXHAUSTED,
        "The namespace '"
            + namespace
            + "' is full: it holds "
            + NamespaceCapacity.figure(capacity.usedPseudonyms())
            + " of the "
            + NamespaceCapacity.figure(capacity.distinctPseudonyms())
            + " pseudonyms its settings make, and new values are refused from "
            + Math.round(NamespaceCapacity.FULL_SHARE * 100)
            + " % on. Create a namespace with a longer pseudonym length for further values.",
        Map.of("namespace", namespace));
  }

  /**
   * The failure of a reverse lookup of a pseudonym whose original value was withdrawn: {@code
   * WITHDRAWN}, with the namespace, the pseudonym and {@code more} as metadata.
   */
  static ServiceException withdrawn(
      String namespace, String pseudonymValue, String message, Map<String, String> more) {
    Map<String, String> metadata = new HashMap<>(more);
    metadata.put("namespace", namespace);
    metadata.put("pseudonym", Objects.requireNonNullElse(pseudonymValue, ""));
    return new ServiceException(ErrorCode.WITHDRAWN, message, Map.copyOf(metadata));
  }

  /** The failure of a reverse lookup of a value that is no pseudonym of the namespace. */
  static ServiceException pseudonymNotFound(String namespace, String pseudonymValue) {
    return new ServiceException(
        ErrorCode.NOT_FOUND,
        "The requested pseudonym does not exist in the namespace.",
        Map.of("namespace", namespace, "pseudonym", pseudonymValue));
  }

  /**
   * The failure of a reverse lookup of a pseudonym whose check digit does not match its other
   * characters: a typing error, caught before the lookup.
   */
  static ServiceException checkDigitMismatch(
      String namespace, String pseudonymValue, Map<String, String> more) {
    Map<String, String> metadata = new HashMap<>(more);
    metadata.put("namespace", namespace);
    metadata.put("pseudonym", pseudonymValue);
    return new ServiceException(
        ErrorCode.INVALID_ARGUMENT,
        "The pseudonym's check digit does not match: it was mistyped.",
        Map.copyOf(metadata));
  }

  /** A derived pseudonym that the row of an anonymized value keeps. */
  static ServiceException derivedPseudonymAnonymized(String namespace) {
    return derivedPseudonymHeld(
        namespace, "row: the value's own, kept when the value was anonymized (consent withdrawn)");
  }

  /** A derived pseudonym that another original value holds. */
  static ServiceException derivedPseudonymOfAnotherValue(String namespace) {
    return derivedPseudonymHeld(
        namespace, "original value (two values that derive one pseudonym, or an imported pair)");
  }

  /**
   * The failure of a derived pseudonym that another {@code holder} than the value holds, named with
   * what it is: the deterministic method cannot give the value another.
   */
  private static ServiceException derivedPseudonymHeld(String namespace, String holder) {
    return new ServiceException(
        ErrorCode.FAILED_PRECONDITION,
        "The pseudonym the namespace's deterministic method derives for the value belongs to"
            + " another "
            + holder
            + ". This method cannot give it another; use a namespace of a random method.",
        Map.of("namespace", namespace));
  }

  /**
   * The failure of a namespace's length that does not suit its method, which only a row written
   * around the validation (e.g. by the .NET service) or changed settings can hold.
   */
  static ServiceException lengthUnsuitable(String namespace) {
    return new ServiceException(
        ErrorCode.INVALID_ARGUMENT,
        "The namespace's pseudonym length does not suit its generation method.",
        Map.of("namespace", namespace));
  }
}
