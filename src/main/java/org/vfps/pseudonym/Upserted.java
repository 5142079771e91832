package org.vfps.pseudonym;

/**
 * What an upsert did: the stored pseudonym, and whether this call inserted it. Of concurrent calls
 * for the same new pair exactly one sees {@code inserted}.
 */
public record Upserted(Pseudonym pseudonym, boolean inserted) {}
