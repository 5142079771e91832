package org.vfps.storage;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.vfps.pseudonym.ImportStatus;
import org.vfps.pseudonym.ImportedPair;

class ImportDecisionsTest {

  @Test
  void aPairIsDecidedAgainstTheStoredRowsAndThePairsBeforeIt() {
    ImportDecisions decisions = new ImportDecisions(false);
    decisions.stored("a", "A", 0);

    assertThat(decisions.decide(new ImportedPair("a", "A")))
        .isEqualTo(ImportStatus.ALREADY_PRESENT);
    assertThat(decisions.decide(new ImportedPair("a", "B")))
        .isEqualTo(ImportStatus.ORIGINAL_VALUE_CONFLICT);
    assertThat(decisions.decide(new ImportedPair("b", "A")))
        .isEqualTo(ImportStatus.PSEUDONYM_VALUE_CONFLICT);
    assertThat(decisions.decide(new ImportedPair("c", "C"))).isEqualTo(ImportStatus.IMPORTED);
    assertThat(decisions.sequenceOf(new ImportedPair("c", "C"))).isZero();
    assertThat(decisions.decide(new ImportedPair("c", "C")))
        .isEqualTo(ImportStatus.ALREADY_PRESENT);
    assertThat(decisions.decide(new ImportedPair("c", "D")))
        .isEqualTo(ImportStatus.ORIGINAL_VALUE_CONFLICT);
    assertThat(decisions.decide(new ImportedPair("d", "C")))
        .isEqualTo(ImportStatus.PSEUDONYM_VALUE_CONFLICT);
  }

  @Test
  void inANamespaceOfSeveralPseudonymsAnotherPseudonymGetsTheNextSequenceNumber() {
    ImportDecisions decisions = new ImportDecisions(true);
    decisions.stored("a", "A0", 0);
    decisions.stored("a", "A3", 3);

    assertThat(decisions.decide(new ImportedPair("a", "A4"))).isEqualTo(ImportStatus.IMPORTED);
    assertThat(decisions.sequenceOf(new ImportedPair("a", "A4"))).isEqualTo(4);
    assertThat(decisions.decide(new ImportedPair("a", "A5"))).isEqualTo(ImportStatus.IMPORTED);
    assertThat(decisions.sequenceOf(new ImportedPair("a", "A5"))).isEqualTo(5);
    assertThat(decisions.decide(new ImportedPair("a", "A0")))
        .isEqualTo(ImportStatus.ALREADY_PRESENT);
  }
}
