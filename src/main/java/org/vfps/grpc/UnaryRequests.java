package org.vfps.grpc;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.grpc.common.GrpcMessage;
import io.vertx.grpc.common.GrpcMessageDecoder;
import io.vertx.grpc.common.MessageSizeOverflowException;
import io.vertx.grpc.server.GrpcServerRequest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.log.EdgeWarnings;

/**
 * Reads the one request message of a unary call. What is not one well-formed message fails with
 * {@code INVALID_ARGUMENT}, answered as soon as it shows: bytes that are no message of the type, a
 * frame cut short, a message flagged compressed in a call that declares no {@code grpc-encoding}, a
 * second message. A message over {@value #MAX_MESSAGE_BYTES} bytes, compressed or inflated, fails
 * with {@code RESOURCE_EXHAUSTED}. Each such call is logged by {@link EdgeWarnings#malformed}.
 *
 * <p>The gRPC spec names no status for a compressed flag without an encoding (PROTOCOL-HTTP2.md:
 * "If the Message-Encoding header is omitted then the Compressed-Flag must be 0"); grpc-java and
 * grpc-go answer {@code INTERNAL}. vfps answers {@code INVALID_ARGUMENT}, as for any other
 * malformed input: the client's message is at fault, and clients retry {@code INTERNAL}.
 */
final class UnaryRequests {

  /** The largest message read, compressed or inflated: the gRPC listener's limit. */
  static final long MAX_MESSAGE_BYTES = GrpcApiVerticle.MAX_MESSAGE_BYTES;

  private final EdgeWarnings warnings;

  /** Reads requests, logging the malformed ones to {@code warnings}. */
  UnaryRequests(EdgeWarnings warnings) {
    this.warnings = warnings;
  }

  /**
   * The call's request. Call it as soon as the call arrives, before anything asynchronous, so that
   * no message is missed.
   */
  <Req> Future<Req> read(GrpcServerRequest<Req, ?> call, GrpcMessageDecoder<Req> decoder) {
    Promise<Req> request = Promise.promise();
    GrpcMessage[] received = new GrpcMessage[1];
    call.messageHandler(
        message -> {
          if (received[0] != null) {
            reject(call, request, "more than one request message");
          } else if (MessageEncodings.UNDECLARED.equals(message.encoding())) {
            reject(call, request, "a message flagged compressed without a grpc-encoding");
          } else {
            received[0] = message;
          }
        });
    call.invalidMessageHandler(
        invalid -> {
          if (invalid instanceof MessageSizeOverflowException) {
            tooLarge(call, request);
          } else {
            reject(call, request, "a malformed message frame");
          }
        });
    call.endHandler(
        ended -> {
          if (request.future().isComplete()) {
            return;
          }
          if (received[0] == null) {
            reject(call, request, "no complete request message");
            return;
          }
          decode(call, request, received[0], decoder);
        });
    return request.future();
  }

  private <Req> void decode(
      GrpcServerRequest<Req, ?> call,
      Promise<Req> request,
      GrpcMessage message,
      GrpcMessageDecoder<Req> decoder) {
    Buffer payload = message.payload();
    if (!message.encoding().equals("identity")) {
      try {
        payload = inflate(payload);
      } catch (IOException e) {
        reject(call, request, "a message that is not valid gzip");
        return;
      }
      if (payload == null) {
        tooLarge(call, request);
        return;
      }
    }
    Req decoded;
    try {
      decoded = decoder.decode(GrpcMessage.message("identity", message.format(), payload));
    } catch (RuntimeException e) {
      // CodecException for protobuf, and whatever a JSON parser throws on a client's text
      reject(call, request, "a message that is not a valid " + call.methodName() + " request");
      return;
    }
    request.tryComplete(decoded);
  }

  /** The gzip payload inflated, or null when it inflates to more than the largest message. */
  static Buffer inflate(Buffer compressed) throws IOException {
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(compressed.getBytes()))) {
      byte[] inflated = in.readNBytes((int) MAX_MESSAGE_BYTES + 1);
      return inflated.length > MAX_MESSAGE_BYTES ? null : Buffer.buffer(inflated);
    }
  }

  private void reject(GrpcServerRequest<?, ?> call, Promise<?> request, String problem) {
    if (request.tryFail(
        new ServiceException(
            ErrorCode.INVALID_ARGUMENT, "The request is malformed: " + problem + "."))) {
      warnings.malformed("gRPC call of " + call.fullMethodName(), problem);
    }
  }

  private void tooLarge(GrpcServerRequest<?, ?> call, Promise<?> request) {
    if (request.tryFail(
        new ServiceException(
            ErrorCode.RESOURCE_EXHAUSTED,
            "The request message is larger than " + MAX_MESSAGE_BYTES + " bytes."))) {
      warnings.malformed("gRPC call of " + call.fullMethodName(), "a message over the size limit");
    }
  }
}
