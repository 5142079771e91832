package org.vfps.grpc;

import com.google.protobuf.Descriptors;
import io.vertx.core.Future;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.common.ServiceMethod;
import io.vertx.grpc.common.ServiceName;
import io.vertx.grpc.server.GrpcServer;
import io.vertx.grpc.server.GrpcServerRequest;
import io.vertx.grpc.server.Service;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.access.Caller;
import org.vfps.access.Operation;
import org.vfps.auth.Authenticator;

/**
 * A gRPC service of unary methods, each a function from caller and request to future response, and
 * of streaming methods that serve their call themselves ({@link #streaming}). The caller comes from
 * the call's {@code authorization} header, checked while the request is read. Unlike the generated
 * bindings it answers failures with their trailers (through {@link GrpcErrors}), rejects malformed
 * unary requests as {@code INVALID_ARGUMENT} ({@link UnaryRequests}) and leaves calls the client
 * has cancelled unanswered, at DEBUG; like them it carries the descriptor that reflection serves.
 */
final class UnaryService implements Service {

  private static final Logger LOG = LoggerFactory.getLogger(UnaryService.class);
  private static final String AUTHORIZATION = "authorization";

  private final ServiceName name;
  private final Descriptors.ServiceDescriptor descriptor;
  private final CallObserver observer;
  private final Authenticator authenticator;
  private final List<Consumer<GrpcServer>> bindings = new ArrayList<>();

  UnaryService(
      ServiceName name,
      Descriptors.ServiceDescriptor descriptor,
      CallObserver observer,
      Authenticator authenticator) {
    this.name = name;
    this.descriptor = JsonNamedDescriptors.of(descriptor);
    this.observer = observer;
    this.authenticator = authenticator;
  }

  /**
   * Binds the method, which runs {@code operation}, to the handler; a handler may fail its future
   * or throw.
   */
  <Req, Resp> UnaryService method(
      ServiceMethod<Req, Resp> method,
      Operation operation,
      BiFunction<Caller, Req, Future<Resp>> handler) {
    String fullName = method.fullMethodName();
    String service = method.serviceName().fullyQualifiedName();
    String methodName = method.methodName();
    bindings.add(
        server ->
            server.callHandler(
                method,
                call -> {
                  long started = System.nanoTime();
                  observer.started(service, methodName);
                  CallEnding ending =
                      new CallEnding(
                          call,
                          () -> {
                            LOG.debug("{} was left by the client before its reply", fullName);
                            observer.completed(
                                service,
                                methodName,
                                GrpcStatus.CANCELLED,
                                System.nanoTime() - started);
                          });
                  Future<Req> request = UnaryRequests.read(call, method.decoder());
                  caller(call, operation)
                      .compose(
                          authenticated -> request.compose(r -> handler.apply(authenticated, r)))
                      .onComplete(
                          reply -> {
                            if (!ending.end()) {
                              return;
                            }
                            GrpcStatus status =
                                reply.succeeded()
                                    ? GrpcStatus.OK
                                    : GrpcErrors.status(reply.cause());
                            observer.completed(
                                service, methodName, status, System.nanoTime() - started);
                            if (reply.succeeded()) {
                              call.response().end(reply.result());
                            } else {
                              GrpcErrors.fail(call.response(), fullName, reply.cause());
                            }
                          });
                }));
    return this;
  }

  /**
   * Binds a streaming method, which runs {@code operation}: the call's requests wait (the call is
   * paused) until its caller is authenticated; then {@code handler} serves the call, ends it and
   * completes with the status it ended it with.
   */
  <Req, Resp> UnaryService streaming(
      ServiceMethod<Req, Resp> method,
      Operation operation,
      BiFunction<Caller, GrpcServerRequest<Req, Resp>, Future<GrpcStatus>> handler) {
    String fullName = method.fullMethodName();
    String service = method.serviceName().fullyQualifiedName();
    String methodName = method.methodName();
    bindings.add(
        server ->
            server.callHandler(
                method,
                call -> {
                  long started = System.nanoTime();
                  observer.started(service, methodName);
                  call.pause();
                  caller(call, operation)
                      .transform(
                          caller -> {
                            if (caller.succeeded()) {
                              return handler.apply(caller.result(), call);
                            }
                            GrpcErrors.fail(call.response(), fullName, caller.cause());
                            return Future.succeededFuture(GrpcErrors.status(caller.cause()));
                          })
                      .onComplete(
                          status ->
                              observer.completed(
                                  service,
                                  methodName,
                                  status.succeeded() ? status.result() : GrpcStatus.INTERNAL,
                                  System.nanoTime() - started));
                }));
    return this;
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
