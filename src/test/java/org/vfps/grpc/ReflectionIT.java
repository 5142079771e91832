package org.vfps.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import io.vertx.grpc.common.GrpcMessageDecoder;
import io.vertx.grpc.common.GrpcMessageEncoder;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.common.ServiceMethod;
import io.vertx.grpc.common.ServiceName;
import io.vertx.grpc.reflection.v1.ServerReflectionRequest;
import io.vertx.grpc.reflection.v1.ServerReflectionResponse;
import io.vertx.grpc.reflection.v1.ServiceResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.vfps.GrpcTestClient;
import org.vfps.GrpcTestClient.Reply;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.server.VfpsServer;

public class ReflectionIT {

  public static final ServiceMethod<ServerReflectionResponse, ServerReflectionRequest> REFLECTION =
      ServiceMethod.client(
          ServiceName.create("grpc.reflection.v1", "ServerReflection"),
          "ServerReflectionInfo",
          GrpcMessageEncoder.encoder(),
          GrpcMessageDecoder.decoder(ServerReflectionResponse.newBuilder()));

  static final ServiceMethod<ServerReflectionResponse, ServerReflectionRequest> V1ALPHA =
      ServiceMethod.client(
          ServiceName.create("grpc.reflection.v1alpha", "ServerReflection"),
          "ServerReflectionInfo",
          GrpcMessageEncoder.encoder(),
          GrpcMessageDecoder.decoder(ServerReflectionResponse.newBuilder()));

  public static final ServerReflectionRequest LIST_SERVICES =
      ServerReflectionRequest.newBuilder().setListServices("").build();

  @Test
  void reflectionListsTheServicesByDefault() {
    try (VfpsServer server = TestService.start();
        GrpcTestClient client = new GrpcTestClient(server.grpcPort())) {
      ServerReflectionResponse response = client.ok(REFLECTION, LIST_SERVICES);

      assertThat(response.getListServicesResponse().getServiceList())
          .extracting(ServiceResponse::getName)
          .contains(
              "vfps.api.v1.NamespaceService",
              "vfps.api.v1.PseudonymService",
              "grpc.health.v1.Health");
    }
  }

  @Test
  void thePreReleaseV1alphaNameAnswersTooForOlderTools() {
    try (VfpsServer server = TestService.start();
        GrpcTestClient client = new GrpcTestClient(server.grpcPort())) {
      assertThat(client.ok(V1ALPHA, LIST_SERVICES).getListServicesResponse().getServiceList())
          .extracting(ServiceResponse::getName)
          .contains("vfps.api.v1.PseudonymService");
    }
  }

  @Test
  void servedDescriptorsCarryJsonNamesSoClientsCanWriteCamelCase() throws Exception {
    try (VfpsServer server = TestService.start();
        GrpcTestClient client = new GrpcTestClient(server.grpcPort())) {
      ServerReflectionResponse response =
          client.ok(
              REFLECTION,
              ServerReflectionRequest.newBuilder()
                  .setFileContainingSymbol("vfps.api.v1.PseudonymService")
                  .build());

      List<FileDescriptorProto> files = new ArrayList<>();
      for (ByteString bytes : response.getFileDescriptorResponse().getFileDescriptorProtoList()) {
        files.add(FileDescriptorProto.parseFrom(bytes));
      }
      assertThat(files)
          .flatExtracting(FileDescriptorProto::getMessageTypeList)
          .filteredOn(message -> message.getName().equals("PseudonymServiceCreateRequest"))
          .flatExtracting(DescriptorProto::getFieldList)
          .extracting(FieldDescriptorProto::getJsonName)
          .containsExactly("namespace", "originalValue", "count");
    }
  }

  @Test
  void reflectionCanBeTurnedOff() {
    try (VfpsServer server =
            TestService.start(
                Map.of(
                    "ConnectionStrings__PostgreSQL",
                    TestPostgres.uri(),
                    "Grpc__Reflection__IsEnabled",
                    "false"));
        GrpcTestClient client = new GrpcTestClient(server.grpcPort())) {
      Reply<ServerReflectionResponse> reply = client.call(REFLECTION, LIST_SERVICES);

      assertThat(reply.status()).isEqualTo(GrpcStatus.UNIMPLEMENTED);
    }
  }
}
