package org.vfps.grpc;

import com.google.protobuf.Descriptors;
import com.google.protobuf.Message;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.grpc.common.GrpcMessage;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.common.ServiceMethod;
import io.vertx.grpc.common.ServiceName;
import io.vertx.grpc.common.WireFormat;
import io.vertx.grpc.server.GrpcServer;
import io.vertx.grpc.server.GrpcServerRequest;
import io.vertx.grpc.server.Service;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.access.Caller;
import org.vfps.access.Operation;
import org.vfps.admission.Admission;
import org.vfps.admission.CallDeadline;
import org.vfps.admission.CallLocals;
import org.vfps.admission.ReplyBytes;
import org.vfps.auth.Authenticator;
import org.vfps.log.EdgeWarnings;
import org.vfps.rpc.ApiMethod;
import org.vfps.rpc.ApiService;
import org.vfps.rpc.ClientStreamMethod;
import org.vfps.rpc.PagedListMethod;
import org.vfps.rpc.UnaryMethod;

/**
 * A gRPC service of the API table ({@link ApiService}) bound to the server: each {@link
 * UnaryMethod} is a function from caller and request to future response, the {@link
 * PagedListMethod} encodes its pages into one reply, the {@link ClientStreamMethod} serves its
 * stream ({@link CreateStreamCall}). The caller comes from the call's {@code authorization} header,
 * checked while the request is read. Unlike the generated bindings it answers failures with their
 * trailers (through {@link GrpcErrors}), rejects malformed unary requests as {@code
 * INVALID_ARGUMENT} ({@link UnaryRequests}) and leaves calls the client has cancelled unanswered,
 * at DEBUG; like them it carries the descriptor that reflection serves.
 *
 * <p>The authenticator refuses a caller without any right before its call takes a place. A unary
 * call asks {@link Admission} for a place of its caller when its work starts, once its request
 * message is in and its caller authenticated, so that a slow sender holds none; a streaming call
 * asks once its caller is authenticated and holds its place, and one of its caller's open streams,
 * while it is served. A call that finds none is answered {@code RESOURCE_EXHAUSTED} at once, naming
 * the bound: the replica's or the caller's share. A call's {@code grpc-timeout} is its {@link
 * CallDeadline}: the call is answered {@code DEADLINE_EXCEEDED} when it passes, wherever its work
 * waits, and work is not started once it has passed. A unary call's {@link ReplyBytes} are on its
 * context too: the storage reserves in them what it reads for the reply (a refusal is {@code
 * RESOURCE_EXHAUSTED}), and they are given back when the reply is written, or the call fails or is
 * left.
 */
final class BoundService implements Service {

  private static final Logger LOG = LoggerFactory.getLogger(BoundService.class);
  private static final String AUTHORIZATION = "authorization";

  private final ServiceName name;
  private final Descriptors.ServiceDescriptor descriptor;
  private final CallObserver observer;
  private final Authenticator authenticator;
  private final Admission admission;
  private final EdgeWarnings warnings;
  private final UnaryRequests requests;
  private final List<Consumer<GrpcServer>> bindings = new ArrayList<>();

  private BoundService(
      ServiceName name,
      Descriptors.ServiceDescriptor descriptor,
      CallObserver observer,
      Authenticator authenticator,
      Admission admission,
      EdgeWarnings warnings) {
    this.name = name;
    this.descriptor = JsonNamedDescriptors.of(descriptor);
    this.observer = observer;
    this.authenticator = authenticator;
    this.admission = admission;
    this.warnings = warnings;
    this.requests = new UnaryRequests(warnings);
  }

  /** The service with each method of {@code service} bound as its kind asks. */
  static BoundService of(
      ApiService service,
      CallObserver observer,
      Authenticator authenticator,
      Admission admission,
      EdgeWarnings warnings) {
    BoundService bound =
        new BoundService(
            service.name(), service.descriptor(), observer, authenticator, admission, warnings);
    for (ApiMethod method : service.methods()) {
      switch (method) {
        case UnaryMethod<?, ?> unary -> bound.unary(unary);
        case PagedListMethod list ->
            bound.encodedMethod(
                list.method(),
                list.permission(),
                (format, caller, request, bytes) -> {
                  NamespaceListPayload payload = new NamespaceListPayload(format);
                  return list.list()
                      .apply(caller, page -> bytes.reserve(payload.append(page)))
                      .map(done -> payload.finish());
                });
        case ClientStreamMethod stream ->
            bound.streaming(
                stream.method(),
                stream.permission(),
                (caller, call, deadline) ->
                    new CreateStreamCall(
                            call,
                            stream.method().decoder(),
                            caller,
                            stream.create(),
                            observer,
                            deadline,
                            admission.streamIdleTimeout(),
                            warnings)
                        .serve());
      }
    }
    return bound;
  }

  private <Req extends Message, Resp extends Message> void unary(UnaryMethod<Req, Resp> unary) {
    method(unary.method(), unary.permission(), unary.call());
  }

  /**
   * Binds the method, which runs {@code operation}, to the handler; a handler may fail its future
   * or throw.
   */
  private <Req, Resp> BoundService method(
      ServiceMethod<Req, Resp> method, Operation operation, UnaryMethod.Call<Req, Resp> handler) {
    return bind(
        method,
        operation,
        (call, caller, request, bytes) -> handler.apply(caller, request),
        (call, reply) -> call.response().end(reply));
  }

  /**
   * Binds the method to a handler that builds the response already encoded in the call's wire
   * format (see {@link GrpcServerRequest#format()}), piece by piece rather than as one message
   * object, reserving its bytes in the call's {@link ReplyBytes} as it grows (and failing when they
   * do not fit).
   */
  private <Req, Resp> BoundService encodedMethod(
      ServiceMethod<Req, Resp> method, Operation operation, EncodedHandler<Req> handler) {
    return bind(
        method,
        operation,
        (call, caller, request, bytes) -> handler.apply(call.format(), caller, request, bytes),
        (call, encoded) ->
            call.response().endMessage(GrpcMessage.message("identity", call.format(), encoded)));
  }

  /** A handler whose reply is the encoded response message. */
  interface EncodedHandler<Req> {
    Future<Buffer> apply(WireFormat format, Caller caller, Req request, ReplyBytes bytes);
  }

  private interface CallHandler<Req, Resp, T> {
    Future<T> apply(
        GrpcServerRequest<Req, Resp> call, Caller caller, Req request, ReplyBytes bytes);
  }

  /**
   * Binds a unary method: {@code handler} runs the call's work, {@code reply} writes its result.
   * The call's {@link ReplyBytes}, into which the storage reserves what it reads for the reply, are
   * given back once the reply is written, or the call failed or was left.
   */
  private <Req, Resp, T> BoundService bind(
      ServiceMethod<Req, Resp> method,
      Operation operation,
      CallHandler<Req, Resp, T> handler,
      BiFunction<GrpcServerRequest<Req, Resp>, T, Future<Void>> reply) {
    bindOpened(
        method,
        (call, names, started, deadline) -> {
          ReplyBytes bytes = ReplyBytes.begin(Vertx.currentContext(), admission);
          CallEnding ending =
              new CallEnding(
                  call,
                  deadline,
                  admission,
                  () -> {
                    LOG.debug("{} was left by the client before its reply", names.fullName());
                    completed(names, GrpcStatus.CANCELLED, started);
                  });
          Handler<AsyncResult<T>> answer =
              outcome -> {
                if (!ending.end()) {
                  // answered at its deadline, or left by its client
                  bytes.release();
                  return;
                }
                GrpcStatus status =
                    outcome.succeeded() ? GrpcStatus.OK : GrpcErrors.status(outcome.cause());
                completed(names, status, started);
                if (outcome.succeeded()) {
                  reply.apply(call, outcome.result()).onComplete(written -> bytes.release());
                } else {
                  bytes.release();
                  GrpcErrors.fail(call.response(), names.fullName(), outcome.cause(), warnings);
                }
              };
          Future<Req> request = requests.read(call, method.decoder());
          ending.atDeadline(() -> answer.handle(Future.failedFuture(CallDeadline.exceeded())));
          caller(call, operation)
              .compose(
                  authenticated ->
                      // the work starts once the message is in: a slow sender holds
                      // no place
                      request.compose(
                          r -> {
                            if (deadline.passed()) {
                              return Future.failedFuture(CallDeadline.exceeded());
                            }
                            Optional<Admission.Limit> refusal =
                                ending.admit(authenticated.admissionKey());
                            if (refusal.isPresent()) {
                              return Future.failedFuture(Admission.overloaded(refusal.get()));
                            }
                            return handler.apply(call, authenticated, r, bytes);
                          }))
              .onComplete(answer);
        });
    return this;
  }

  /**
   * Adds the binding of {@code method}: each of its calls is opened ({@link #open}) as it comes in
   * and then given to {@code handler}.
   */
  private <Req, Resp> void bindOpened(
      ServiceMethod<Req, Resp> method, OpenedCallHandler<Req, Resp> handler) {
    MethodNames names = MethodNames.of(method);
    bindings.add(
        server ->
            server.callHandler(
                method,
                call -> {
                  long started = System.nanoTime();
                  handler.serve(call, names, started, open(call, names, started));
                }));
  }

  /** Serves a call that is open: its observer told that it started, its deadline taken. */
  private interface OpenedCallHandler<Req, Resp> {
    void serve(
        GrpcServerRequest<Req, Resp> call, MethodNames names, long started, CallDeadline deadline);
  }

  /** The names of a bound method, taken once when it is bound. */
  private record MethodNames(String fullName, String service, String method) {

    static MethodNames of(ServiceMethod<?, ?> method) {
      return new MethodNames(
          method.fullMethodName(), method.serviceName().fullyQualifiedName(), method.methodName());
    }
  }

  /**
   * Opens a call that came in at {@code started}: tells the observer it started and returns its
   * deadline, from its {@code grpc-timeout}, kept on the call's context.
   */
  private CallDeadline open(GrpcServerRequest<?, ?> call, MethodNames names, long started) {
    observer.started(names.service(), names.method());
    return CallDeadline.begin(
        Vertx.currentContext(), started, GrpcTimeout.nanos(call.headers().get(GrpcTimeout.HEADER)));
  }

  /** Tells the observer that the call opened at {@code started} ended with {@code status}. */
  private void completed(MethodNames names, GrpcStatus status, long started) {
    observer.completed(names.service(), names.method(), status, System.nanoTime() - started);
  }

  /**
   * Binds a streaming method, which runs {@code operation}: the call's requests wait (the call is
   * paused) until its caller is authenticated and has opened a stream in {@link Admission}; then
   * {@code handler} serves the call, ends it and completes with the status it ended it with. The
   * call holds its places until then.
   */
  private <Req, Resp> BoundService streaming(
      ServiceMethod<Req, Resp> method, Operation operation, StreamHandler<Req, Resp> handler) {
    bindOpened(
        method,
        (call, names, started, deadline) -> {
          // the stream may close before it is served, and its handlers set
          Future<Void> closed = CallLocals.streamClosed();
          call.pause();
          caller(call, operation)
              .transform(
                  caller -> {
                    Throwable failure =
                        deadline.passed() ? CallDeadline.exceeded() : caller.cause();
                    if (failure == null && closed.isComplete()) {
                      LOG.debug("{} was left by the client before it was served", names.fullName());
                      return Future.succeededFuture(GrpcStatus.CANCELLED);
                    }
                    if (failure == null) {
                      Object key = caller.result().admissionKey();
                      Optional<Admission.Limit> refusal = admission.tryOpenStream(key);
                      if (refusal.isEmpty()) {
                        try {
                          return handler
                              .serve(caller.result(), call, deadline)
                              .andThen(served -> admission.closeStream(key));
                        } catch (RuntimeException e) {
                          admission.closeStream(key);
                          throw e;
                        }
                      }
                      failure = Admission.overloaded(refusal.get());
                    }
                    GrpcErrors.fail(call.response(), names.fullName(), failure, warnings);
                    return Future.succeededFuture(GrpcErrors.status(failure));
                  })
              .onComplete(
                  status -> {
                    completed(
                        names, status.succeeded() ? status.result() : GrpcStatus.INTERNAL, started);
                  });
        });
    return this;
  }

  /** Serves a streaming call until it ends. */
  interface StreamHandler<Req, Resp> {

    /**
     * Serves the call, whose requests are paused, answering it {@code DEADLINE_EXCEEDED} when
     * {@code deadline} passes; the future yields the status the call ended with.
     */
    Future<GrpcStatus> serve(
        Caller caller, GrpcServerRequest<Req, Resp> call, CallDeadline deadline);
  }

  /** The caller of the call, from its {@code authorization} header, allowed to try {@code op}. */
  private Future<Caller> caller(GrpcServerRequest<?, ?> call, Operation op) {
    return authenticator.authenticate(
        call.headers().get(AUTHORIZATION), call.connection().remoteAddress().hostAddress(), op);
  }

  @Override
  public ServiceName name() {
    return name;
  }

  @Override
  public Descriptors.ServiceDescriptor descriptor() {
    return descriptor;
  }

  @Override
  public void bind(GrpcServer server) {
    bindings.forEach(binding -> binding.accept(server));
  }
}
