package org.vfps.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.ClassResources;
import org.vfps.HttpTestClient;
import org.vfps.HttpTestClient.Response;
import org.vfps.TestService;
import org.vfps.server.BuildInfo;
import org.vfps.server.VfpsServer;

/** The contract and the Swagger UI page are served, with everything the page loads. */
class ApiDocsIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static final Pattern ASSET = Pattern.compile("(?:src|href)=\"(/[^\"]+)\"");

  private static VfpsServer server;
  private static HttpTestClient http;

  @BeforeAll
  static void start() {
    server = resources.own(TestService.start());
    http = resources.own(new HttpTestClient(server.httpPort()));
  }

  /**
   * The contract as the service serves it: the resource, with the running build's version and
   * revision in its {@code info}.
   */
  private static JsonObject servedContract() throws IOException {
    try (InputStream in =
        ApiDocsIT.class.getClassLoader().getResourceAsStream(ApiContract.RESOURCE)) {
      JsonObject contract = new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      BuildInfo build = BuildInfo.current();
      contract
          .getJsonObject("info")
          .put("version", build.version())
          .put(ApiContract.REVISION, build.revision());
      return contract;
    }
  }

  @Test
  void theContractIsServedAsWrittenWithTheBuildInItsInfoWhereToolsLookForIt() throws IOException {
    for (String path : List.of("/openapi.json", "/swagger/v1/swagger.json")) {
      Response response = http.get(path);
      assertThat(response.status()).as(path).isEqualTo(200);
      assertThat(response.contentType()).isEqualTo("application/json; charset=utf-8");
      assertThat(response.json()).isEqualTo(servedContract());
      assertThat(response.json().getString("openapi")).startsWith("3.1");
    }
  }

  @Test
  void theDocsPageLoadsOnlyAssetsTheServiceServes() {
    for (String page : List.of("/", "/swagger", "/swagger/index.html")) {
      Response response = http.get(page);
      assertThat(response.status()).as(page).isEqualTo(200);
      assertThat(response.contentType()).isEqualTo("text/html; charset=utf-8");
      assertThat(response.body()).contains("SwaggerUIBundle").doesNotContain("${");
      Matcher assets = ASSET.matcher(response.body());
      int count = 0;
      while (assets.find()) {
        Response asset = http.get(assets.group(1));
        assertThat(asset.status()).as(assets.group(1)).isEqualTo(200);
        assertThat(asset.body()).as(assets.group(1)).isNotEmpty();
        count++;
      }
      assertThat(count).as("assets of " + page).isGreaterThanOrEqualTo(3);
      assertThat(response.body()).doesNotContain("http://", "https://");
    }
  }

  @Test
  void theContractScriptHoldsTheContract() throws IOException {
    Response script = http.get("/swagger/v1/contract.js");

    assertThat(script.status()).isEqualTo(200);
    assertThat(script.contentType()).startsWith("text/javascript");
    String body = script.body().strip();
    assertThat(body).startsWith("window.vfpsContract = ").endsWith(";");
    String json = body.substring("window.vfpsContract = ".length(), body.length() - 1);
    assertThat(new JsonObject(json)).isEqualTo(servedContract());
  }
}
