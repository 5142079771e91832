package org.vfps.seal;

/**
 * A key file that cannot be used, or a sealed value that cannot be opened with the keys at hand;
 * the message says which and why, never a value or a key.
 */
public final class SealingException extends Exception {

  public SealingException(String message) {
    super(message);
  }

  public SealingException(String message, Throwable cause) {
    super(message, cause);
  }
}
