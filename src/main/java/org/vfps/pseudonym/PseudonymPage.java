package org.vfps.pseudonym;

import java.util.List;
import java.util.OptionalLong;

/**
 * One page of a namespace's pseudonyms, newest first, without original values.
 *
 * @param nextPageToken {@code ""} on the last page
 * @param totalSize present when the caller asked for it
 */
public record PseudonymPage(
    String namespace, List<Pseudonym> pseudonyms, String nextPageToken, OptionalLong totalSize) {}
