package org.vfps.pseudonym;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ImportStatusTest {

  @Test
  void labelsAreTheWordsOfTheImportReport() {
    assertThat(Arrays.stream(ImportStatus.values()).map(ImportStatus::label))
        .containsExactly(
            "Imported",
            "AlreadyPresent",
            "OriginalValueConflict",
            "PseudonymValueConflict",
            "InvalidOriginalValue",
            "InvalidPseudonymValue",
            "PseudonymOutsideAlphabet",
            "PseudonymCheckDigitMismatch",
            "ParentValueMissing",
            "UnknownNamespace",
            "MissingValue");
  }
}
