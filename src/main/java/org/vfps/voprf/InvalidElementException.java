package org.vfps.voprf;

/** Bytes that are no valid, non-identity ristretto255 element. */
public final class InvalidElementException extends Exception {

  private static final long serialVersionUID = 1L;

  InvalidElementException(String message) {
    super(message);
  }
}
