package org.vfps.grpc;

import com.google.protobuf.Descriptors;
import io.vertx.core.Future;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.common.ServiceMethod;
import io.vertx.grpc.common.ServiceName;
import io.vertx.grpc.server.GrpcServer;
import io.vertx.grpc.server.Service;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A gRPC service of unary methods, each a function from request to future response. Unlike the
 * generated bindings it answers failures with their trailers (through {@link GrpcErrors}), rejects
 * malformed requests as {@code INVALID_ARGUMENT} ({@link UnaryRequests}) and leaves calls the
 * client has cancelled unanswered, at DEBUG; like them it carries the descriptor that reflection
 * serves.
 */
final class UnaryService implements Service {

  private static final Logger LOG = LoggerFactory.getLogger(UnaryService.class);

  private final ServiceName name;
  private final Descriptors.ServiceDescriptor descriptor;
  private final CallObserver observer;
  private final List<Consumer<GrpcServer>> bindings = new ArrayList<>();

  UnaryService(ServiceName name, Descriptors.ServiceDescriptor descriptor, CallObserver observer) {
    this.name = name;
    this.descriptor = JsonNamedDescriptors.of(descriptor);
    this.observer = observer;
  }

  /** Binds the method to the handler; a handler may fail its future or throw. */
  <Req, Resp> UnaryService method(
      ServiceMethod<Req, Resp> method, Function<Req, Future<Resp>> handler) {
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
                  UnaryRequests.read(call, method.decoder())
                      .compose(handler)
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
