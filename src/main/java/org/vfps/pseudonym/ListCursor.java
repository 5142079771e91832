package org.vfps.pseudonym;

import java.time.Instant;

/**
 * The position after the last row of a list page, in the list order ({@code created_at DESC,
 * original_value DESC, sequence_number DESC}).
 *
 * @param sequenceNumber which of the original value's pseudonyms: 0 but in a namespace that holds
 *     several per original value
 */
public record ListCursor(Instant createdAt, String originalValue, long sequenceNumber) {}
