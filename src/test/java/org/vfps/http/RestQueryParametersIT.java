package org.vfps.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.ClassResources;
import org.vfps.HttpTestClient;
import org.vfps.HttpTestClient.Response;
import org.vfps.TestService;
import org.vfps.server.VfpsServer;

/**
 * The query parameters of a REST operation fill its request message as the {@code google.api.http}
 * rules transcode them: by the field's proto name or its JSON name, the proto name winning when
 * both are given; an integer as the contract types it; a parameter the contract does not declare
 * sets nothing.
 */
class RestQueryParametersIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static HttpTestClient http;
  private static String namespace;

  @BeforeAll
  static void start() {
    VfpsServer server = resources.own(TestService.start());
    http = resources.own(new HttpTestClient(server.httpPort()));
    namespace = "query-" + UUID.randomUUID();
    Response created =
        http.postJson(
            "/v1/namespaces",
            new JsonObject()
                .put("name", namespace)
                .put("pseudonymGenerationMethod", "PSEUDONYM_GENERATION_METHOD_UUID4")
                .put("pseudonymLength", 36)
                .encode());
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    for (String value : new String[] {"a", "b", "c"}) {
      Response pseudonym =
          http.postJson(
              "/v1/namespaces/" + namespace + "/pseudonyms",
              new JsonObject().put("originalValue", value).encode());
      assertThat(pseudonym.status()).as(pseudonym.body()).isEqualTo(200);
    }
  }

  private static int listed(String query) {
    Response page = http.get("/v1/namespaces/" + namespace + "/pseudonyms?" + query);
    assertThat(page.status()).as(page.body()).isEqualTo(200);
    return page.json().getJsonArray("pseudonyms").size();
  }

  @Test
  void aParameterIsReadByItsProtoNameOrItsJsonName() {
    assertThat(listed("page_size=1")).isEqualTo(1);
    assertThat(listed("pageSize=2")).isEqualTo(2);
  }

  @Test
  void theProtoNameWinsOverTheJsonName() {
    assertThat(listed("pageSize=2&page_size=1")).isEqualTo(1);
    assertThat(listed("page_size=2&pageSize=1")).isEqualTo(2);
  }

  @Test
  void aParameterTheContractDoesNotDeclareSetsNothing() {
    // namespace is a field of the List request, but the path's, not a parameter of the query
    Response page =
        http.get("/v1/namespaces/" + namespace + "/pseudonyms?page_size=1&namespace=elsewhere");

    assertThat(page.status()).as(page.body()).isEqualTo(200);
    assertThat(page.json().getJsonArray("pseudonyms")).hasSize(1);
  }
}
