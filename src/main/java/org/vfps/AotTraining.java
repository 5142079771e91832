package org.vfps;

import io.vertx.core.Vertx;
import io.vertx.core.net.SocketAddress;
import io.vertx.grpc.client.GrpcClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.vfps.api.v1.NamespaceServiceClient;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceGetRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.PseudonymServiceClient;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.api.v1.PseudonymServiceListRequest;
import org.vfps.config.ConfigLoader;

/**
 * The training run behind {@code vfps train}: starts the service on an embedded database in a
 * scratch directory, sends it the calls a user makes first (create a namespace, create, repeat and
 * list pseudonyms) and stops. Run under {@code -XX:AOTCacheOutput=vfps.aot}, it records the AOT
 * cache that makes later starts and first requests fast; the build does this for the jar it makes.
 */
final class AotTraining {

  private AotTraining() {}

  static void run() throws Exception {
    Path scratch = Files.createTempDirectory("vfps-aot-training");
    VfpsServer server =
        VfpsServer.start(
            ConfigLoader.load(
                Map.of(
                    "Database__Embedded__DataDirectory", scratch.resolve("postgres").toString(),
                    "Database__Embedded__Durable", "false",
                    "Grpc__Port", "0",
                    "Http__Port", "0",
                    "MetricsPort", "0")));
    Vertx vertx = Vertx.vertx();
    try {
      GrpcClient client = GrpcClient.client(vertx);
      SocketAddress address = SocketAddress.inetSocketAddress(server.grpcPort(), "127.0.0.1");
      NamespaceServiceClient namespaces = NamespaceServiceGrpcClient.create(client, address);
      PseudonymServiceClient pseudonyms = PseudonymServiceGrpcClient.create(client, address);
      namespaces
          .create(
              NamespaceServiceCreateRequest.newBuilder()
                  .setName("training")
                  .setPseudonymLength(32)
                  .build())
          .await();
      namespaces.get(NamespaceServiceGetRequest.newBuilder().setName("training").build()).await();
      for (int i = 0; i < 200; i++) {
        pseudonyms
            .create(
                PseudonymServiceCreateRequest.newBuilder()
                    .setNamespace("training")
                    .setOriginalValue("value-" + (i % 100))
                    .build())
            .await();
      }
      pseudonyms
          .list(
              PseudonymServiceListRequest.newBuilder()
                  .setNamespace("training")
                  .setPageSize(10)
                  .build())
          .await();
    } finally {
      vertx.close().await();
      server.close();
    }
  }
}
