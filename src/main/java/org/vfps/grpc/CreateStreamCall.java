package org.vfps.grpc;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Timer;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.grpc.common.GrpcMessage;
import io.vertx.grpc.common.GrpcMessageDecoder;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.common.MessageSizeOverflowException;
import io.vertx.grpc.server.GrpcServerRequest;
import io.vertx.grpc.server.GrpcServerResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.access.Caller;
import org.vfps.admission.CallDeadline;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceCreateResponse;
import org.vfps.config.TimeSpans;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.log.EdgeWarnings;
import org.vfps.pseudonym.Pseudonym;
import org.vfps.rpc.ClientStreamMethod;
import org.vfps.rpc.ProtoMapping;

/**
 * One {@code CreateStream} call: every request message is a create of its own namespace, and the
 * replies go out in request order.
 *
 * <p>Flow control: requests are read on demand ({@code fetch}), one more for each reply written, so
 * at most {@link #WINDOW} requests of the call are read and not yet answered. While the response's
 * write queue is full (a client that reads slowly) no reply is written, so after at most {@link
 * #WINDOW} more requests none is read; unread ones stay with HTTP/2 flow control, which stops the
 * client's writer. Nothing buffers without bound.
 *
 * <p>The first request that fails, in request order, ends the call with its status, a message
 * naming its position ({@code Message 2 of the stream: }, counting from 1) and the trailer {@code
 * index} (counting from 0); later replies are dropped. A client that cancels the call (or whose
 * deadline passes, or whose connection drops) ends the work: no further request is read, no reply
 * written, and the creates already running finish unanswered. When the call's own deadline passes
 * first, the call ends with {@code DEADLINE_EXCEEDED} the same way. Either way, creates still
 * waiting for the database are not sent.
 *
 * <p>Idleness: a call that makes no progress for {@code Admission__StreamIdleTimeout} (no request
 * read, no reply written, while none of its creates is still at work in the service) ends with
 * {@code DEADLINE_EXCEEDED}, naming the setting, and gives its places in admission control back: a
 * client cannot hold them with streams it does not use. One whose client does not read its replies
 * either is reset instead, since its trailers would not get through. Progress costs a clock read
 * per request and per batch of replies; the check is one timer per idle period, not per message.
 *
 * <p>Used on the call's event loop only.
 */
final class CreateStreamCall {

  /** Requests of one call read and not yet answered, at most. */
  static final int WINDOW = 512;

  private static final Logger LOG = LoggerFactory.getLogger(CreateStreamCall.class);

  private final GrpcServerRequest<PseudonymServiceCreateRequest, PseudonymServiceCreateResponse>
      call;
  private final GrpcServerResponse<PseudonymServiceCreateRequest, PseudonymServiceCreateResponse>
      response;
  private final GrpcMessageDecoder<PseudonymServiceCreateRequest> decoder;
  private final Caller caller;
  private final ClientStreamMethod.StreamedCreate create;
  private final CallObserver observer;
  private final CallDeadline deadline;
  private final EdgeWarnings warnings;
  private final long idleNanos;
  private final ArrayDeque<Future<Pseudonym>> unanswered = new ArrayDeque<>();
  private final Promise<GrpcStatus> ended = Promise.promise();
  private long read;
  private long answered;
  private boolean requestsEnded;
  private boolean finished;
  private Timer timer;
  private Timer idleTimer;
  private long lastProgress;

  CreateStreamCall(
      GrpcServerRequest<PseudonymServiceCreateRequest, PseudonymServiceCreateResponse> call,
      GrpcMessageDecoder<PseudonymServiceCreateRequest> decoder,
      Caller caller,
      ClientStreamMethod.StreamedCreate create,
      CallObserver observer,
      CallDeadline deadline,
      Duration idleTimeout,
      EdgeWarnings warnings) {
    this.call = call;
    this.response = call.response();
    this.decoder = decoder;
    this.caller = caller;
    this.create = create;
    this.observer = observer;
    this.deadline = deadline;
    this.warnings = warnings;
    this.idleNanos = idleTimeout.toNanos();
  }

  /**
   * Serves the call, whose request stream must be paused, until it ends; the future yields the
   * status it ended with ({@code CANCELLED} when the client left).
   */
  Future<GrpcStatus> serve() {
    call.messageHandler(this::create);
    call.invalidMessageHandler(
        invalid ->
            enqueueRejection(
                invalid instanceof MessageSizeOverflowException
                    ? tooLarge()
                    : malformed("a malformed message frame")));
    call.endHandler(
        end -> {
          requestsEnded = true;
          answer();
        });
    call.errorHandler(error -> clientLeft());
    call.exceptionHandler(failure -> clientLeft());
    response.drainHandler(drained -> answer());
    timer = CallEnding.schedule(deadline, this::deadlinePassed);
    lastProgress = System.nanoTime();
    if (idleNanos > 0 && !finished) {
      watchIdleness(idleNanos);
    }
    if (!finished) {
      call.fetch(WINDOW);
    }
    return ended.future();
  }

  private void create(GrpcMessage message) {
    if (finished) {
      return;
    }
    read++;
    lastProgress = System.nanoTime();
    observer.received(call.serviceName().fullyQualifiedName(), call.methodName());
    PseudonymServiceCreateRequest request;
    try {
      request = decode(message);
    } catch (ServiceException rejection) {
      enqueue(Future.failedFuture(rejection));
      return;
    }
    enqueue(create.apply(caller, request.getNamespace(), request.getOriginalValue()));
  }

  private void enqueueRejection(ServiceException rejection) {
    if (!finished) {
      read++;
      enqueue(Future.failedFuture(rejection));
    }
  }

  private void enqueue(Future<Pseudonym> created) {
    unanswered.add(created);
    created.onComplete(done -> answer());
  }

  /** Writes the replies that are ready, in order, as far as the write queue takes them. */
  private void answer() {
    int written = 0;
    while (!finished && !unanswered.isEmpty() && unanswered.peek().isComplete()) {
      if (response.writeQueueFull()) {
        // the drain handler goes on
        break;
      }
      Future<Pseudonym> next = unanswered.poll();
      long index = answered++;
      if (next.failed()) {
        fail(index, next.cause());
        return;
      }
      response.write(
          PseudonymServiceCreateResponse.newBuilder()
              .setPseudonym(ProtoMapping.toProto(next.result()))
              .build());
      observer.sent(call.serviceName().fullyQualifiedName(), call.methodName());
      written++;
    }
    if (finished) {
      return;
    }
    if (written > 0) {
      lastProgress = System.nanoTime();
      call.fetch(written);
    }
    if (requestsEnded && unanswered.isEmpty()) {
      finish();
      response.end();
      ended.complete(GrpcStatus.OK);
    }
  }

  private void fail(long index, Throwable failure) {
    finish();
    // 1-based in words; the index trailer stays 0-based, as it was
    String prefix = "Message " + (index + 1) + " of the stream: ";
    Throwable named = failure;
    if (failure instanceof ServiceException service) {
      Map<String, String> metadata = new HashMap<>(service.metadata());
      metadata.put("index", Long.toString(index));
      named =
          new ServiceException(
              service.code(), prefix + service.getMessage(), metadata, service.getCause());
    }
    GrpcErrors.fail(response, call.fullMethodName(), named, warnings);
    ended.complete(GrpcErrors.status(named));
  }

  private void deadlinePassed() {
    if (finished) {
      return;
    }
    finish();
    LOG.debug("{}: the deadline passed after {} requests", call.fullMethodName(), read);
    ServiceException exceeded = CallDeadline.exceeded();
    GrpcErrors.fail(response, call.fullMethodName(), exceeded, warnings);
    ended.complete(GrpcErrors.status(exceeded));
  }

  /** Checks the call's idleness {@code delayNanos} from now. */
  private void watchIdleness(long delayNanos) {
    idleTimer = Vertx.currentContext().owner().timer(delayNanos, TimeUnit.NANOSECONDS);
    idleTimer.onSuccess(fired -> checkIdleness());
  }

  /**
   * Ends the call when it has made no progress for the idle timeout; else checks again when it
   * would have. A create still at work in the service is progress: the wait is the service's.
   */
  private void checkIdleness() {
    if (finished) {
      return;
    }
    long now = System.nanoTime();
    if (!unanswered.isEmpty() && !unanswered.peek().isComplete()) {
      lastProgress = now;
    }
    long remaining = lastProgress + idleNanos - now;
    if (remaining > 0) {
      watchIdleness(remaining);
      return;
    }
    boolean unread = response.writeQueueFull();
    finish();
    LOG.debug(
        "{}: idle for {} after {} requests and {} replies; closed",
        call.fullMethodName(),
        TimeSpans.format(Duration.ofNanos(idleNanos)),
        read,
        answered);
    ServiceException idle =
        new ServiceException(
            ErrorCode.DEADLINE_EXCEEDED,
            "The stream sent no request and read no reply for "
                + TimeSpans.format(Duration.ofNanos(idleNanos))
                + " (Admission__StreamIdleTimeout) and was closed, so that it holds no place in"
                + " the service; open a new stream when there is more to send.");
    if (unread) {
      response.cancel();
    } else {
      GrpcErrors.fail(response, call.fullMethodName(), idle, warnings);
    }
    ended.complete(GrpcErrors.status(idle));
  }

  /** Ends the work of the call: no more replies, and the creates still queued go unsent. */
  private void finish() {
    finished = true;
    unanswered.clear();
    deadline.abandon();
    if (timer != null) {
      timer.cancel();
    }
    if (idleTimer != null) {
      idleTimer.cancel();
    }
  }

  private void clientLeft() {
    if (finished) {
      return;
    }
    finish();
    LOG.debug(
        "{} was left by the client after {} requests and {} replies",
        call.fullMethodName(),
        read,
        answered);
    ended.complete(GrpcStatus.CANCELLED);
  }

  /** The request in the message, inflated if the client compressed it with gzip. */
  private PseudonymServiceCreateRequest decode(GrpcMessage message) {
    Buffer payload = message.payload();
    if (!message.encoding().equals("identity")) {
      if (!message.encoding().equals("gzip")) {
        throw malformed("a message flagged compressed without a grpc-encoding");
      }
      try {
        payload = UnaryRequests.inflate(payload);
      } catch (IOException e) {
        throw malformed("a message that is not valid gzip");
      }
      if (payload == null) {
        throw tooLarge();
      }
    }
    try {
      return decoder.decode(GrpcMessage.message("identity", message.format(), payload));
    } catch (RuntimeException e) {
      throw malformed("a message that is not a valid CreateStream request");
    }
  }

  /** A request message the call cannot read, logged as {@link UnaryRequests} logs one. */
  private ServiceException malformed(String problem) {
    warnings.malformed("gRPC call of " + call.fullMethodName(), problem);
    return new ServiceException(
        ErrorCode.INVALID_ARGUMENT, "The request is malformed: " + problem + ".");
  }

  private ServiceException tooLarge() {
    warnings.malformed("gRPC call of " + call.fullMethodName(), "a message over the size limit");
    return new ServiceException(
        ErrorCode.RESOURCE_EXHAUSTED,
        "The request message is larger than " + UnaryRequests.MAX_MESSAGE_BYTES + " bytes.");
  }
}
