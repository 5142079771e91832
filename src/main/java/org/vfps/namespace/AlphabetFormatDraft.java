package org.vfps.namespace;

/**
 * The format of an alphabet namespace's pseudonyms as a client sent it, before validation ({@code
 * vfps.x.formats.v1.PseudonymFormat}).
 *
 * @param alphabet never null; {@code ""} when the client sent none
 * @param checkDigit the check digit's number; an unknown number is rejected by validation
 * @param groupSize characters per group, 0 for none
 * @param groupDelimiter never null; {@code ""} when the client sent none
 */
public record AlphabetFormatDraft(
    String alphabet, int checkDigit, long groupSize, String groupDelimiter) {}
