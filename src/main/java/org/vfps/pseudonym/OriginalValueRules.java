package org.vfps.pseudonym;

import io.vertx.core.Future;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.namespace.Namespace;
import org.vfps.namespace.ParentValidationMode;
import org.vfps.namespace.TextLimits;

/**
 * The rules an original value meets before it is stored, looked up or withdrawn: not blank, within
 * {@link TextLimits#MAX_ORIGINAL_VALUE_BYTES}, matching the namespace's regex, a pseudonym of the
 * parent namespace where that is required, and a batch within its size. Each refusal is a {@link
 * ServiceException} in the .NET service's words, naming a value by its position in a batch, never
 * by its text. Thread-safe.
 */
final class OriginalValueRules {

  private final PseudonymRepository repository;
  private final int maxBatchSize;

  /**
   * @param repository where the parent namespace's pseudonyms are looked up
   * @param maxBatchSize the most values one batch call may hold
   */
  OriginalValueRules(PseudonymRepository repository, int maxBatchSize) {
    if (maxBatchSize < 1) {
      throw new IllegalArgumentException("maxBatchSize must be positive: " + maxBatchSize);
    }
    this.repository = repository;
    this.maxBatchSize = maxBatchSize;
  }

  /** The most values one batch call may hold. */
  int maxBatchSize() {
    return maxBatchSize;
  }

  /**
   * Whether Create would accept the original value: not null or blank, no NUL, at most {@link
   * TextLimits#MAX_ORIGINAL_VALUE_BYTES} bytes in UTF-8.
   */
  static boolean isStorable(String originalValue) {
    return originalValue != null
        && !originalValue.isBlank()
        && TextLimits.fits(originalValue, TextLimits.MAX_ORIGINAL_VALUE_BYTES);
  }

  /**
   * A value's position in a batch for a message, counted from 1 ({@code original value 3 of 10}),
   * where the {@code index} metadata counts from 0.
   */
  static String nth(String what, int index, int count) {
    return what + " " + (index + 1) + " of " + count;
  }

  /** Fails with {@code INVALID_ARGUMENT}, in the .NET service's words, for a blank value. */
  static void requireNotBlank(String originalValue, Map<String, String> metadata) {
    if (originalValue == null || originalValue.isBlank()) {
      throw new ServiceException(
          ErrorCode.INVALID_ARGUMENT, "The original value must not be blank.", metadata);
    }
  }

  /**
   * Fails with {@code INVALID_ARGUMENT} for a blank value, then for one that is oversized or holds
   * a NUL.
   */
  static void requireStorable(String originalValue, Map<String, String> metadata) {
    requireNotBlank(originalValue, metadata);
    TextLimits.check(
        "original value", originalValue, TextLimits.MAX_ORIGINAL_VALUE_BYTES, metadata);
  }

  /**
   * Fails with {@code PATTERN_MISMATCH} if the value does not pass the namespace's regex; the
   * message names the pattern, never the value.
   *
   * @param index the value's position in a batch, or -1 for a single value
   */
  static void requireMatch(Namespace namespace, String originalValue, int index, int count) {
    if (namespace.matches(originalValue)) {
      return;
    }
    String pattern = namespace.originalValueRegex().text();
    String which = index < 0 ? "The original value" : nth("The original value", index, count);
    throw new ServiceException(
        ErrorCode.PATTERN_MISMATCH,
        which
            + " does not match the required pattern '"
            + pattern
            + "' for namespace '"
            + namespace.name()
            + "'.",
        index < 0
            ? Map.of("namespace", namespace.name())
            : Map.of("namespace", namespace.name(), "index", Integer.toString(index)));
  }

  /**
   * Fails with {@code FAILED_PRECONDITION} unless every value is a pseudonym of the namespace's
   * parent, which {@link ParentValidationMode#ENSURE_EXISTS} requires: one statement for all.
   *
   * @param requested the values as the call gave them, to name a value by its position
   */
  Future<Void> requireInParent(
      Namespace namespace, List<String> originalValues, List<String> requested) {
    String parent = namespace.parentName();
    return repository
        .existingPseudonymValues(parent, originalValues)
        .map(
            existing -> {
              for (String value : originalValues) {
                if (!existing.contains(value)) {
                  String which =
                      requested.size() == 1
                          ? "The original value"
                          : nth("The original value", requested.indexOf(value), requested.size());
                  throw new ServiceException(
                      ErrorCode.FAILED_PRECONDITION,
                      which
                          + " does not exist as a pseudonym in the parent namespace '"
                          + parent
                          + "' required by namespace '"
                          + namespace.name()
                          + "'.",
                      Map.of("namespace", namespace.name()));
                }
              }
              return null;
            });
  }

  /**
   * The distinct values in their first order; fails with {@code INVALID_ARGUMENT} for too many
   * values or the first one that could not be stored.
   */
  List<String> validateOriginals(String namespaceName, List<String> originalValues) {
    requireBatchSize(namespaceName, originalValues.size());
    Set<String> distinct = new LinkedHashSet<>();
    for (int i = 0; i < originalValues.size(); i++) {
      String value = originalValues.get(i);
      if (!isStorable(value)) {
        Map<String, String> metadata =
            Map.of("namespace", namespaceName, "index", Integer.toString(i));
        String which = nth("original value", i, originalValues.size());
        if (value == null || value.isBlank()) {
          throw new ServiceException(
              ErrorCode.INVALID_ARGUMENT, "The " + which + " must not be blank.", metadata);
        }
        TextLimits.check(which, value, TextLimits.MAX_ORIGINAL_VALUE_BYTES, metadata);
      }
      distinct.add(value);
    }
    return List.copyOf(distinct);
  }

  /** Fails with {@code INVALID_ARGUMENT} for a batch of more than {@link #maxBatchSize} values. */
  void requireBatchSize(String namespaceName, int size) {
    if (size > maxBatchSize) {
      throw new ServiceException(
          ErrorCode.INVALID_ARGUMENT,
          "A batch holds at most "
              + maxBatchSize
              + " values (Pseudonymization__Batch__MaxSize), not "
              + size
              + ".",
          Map.of("namespace", namespaceName));
    }
  }
}
