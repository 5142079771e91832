package org.vfps.error;

import java.util.Map;

/**
 * A failure a client may see: its code, a message safe to return (never an original value, SQL or a
 * driver message) and metadata that gRPC sends as trailers (e.g. {@code namespace}).
 */
public final class ServiceException extends RuntimeException {

  private final ErrorCode code;
  private final Map<String, String> metadata;

  public ServiceException(ErrorCode code, String message) {
    this(code, message, Map.of(), null);
  }

  public ServiceException(ErrorCode code, String message, Map<String, String> metadata) {
    this(code, message, metadata, null);
  }

  /** A failure caused by another throwable, kept for the log at the edge, never for the client. */
  public ServiceException(
      ErrorCode code, String message, Map<String, String> metadata, Throwable cause) {
    super(message, cause, false, cause != null);
    this.code = code;
    this.metadata = Map.copyOf(metadata);
  }

  public ErrorCode code() {
    return code;
  }

  /** Key-value pairs describing the failed request, such as the namespace name. */
  public Map<String, String> metadata() {
    return metadata;
  }
}
