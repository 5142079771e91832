package org.vfps.grpc;

import com.google.protobuf.Descriptors;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.grpc.common.GrpcMessageDecoder;
import io.vertx.grpc.common.GrpcMessageEncoder;
import io.vertx.grpc.common.ServiceMethod;
import io.vertx.grpc.common.ServiceName;
import io.vertx.grpc.reflection.ReflectionService;
import io.vertx.grpc.reflection.v1.ServerReflectionRequest;
import io.vertx.grpc.reflection.v1.ServerReflectionResponse;
import io.vertx.grpc.server.GrpcServer;
import io.vertx.grpc.server.GrpcServerRequest;
import io.vertx.grpc.server.Service;
import java.util.List;

/**
 * Server reflection under its pre-release name {@code grpc.reflection.v1alpha}, which tools such as
 * ghz and older grpcurl and Postman versions ask for (the .NET service answers it too). The v1alpha
 * messages are the v1 messages under another package, so Vert.x's v1 handler answers them
 * unchanged.
 */
final class LegacyReflection implements Service {

  private static final ServiceName NAME =
      ServiceName.create("grpc.reflection.v1alpha", "ServerReflection");
  private static final ServiceMethod<ServerReflectionRequest, ServerReflectionResponse> METHOD =
      ServiceMethod.server(
          NAME,
          "ServerReflectionInfo",
          GrpcMessageEncoder.encoder(),
          GrpcMessageDecoder.decoder(ServerReflectionRequest.newBuilder()));

  @Override
  public ServiceName name() {
    return NAME;
  }

  @Override
  public Descriptors.ServiceDescriptor descriptor() {
    // listed by reflection as the v1 service; clients of either name find what they ask for
    return ReflectionService.v1().descriptor();
  }

  @Override
  @SuppressWarnings("unchecked")
  public void bind(GrpcServer server) {
    Handler<?>[] v1 = new Handler<?>[1];
    // Vert.x keeps its v1 handler private; have it bind to a server that only hands it over
    ReflectionService.v1()
        .bind(
            new GrpcServer() {
              @Override
              public GrpcServer callHandler(
                  Handler<
                          GrpcServerRequest<
                              io.vertx.core.buffer.Buffer, io.vertx.core.buffer.Buffer>>
                      handler) {
                return this;
              }

              @Override
              public <Req, Resp> GrpcServer callHandler(
                  ServiceMethod<Req, Resp> method, Handler<GrpcServerRequest<Req, Resp>> handler) {
                v1[0] = handler;
                return this;
              }

              @Override
              public GrpcServer addService(Service service) {
                return this;
              }

              @Override
              public List<Service> services() {
                return server.services();
              }

              @Override
              public void handle(HttpServerRequest request) {}
            });
    server.callHandler(
        METHOD,
        (Handler<GrpcServerRequest<ServerReflectionRequest, ServerReflectionResponse>>) v1[0]);
  }
}
