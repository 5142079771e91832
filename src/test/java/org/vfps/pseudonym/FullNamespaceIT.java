package org.vfps.pseudonym;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import io.vertx.grpc.common.GrpcStatus;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.vfps.GrpcTestClient;
import org.vfps.GrpcTestClient.Reply;
import org.vfps.HttpTestClient;
import org.vfps.HttpTestClient.Response;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.PseudonymGenerationMethod;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceCreateResponse;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.server.VfpsServer;

/**
 * A namespace whose pseudonym space runs out hands out 90 % of it, then answers {@code
 * RESOURCE_EXHAUSTED} naming itself and its figures, on every edge.
 */
class FullNamespaceIT {

  /** Hex of length 2: 256 pseudonyms. */
  private static final int SPACE = 256;

  @Test
  void aSmallNamespaceIsFilledToNinetyPercentThenAnswersResourceExhausted() {
    try (VfpsServer server = TestService.start();
        GrpcTestClient client = new GrpcTestClient(server.grpcPort());
        HttpTestClient http = new HttpTestClient(server.httpPort())) {
      String namespace = hexOfLengthTwo(client, false);

      Set<String> handedOut = new HashSet<>();
      Reply<PseudonymServiceCreateResponse> reply = create(client, namespace, "value-0");
      while (reply.status() == GrpcStatus.OK) {
        handedOut.add(reply.body().getPseudonym().getPseudonymValue());
        reply = create(client, namespace, "value-" + handedOut.size());
      }

      // 90 % of 256 is 230.4: the namespace is full from 231 on
      assertThat(handedOut).hasSizeGreaterThanOrEqualTo(231);
      assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(handedOut.size());
      assertThat(reply.status()).isEqualTo(GrpcStatus.RESOURCE_EXHAUSTED);
      assertThat(reply.message())
          .contains(namespace)
          .contains("it holds " + handedOut.size() + " of the 256 pseudonyms")
          .contains("longer pseudonym length");
      assertThat(reply.trailers().get("namespace")).isEqualTo(namespace);

      // a Create still finds a free pseudonym now and then in its first candidates: filled to the
      // last one, a new value fails as well, and an old one still works
      for (int i = handedOut.size(); TestPostgres.pseudonymCount(namespace) < SPACE; i++) {
        create(client, namespace, "more-" + i);
      }
      assertThat(create(client, namespace, "one-too-many").status())
          .isEqualTo(GrpcStatus.RESOURCE_EXHAUSTED);
      assertThat(create(client, namespace, "value-0").status()).isEqualTo(GrpcStatus.OK);

      Response rest =
          http.postJson(
              "/v1/namespaces/" + namespace + "/pseudonyms", "{\"originalValue\": \"rest\"}");
      assertThat(rest.status()).isEqualTo(429);
      assertThat(rest.json().getInteger("code")).isEqualTo(GrpcStatus.RESOURCE_EXHAUSTED.code);
      assertThat(rest.json().getString("message")).contains(namespace);

      Response fhir =
          http.post(
              "/v1/fhir/$create-pseudonym",
              "application/fhir+json",
              new JsonObject()
                  .put("resourceType", "Parameters")
                  .put(
                      "parameter",
                      new io.vertx.core.json.JsonArray()
                          .add(
                              new JsonObject()
                                  .put("name", "namespace")
                                  .put("valueString", namespace))
                          .add(
                              new JsonObject()
                                  .put("name", "originalValue")
                                  .put("valueString", "fhir")))
                  .toBuffer()
                  .getBytes());
      assertThat(fhir.status()).isEqualTo(429);
      assertThat(fhir.json().getString("resourceType")).isEqualTo("OperationOutcome");
      assertThat(fhir.body()).contains(namespace);
    }
  }

  @Test
  void moreSequenceNumbersThanAFullNamespaceHasLeftAreResourceExhausted() {
    try (VfpsServer server = TestService.start();
        GrpcTestClient client = new GrpcTestClient(server.grpcPort())) {
      String namespace = hexOfLengthTwo(client, true);
      assertThat(
              client
                  .ok(
                      PseudonymServiceGrpcClient.Create,
                      PseudonymServiceCreateRequest.newBuilder()
                          .setNamespace(namespace)
                          .setOriginalValue("many")
                          .setCount(240)
                          .build())
                  .getPseudonymsList())
          .hasSize(240);

      // 20 more than the 16 left
      Reply<PseudonymServiceCreateResponse> reply =
          client.call(
              PseudonymServiceGrpcClient.Create,
              PseudonymServiceCreateRequest.newBuilder()
                  .setNamespace(namespace)
                  .setOriginalValue("more")
                  .setCount(20)
                  .build());

      assertThat(reply.status()).isEqualTo(GrpcStatus.RESOURCE_EXHAUSTED);
      assertThat(reply.message())
          .contains(
              "it holds " + TestPostgres.pseudonymCount(namespace) + " of the 256 pseudonyms");
    }
  }

  /** A new namespace of hex pseudonyms of length 2: 256 of them. */
  private static String hexOfLengthTwo(GrpcTestClient client, boolean multiplePseudonyms) {
    String namespace = "full-" + UUID.randomUUID();
    client.ok(
        NamespaceServiceGrpcClient.Create,
        NamespaceServiceCreateRequest.newBuilder()
            .setName(namespace)
            .setPseudonymGenerationMethod(
                PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_FULL_RANDOM_HEX_ENCODED)
            .setPseudonymLength(2)
            .setAllowsMultiplePseudonyms(multiplePseudonyms)
            .build());
    return namespace;
  }

  private static Reply<PseudonymServiceCreateResponse> create(
      GrpcTestClient client, String namespace, String value) {
    return client.call(
        PseudonymServiceGrpcClient.Create,
        PseudonymServiceCreateRequest.newBuilder()
            .setNamespace(namespace)
            .setOriginalValue(value)
            .build());
  }
}
