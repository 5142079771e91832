package org.vfps.pseudonym;

import java.time.Instant;

/**
 * The position after the last row of a list page, in the list order ({@code created_at DESC,
 * original_value DESC}).
 */
public record ListCursor(Instant createdAt, String originalValue) {}
