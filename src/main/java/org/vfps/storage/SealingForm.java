package org.vfps.storage;

/**
 * How a namespace's original values are stored, as {@code vfps_namespace_sealing} says: which form
 * new rows take, and in which forms a value is looked for.
 */
enum SealingForm {
  /** No row: plain original values. */
  PLAIN(false, true, false),
  /** Sealed rows only. */
  SEALED(true, false, true),
  /** Being sealed or unsealed: rows of both forms, new ones plain. */
  BOTH_WRITES_PLAIN(false, true, true),
  /** Being sealed or unsealed: rows of both forms, new ones sealed. */
  BOTH_WRITES_SEALED(true, true, true);

  final boolean writesSealed;
  final boolean readsPlain;
  final boolean readsSealed;

  SealingForm(boolean writesSealed, boolean readsPlain, boolean readsSealed) {
    this.writesSealed = writesSealed;
    this.readsPlain = readsPlain;
    this.readsSealed = readsSealed;
  }

  /** The form of a row of {@code vfps_namespace_sealing}. */
  static SealingForm of(boolean writesSealed, boolean readsPlain) {
    if (!readsPlain) {
      return SEALED;
    }
    return writesSealed ? BOTH_WRITES_SEALED : BOTH_WRITES_PLAIN;
  }

  /** Whether rows of both forms may exist, so that a write must check the other form. */
  boolean inTransition() {
    return readsPlain && readsSealed;
  }
}
