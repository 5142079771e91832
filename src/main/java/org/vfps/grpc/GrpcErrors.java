package org.vfps.grpc;

import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.server.GrpcServerResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.error.ServiceException;
import org.vfps.log.EdgeWarnings;
import org.vfps.rpc.FailureStatus;

/**
 * Ends a failed call with its gRPC status ({@link FailureStatus}), message and trailers: the one
 * failure mapping of the gRPC edge.
 */
final class GrpcErrors {

  private static final Logger LOG = LoggerFactory.getLogger(GrpcErrors.class);
  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private GrpcErrors() {}

  /**
   * Sends the failure, logged by the edges' policy ({@link EdgeWarnings#failed}); unexpected
   * failures are answered as INTERNAL.
   */
  static void fail(
      GrpcServerResponse<?, ?> response, String method, Throwable failure, EdgeWarnings warnings) {
    warnings.failed(LOG, method, failure);
    if (!(failure instanceof ServiceException service)) {
      response.status(GrpcStatus.INTERNAL).statusMessage("Internal error.").end();
      return;
    }
    GrpcStatus status = FailureStatus.of(service);
    for (Map.Entry<String, String> entry : service.metadata().entrySet()) {
      response.trailers().set(entry.getKey(), asciiSafe(entry.getValue()));
    }
    response.status(status).statusMessage(service.getMessage()).end();
  }

  /** The status {@link #fail} answers {@code failure} with. */
  static GrpcStatus status(Throwable failure) {
    return failure instanceof ServiceException service
        ? FailureStatus.of(service)
        : GrpcStatus.INTERNAL;
  }

  /**
   * ASCII metadata values may hold only printable ASCII; anything else (a unicode namespace name)
   * is percent-encoded in UTF-8, as gRPC encodes status messages.
   */
  static String asciiSafe(String value) {
    StringBuilder safe = null;
    byte[] bytes = null;
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 0x20 || c > 0x7E || c == '%') {
        bytes = value.getBytes(StandardCharsets.UTF_8);
        break;
      }
    }
    if (bytes == null) {
      return value;
    }
    safe = new StringBuilder(bytes.length * 2);
    for (byte b : bytes) {
      int unsigned = b & 0xFF;
      if (unsigned >= 0x20 && unsigned <= 0x7E && unsigned != '%') {
        safe.append((char) unsigned);
      } else {
        safe.append('%').append(HEX[unsigned >> 4]).append(HEX[unsigned & 0xF]);
      }
    }
    return safe.toString();
  }
}
