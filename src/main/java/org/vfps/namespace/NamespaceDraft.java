package org.vfps.namespace;

/**
 * The settings of a namespace to create, as a client sent them and before validation.
 *
 * @param description may be null
 * @param generationMethod the method's number; an unknown number is rejected by validation
 * @param pseudonymPrefix may be null
 * @param pseudonymSuffix may be null
 */
public record NamespaceDraft(
    String name,
    String description,
    int generationMethod,
    long pseudonymLength,
    String pseudonymPrefix,
    String pseudonymSuffix) {}
