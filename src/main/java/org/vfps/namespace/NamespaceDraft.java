package org.vfps.namespace;

/**
 * The settings of a namespace to create, as a client sent them and before validation.
 *
 * @param description null when the client sent none: stored NULL and read back absent
 * @param generationMethod the method's number; an unknown number is rejected by validation
 * @param pseudonymPrefix may be null
 * @param pseudonymSuffix may be null
 * @param originalValueValidationRegex may be null; null and {@code ""} validate nothing
 * @param parentName may be null; null and {@code ""} mean no parent
 * @param parentValidationMode the mode's number; an unknown number is rejected by validation
 * @param alphabetFormat the alphabet method's format; null when the client sent none
 */
public record NamespaceDraft(
    String name,
    String description,
    int generationMethod,
    long pseudonymLength,
    String pseudonymPrefix,
    String pseudonymSuffix,
    String originalValueValidationRegex,
    boolean allowsMultiplePseudonyms,
    String parentName,
    int parentValidationMode,
    AlphabetFormatDraft alphabetFormat) {

  /** A draft with the settings of the .NET vfps 1.10: no regex, no parent, one pseudonym. */
  public NamespaceDraft(
      String name,
      String description,
      int generationMethod,
      long pseudonymLength,
      String pseudonymPrefix,
      String pseudonymSuffix) {
    this(
        name,
        description,
        generationMethod,
        pseudonymLength,
        pseudonymPrefix,
        pseudonymSuffix,
        null,
        false,
        null,
        ParentValidationMode.UNSPECIFIED.number(),
        null);
  }
}
