package org.vfps.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.grpc.common.GrpcMessageDecoder;
import io.vertx.grpc.common.GrpcMessageEncoder;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.common.ServiceMethod;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.ClassResources;
import org.vfps.GrpcTestClient;
import org.vfps.HttpTestClient;
import org.vfps.TestService;
import org.vfps.server.VfpsServer;

/**
 * Every method of the table is served by both edges: over gRPC its call is answered with some
 * status other than {@code UNIMPLEMENTED}, over REST (unless it is the gRPC stream) its contract
 * route reaches it rather than the router's 404 or 405. The calls carry empty requests, so most
 * fail in the domain, which is enough: the method was there to fail.
 */
class ApiMethodsReachableIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  /** What the router answers a path no route has, {@code HttpErrors}'s message. */
  private static final String NO_ROUTE = "No resource has this path.";

  private static GrpcTestClient grpc;
  private static HttpTestClient http;

  @BeforeAll
  static void start() {
    VfpsServer server = resources.own(TestService.start());
    grpc = resources.own(new GrpcTestClient(server.grpcPort()));
    http = resources.own(new HttpTestClient(server.httpPort()));
  }

  @Test
  void everyMethodAnswersOverGrpc() {
    for (ApiMethod method : ApiMethodsTest.table()) {
      ServiceMethod<Buffer, Buffer> call =
          ServiceMethod.client(
              method.method().serviceName(),
              method.method().methodName(),
              GrpcMessageEncoder.IDENTITY,
              GrpcMessageDecoder.IDENTITY);

      // an empty message is the request with every field unset
      GrpcTestClient.Reply<Buffer> reply = grpc.call(call, Buffer.buffer());

      assertThat(reply.status())
          .as(method.method().fullMethodName() + ": " + reply.message())
          .isNotEqualTo(GrpcStatus.UNIMPLEMENTED);
    }
  }

  @Test
  void everyMethodWithARouteAnswersOverRest() throws Exception {
    JsonObject paths = ApiMethodsTest.contract().getJsonObject("paths");
    int routed = 0;
    for (ApiMethod method : ApiMethodsTest.table()) {
      if (method instanceof ClientStreamMethod) {
        continue;
      }
      Route route = route(paths, method.operationId());

      HttpTestClient.Response response =
          http.send(route.method(), route.path(), Map.of(), route.body() ? "{}" : null);

      String answer = method.operationId() + ": " + response.status() + " " + response.body();
      assertThat(response.status()).as(answer).isNotIn(405, 501);
      if (response.status() == 404) {
        assertThat(response.json().getString("message")).as(answer).isNotEqualTo(NO_ROUTE);
      }
      routed++;
    }
    assertThat(routed).isEqualTo(ApiMethodsTest.table().size() - 1);
  }

  /** A request of the operation: its method, its path with each variable filled, its body. */
  private record Route(String method, String path, boolean body) {}

  private static Route route(JsonObject paths, String operationId) {
    for (String path : paths.fieldNames()) {
      JsonObject item = paths.getJsonObject(path);
      for (String verb : item.fieldNames()) {
        if (item.getValue(verb) instanceof JsonObject operation
            && operationId.equals(operation.getString("operationId"))) {
          return new Route(
              verb.toUpperCase(java.util.Locale.ROOT),
              path.replaceAll("\\{[^}]+}", "reachable"),
              operation.containsKey("requestBody"));
        }
      }
    }
    throw new AssertionError("The contract has no operation " + operationId);
  }
}
