package org.vfps.pseudonym;

import java.util.Objects;

/** An original value and the pseudonym another system gave it, to be imported. */
public record ImportedPair(String originalValue, String pseudonymValue) {

  public ImportedPair {
    Objects.requireNonNull(originalValue, "originalValue");
    Objects.requireNonNull(pseudonymValue, "pseudonymValue");
  }
}
