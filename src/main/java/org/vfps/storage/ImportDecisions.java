package org.vfps.storage;

import java.util.HashMap;
import java.util.Map;
import org.vfps.pseudonym.ImportStatus;
import org.vfps.pseudonym.ImportedPair;

/**
 * What an import does with each pair, decided against the stored rows it meets and the pairs
 * decided before it. Not thread-safe: one per import statement.
 */
final class ImportDecisions {

  private final boolean multiple;
  private final Map<String, String> originalOfPseudonym = new HashMap<>();
  private final Map<String, Long> lastSequenceOfOriginal = new HashMap<>();
  private final Map<ImportedPair, Long> sequences = new HashMap<>();

  /**
   * @param multiple whether an original value may have several pseudonyms
   */
  ImportDecisions(boolean multiple) {
    this.multiple = multiple;
  }

  /** A stored row the import meets. */
  void stored(String originalValue, String pseudonymValue, long sequenceNumber) {
    originalOfPseudonym.put(pseudonymValue, originalValue);
    lastSequenceOfOriginal.merge(originalValue, sequenceNumber, Math::max);
  }

  /** Decides the pair; an {@link ImportStatus#IMPORTED} pair counts as stored for the next ones. */
  ImportStatus decide(ImportedPair pair) {
    String owner = originalOfPseudonym.get(pair.pseudonymValue());
    if (owner != null) {
      return owner.equals(pair.originalValue())
          ? ImportStatus.ALREADY_PRESENT
          : ImportStatus.PSEUDONYM_VALUE_CONFLICT;
    }
    Long last = lastSequenceOfOriginal.get(pair.originalValue());
    if (last != null && !multiple) {
      return ImportStatus.ORIGINAL_VALUE_CONFLICT;
    }
    long sequence = last == null ? 0 : last + 1;
    stored(pair.originalValue(), pair.pseudonymValue(), sequence);
    sequences.put(pair, sequence);
    return ImportStatus.IMPORTED;
  }

  /** The sequence number an imported pair is stored under. */
  long sequenceOf(ImportedPair pair) {
    return sequences.get(pair);
  }
}
