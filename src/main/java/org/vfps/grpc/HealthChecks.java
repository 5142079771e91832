package org.vfps.grpc;

import com.google.protobuf.Descriptors;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.common.ServiceName;
import io.vertx.grpc.health.HealthService;
import io.vertx.grpc.health.handler.GrpcHealthCheckV1Handler;
import io.vertx.grpc.health.v1.HealthCheckResponse;
import io.vertx.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.vertx.grpc.server.GrpcServer;
import io.vertx.grpc.server.Service;
import java.util.function.Supplier;
import org.vfps.api.v1.NamespaceServiceGrpcService;
import org.vfps.api.v1.PseudonymServiceGrpcService;
import org.vfps.error.ServiceException;
import org.vfps.log.EdgeWarnings;

/**
 * {@code grpc.health.v1.Health}: the server ({@code ""}) and both vfps services are serving exactly
 * while the service is ready: start-up finished (the HTTP side too), no shutdown begun, and the
 * database answers, as in the .NET service.
 */
final class HealthChecks implements Service {

  private final HealthService health;
  private final Supplier<Future<Boolean>> ready;
  private final EdgeWarnings warnings;
  private final UnaryRequests requests;

  HealthChecks(Vertx vertx, Supplier<Future<Boolean>> ready, EdgeWarnings warnings) {
    this.ready = ready;
    this.warnings = warnings;
    this.requests = new UnaryRequests(warnings);
    this.health =
        HealthService.create(vertx)
            .register(NamespaceServiceGrpcService.SERVICE_NAME, ready)
            .register(PseudonymServiceGrpcService.SERVICE_NAME, ready);
  }

  @Override
  public ServiceName name() {
    return health.name();
  }

  @Override
  public Descriptors.ServiceDescriptor descriptor() {
    return health.descriptor();
  }

  @Override
  public void bind(GrpcServer grpc) {
    // Vert.x answers the server-wide check ("") with SERVING whatever is registered; this Check,
    // bound first so that it wins, makes load balancers see readiness too
    grpc.callHandler(
        GrpcHealthCheckV1Handler.SERVICE_METHOD,
        call ->
            requests
                .read(call, GrpcHealthCheckV1Handler.SERVICE_METHOD.decoder())
                .compose(
                    request ->
                        request.getService().isEmpty()
                            ? ready.get()
                            : health.checkStatus(request.getService()))
                .onComplete(
                    checked -> {
                      if (checked.cause() instanceof ServiceException malformed) {
                        GrpcErrors.fail(
                            call.response(), call.fullMethodName(), malformed, warnings);
                        return;
                      }
                      if (checked.failed()) {
                        call.response().status(GrpcStatus.NOT_FOUND).end();
                        return;
                      }
                      call.response()
                          .end(
                              HealthCheckResponse.newBuilder()
                                  .setStatus(
                                      checked.result()
                                          ? ServingStatus.SERVING
                                          : ServingStatus.NOT_SERVING)
                                  .build());
                    }));
    health.bind(grpc);
  }
}
