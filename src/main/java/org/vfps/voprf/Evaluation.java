package org.vfps.voprf;

import java.util.List;

/**
 * A server's answer to a batch of blinded elements: the evaluated elements in the batch's order, 32
 * bytes each, and one DLEQ proof over them all, 64 bytes.
 */
public record Evaluation(List<byte[]> evaluatedElements, byte[] proof) {

  public Evaluation {
    evaluatedElements = List.copyOf(evaluatedElements);
  }
}
