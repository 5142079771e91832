package org.vfps.server;

/** The service cannot start; the message says why in words meant for the operator. */
public final class StartupException extends RuntimeException {

  public StartupException(String message, Throwable cause) {
    super(message, cause);
  }

  /** The message of the failure's root cause, else its root's class name. */
  static String rootMessage(Throwable failure) {
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
  }
}
