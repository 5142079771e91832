package org.vfps.voprf;

/**
 * A server's answer that does not prove itself against the pinned public key: a wrong key, a
 * tampered answer, or elements that are none. No output may be derived from such an answer.
 */
public final class VerificationException extends Exception {

  private static final long serialVersionUID = 1L;

  VerificationException(String message) {
    super(message);
  }
}
