package org.vfps.namespace;

import java.time.Instant;

/**
 * A stored namespace. Namespaces are immutable: to change settings, delete and re-create.
 *
 * @param description never null ({@code ""} when the row has none)
 * @param pseudonymPrefix never null ({@code ""} when the row has none)
 * @param pseudonymSuffix never null ({@code ""} when the row has none)
 */
public record Namespace(
    String name,
    String description,
    GenerationMethod generationMethod,
    long pseudonymLength,
    String pseudonymPrefix,
    String pseudonymSuffix,
    Instant createdAt,
    Instant lastUpdatedAt) {}
