package org.vfps.namespace;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import org.vfps.alphabet.AlphabetFormat;

/**
 * A stored namespace. Namespaces are immutable: to change settings, delete and re-create.
 *
 * @param description null when the row has none (the client sent none), which reads back absent
 * @param pseudonymPrefix never null ({@code ""} when the row has none)
 * @param pseudonymSuffix never null ({@code ""} when the row has none)
 * @param originalValueRegex never null; {@link OriginalValueRegex#NONE} when the row has none
 * @param allowsMultiplePseudonyms whether an original value may have several pseudonyms
 * @param parentName the parent namespace's name; null for none
 * @param parentValidationMode what is checked against the parent; never null
 * @param alphabetFormat the format of {@link GenerationMethod#X_SECURE_RANDOM_ALPHABET}'s
 *     pseudonyms; null exactly for the other methods
 */
public record Namespace(
    String name,
    String description,
    GenerationMethod generationMethod,
    long pseudonymLength,
    String pseudonymPrefix,
    String pseudonymSuffix,
    OriginalValueRegex originalValueRegex,
    boolean allowsMultiplePseudonyms,
    String parentName,
    ParentValidationMode parentValidationMode,
    AlphabetFormat alphabetFormat,
    Instant createdAt,
    Instant lastUpdatedAt) {

  public Namespace {
    Objects.requireNonNull(originalValueRegex, "originalValueRegex");
    Objects.requireNonNull(parentValidationMode, "parentValidationMode");
  }

  /**
   * Whether the original value passes the namespace's validation regex (true when it has none),
   * with the pattern compiled when the namespace was read. Fails with {@code FAILED_PRECONDITION}
   * for a stored pattern this service cannot compile.
   */
  public boolean matches(String originalValue) {
    return originalValueRegex.matches(originalValue, Map.of("namespace", name));
  }
}
