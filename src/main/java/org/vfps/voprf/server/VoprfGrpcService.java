package org.vfps.voprf.server;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.SocketAddress;
import io.vertx.grpc.common.GrpcMessage;
import io.vertx.grpc.common.GrpcMessageDecoder;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.common.MessageSizeOverflowException;
import io.vertx.grpc.common.ServiceName;
import io.vertx.grpc.server.GrpcServer;
import io.vertx.grpc.server.GrpcServerRequest;
import io.vertx.grpc.server.Service;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;
import java.util.zip.GZIPInputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.api.voprf.v1.VoprfServiceBlindEvaluateRequest;
import org.vfps.api.voprf.v1.VoprfServiceBlindEvaluateResponse;
import org.vfps.api.voprf.v1.VoprfServiceGetPublicKeyResponse;
import org.vfps.api.voprf.v1.VoprfServiceGrpcService;
import org.vfps.audit.AuditChain;
import org.vfps.voprf.Evaluation;
import org.vfps.voprf.InvalidElementException;
import org.vfps.voprf.ServerKey;

/**
 * {@code vfps.voprf.v1.VoprfService} with one key. Each call is authenticated, then counted against
 * the rate limit (so callers without credentials cannot use it up), then served; {@code
 * BlindEvaluate} runs on a worker thread and writes an audit line. A client's mistake is answered
 * with its status and logged at DEBUG; anything else is {@code INTERNAL} "An internal error
 * occurred." (with the exception's message when detailed errors are on), logged once at ERROR.
 * Never {@code UNKNOWN}.
 */
final class VoprfGrpcService implements Service {

  private static final Logger LOG = LoggerFactory.getLogger(VoprfGrpcService.class);

  /** The bytes of a blinded element. */
  static final int ELEMENT_BYTES = 32;

  private final Vertx vertx;
  private final ServerKey key;
  private final ByteString publicKey;
  private final String keyId;
  private final int maxBatchSize;
  private final long maxMessageBytes;
  private final CallAuthentication authentication;
  private final FixedWindowRateLimit rateLimit;
  private final boolean detailedErrors;
  private final VoprfAudit audit;
  private final SecureRandom random = new SecureRandom();

  /**
   * @param rateLimit null for none
   */
  VoprfGrpcService(
      Vertx vertx,
      ServerKey key,
      String keyId,
      int maxBatchSize,
      long maxMessageBytes,
      CallAuthentication authentication,
      FixedWindowRateLimit rateLimit,
      boolean detailedErrors,
      AuditChain auditChain) {
    this.vertx = vertx;
    this.key = key;
    this.publicKey = ByteString.copyFrom(key.publicKey());
    this.keyId = keyId;
    this.maxBatchSize = maxBatchSize;
    this.maxMessageBytes = maxMessageBytes;
    this.authentication = authentication;
    this.rateLimit = rateLimit;
    this.detailedErrors = detailedErrors;
    this.audit = new VoprfAudit(keyId, auditChain);
  }

  @Override
  public ServiceName name() {
    return VoprfServiceGrpcService.SERVICE_NAME;
  }

  @Override
  public Descriptors.ServiceDescriptor descriptor() {
    return VoprfServiceGrpcService.SERVICE_DESCRIPTOR;
  }

  @Override
  public void bind(GrpcServer server) {
    server.callHandler(
        VoprfServiceGrpcService.GetPublicKey,
        call ->
            serve(
                call,
                VoprfServiceGrpcService.GetPublicKey.decoder(),
                (caller, request) ->
                    Future.succeededFuture(
                        VoprfServiceGetPublicKeyResponse.newBuilder()
                            .setPublicKey(publicKey)
                            .setKeyId(keyId)
                            .build()),
                null));
    server.callHandler(
        VoprfServiceGrpcService.BlindEvaluate,
        call ->
            serve(
                call,
                VoprfServiceGrpcService.BlindEvaluate.decoder(),
                (caller, request) -> blindEvaluate(request),
                VoprfServiceBlindEvaluateRequest::getBlindedElementsCount));
  }

  private interface Handler<Req, Resp> {
    Future<Resp> handle(String caller, Req request);
  }

  /**
   * Reads the request, authenticates, takes a permit, runs the handler and answers; writes the
   * audit line of every call whose request was read, when {@code audited} counts its elements.
   *
   * @param audited null for a call without an audit line
   */
  private <Req, Resp> void serve(
      GrpcServerRequest<Req, Resp> call,
      GrpcMessageDecoder<Req> decoder,
      Handler<Req, Resp> handler,
      ToIntFunction<Req> audited) {
    read(call, decoder)
        .onSuccess(
            request -> {
              String[] caller = new String[1];
              authentication
                  .caller(call)
                  .compose(
                      authenticated -> {
                        caller[0] = authenticated;
                        if (rateLimit != null && !rateLimit.tryAcquire()) {
                          return Future.failedFuture(
                              new RefusedVoprfCall(
                                  GrpcStatus.RESOURCE_EXHAUSTED,
                                  "Rate limit exceeded; retry later."));
                        }
                        return handler.handle(authenticated, request);
                      })
                  .onComplete(
                      done -> {
                        if (audited != null) {
                          audit.blindEvaluate(
                              caller[0],
                              clientAddress(call),
                              audited.applyAsInt(request),
                              outcome(done.cause()));
                        }
                        answer(call, done);
                      });
            })
        .onFailure(failure -> fail(call, failure));
  }

  private <Resp> void answer(GrpcServerRequest<?, Resp> call, AsyncResult<Resp> done) {
    if (done.succeeded()) {
      call.response().end(done.result());
    } else {
      fail(call, done.cause());
    }
  }

  /**
   * The one request message, decoded here (gzip inflated up to the size limit) so that every
   * malformed request is a {@link RefusedVoprfCall}: {@code INVALID_ARGUMENT}, or {@code
   * RESOURCE_EXHAUSTED} over the size limit.
   */
  private <Req> Future<Req> read(GrpcServerRequest<Req, ?> call, GrpcMessageDecoder<Req> decoder) {
    Promise<Req> request = Promise.promise();
    List<GrpcMessage> received = new ArrayList<>(1);
    call.invalidMessageHandler(
        invalid ->
            request.tryFail(
                invalid instanceof MessageSizeOverflowException ? tooLarge() : malformed("")));
    call.messageHandler(
        message -> {
          if (!received.isEmpty()) {
            request.tryFail(malformed(": more than one request message"));
          }
          received.add(message);
        });
    // the client reset the stream: nothing to answer, and no error of the server
    call.exceptionHandler(
        reset ->
            request.tryFail(new RefusedVoprfCall(GrpcStatus.CANCELLED, "The call was cancelled.")));
    call.endHandler(
        ended -> {
          if (received.isEmpty()) {
            request.tryFail(malformed(": no complete request message"));
            return;
          }
          GrpcMessage message = received.get(0);
          try {
            Buffer payload = message.payload();
            if (!"identity".equals(message.encoding())) {
              payload = inflate(payload);
            }
            request.tryComplete(
                decoder.decode(GrpcMessage.message("identity", message.format(), payload)));
          } catch (RefusedVoprfCall rejection) {
            request.tryFail(rejection);
          } catch (IOException | RuntimeException e) {
            request.tryFail(malformed(": no valid " + call.methodName() + " request"));
          }
        });
    return request.future();
  }

  private Buffer inflate(Buffer compressed) throws IOException {
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(compressed.getBytes()))) {
      byte[] inflated = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxMessageBytes + 1));
      if (inflated.length > maxMessageBytes) {
        throw tooLarge();
      }
      return Buffer.buffer(inflated);
    }
  }

  private RefusedVoprfCall tooLarge() {
    return new RefusedVoprfCall(
        GrpcStatus.RESOURCE_EXHAUSTED,
        "The request message is larger than " + maxMessageBytes + " bytes.");
  }

  private static RefusedVoprfCall malformed(String problem) {
    return new RefusedVoprfCall(
        GrpcStatus.INVALID_ARGUMENT, "The request is malformed" + problem + ".");
  }

  private Future<VoprfServiceBlindEvaluateResponse> blindEvaluate(
      VoprfServiceBlindEvaluateRequest request) {
    int count = request.getBlindedElementsCount();
    if (count == 0) {
      return invalid("No blinded elements were supplied.");
    }
    if (count > maxBatchSize) {
      return invalid(
          "A batch carries at most " + maxBatchSize + " elements; " + count + " were supplied.");
    }
    List<byte[]> elements = new ArrayList<>(count);
    for (ByteString element : request.getBlindedElementsList()) {
      if (element.size() != ELEMENT_BYTES) {
        return invalid("Each blinded element is 32 bytes.");
      }
      elements.add(element.toByteArray());
    }
    // the group arithmetic takes milliseconds of CPU per call (docs/benchmarks.md, "VOPRF"), so
    // worker threads, never the event loop
    return vertx
        .executeBlocking(() -> evaluate(elements), false)
        .map(
            evaluation -> {
              VoprfServiceBlindEvaluateResponse.Builder response =
                  VoprfServiceBlindEvaluateResponse.newBuilder()
                      .setProof(ByteString.copyFrom(evaluation.proof()))
                      .setKeyId(keyId);
              for (byte[] evaluated : evaluation.evaluatedElements()) {
                response.addEvaluatedElements(ByteString.copyFrom(evaluated));
              }
              return response.build();
            });
  }

  private Evaluation evaluate(List<byte[]> elements) {
    try {
      return key.evaluate(elements, random);
    } catch (InvalidElementException e) {
      throw new RefusedVoprfCall(
          GrpcStatus.INVALID_ARGUMENT, "One or more blinded elements are invalid.");
    }
  }

  private static <T> Future<T> invalid(String message) {
    return Future.failedFuture(new RefusedVoprfCall(GrpcStatus.INVALID_ARGUMENT, message));
  }

  private void fail(GrpcServerRequest<?, ?> call, Throwable failure) {
    GrpcStatus status;
    String message;
    if (failure instanceof RefusedVoprfCall rejection) {
      status = rejection.status();
      message = rejection.getMessage();
      LOG.debug("{} answered {}: {}", call.fullMethodName(), status, message);
    } else {
      status = GrpcStatus.INTERNAL;
      message =
          detailedErrors
              ? "An internal error occurred: "
                  + (failure.getMessage() == null ? failure.toString() : failure.getMessage())
              : "An internal error occurred.";
      LOG.error("{} failed", call.fullMethodName(), failure);
    }
    call.response().status(status).statusMessage(message).end();
  }

  static String outcome(Throwable failure) {
    if (failure == null) {
      return "OK";
    }
    return failure instanceof RefusedVoprfCall rejection ? rejection.status().name() : "INTERNAL";
  }

  private static String clientAddress(GrpcServerRequest<?, ?> call) {
    SocketAddress remote = call.connection().remoteAddress();
    return remote == null ? "" : remote.hostAddress();
  }
}
