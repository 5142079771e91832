package org.vfps.objectstore;

/** The object store refused a request or could not be reached. */
public final class ObjectStoreException extends RuntimeException {

  private final boolean unavailable;

  /**
   * @param unavailable whether the store could not be reached or answered a server error, so that a
   *     retry may succeed
   */
  public ObjectStoreException(String message, boolean unavailable, Throwable cause) {
    super(message, cause);
    this.unavailable = unavailable;
  }

  public boolean unavailable() {
    return unavailable;
  }
}
