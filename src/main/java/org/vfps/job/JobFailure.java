package org.vfps.job;

/** A job that cannot complete, with a message for its creator that names no value. */
final class JobFailure extends RuntimeException {
  JobFailure(String message) {
    super(message, null, false, false);
  }
}
