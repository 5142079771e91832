package org.vfps.http;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.StaticHandler;

/**
 * The API docs: the contract at {@code /openapi.json} and at {@code /swagger/v1/swagger.json}
 * (where the .NET service serves it), and a Swagger UI page at {@code /} and {@code /swagger},
 * served from the swagger-ui web jar so that it needs no internet access. The page loads the
 * contract as a script ({@code /swagger/v1/contract.js}), so it is drawn without a fetch.
 */
final class ApiDocs {

  /** The Swagger UI page; its filtered copy names the web jar's version. */
  private static final String PAGE = "docs/index.html";

  private static final String WEBJAR = "META-INF/resources/webjars/swagger-ui";

  private final ApiContract contract;
  private final Buffer contractScript;

  ApiDocs(ApiContract contract) {
    this.contract = contract;
    this.contractScript =
        Buffer.buffer("window.vfpsContract = ")
            .appendBuffer(contract.document())
            .appendString(";\n");
  }

  void mount(Router router) {
    for (String path : new String[] {"/openapi.json", "/swagger/v1/swagger.json"}) {
      router
          .get(path)
          .handler(
              rc ->
                  rc.response()
                      .putHeader(HttpHeaders.CONTENT_TYPE, RestRoutes.JSON)
                      .end(contract.document()));
    }
    router
        .get("/swagger/v1/contract.js")
        .handler(
            rc ->
                rc.response()
                    .putHeader(HttpHeaders.CONTENT_TYPE, "text/javascript; charset=utf-8")
                    .end(contractScript));
    for (String path : new String[] {"/", "/swagger", "/swagger/", "/swagger/index.html"}) {
      router
          .get(path)
          .handler(
              rc ->
                  rc.response()
                      .putHeader(HttpHeaders.CONTENT_TYPE, "text/html; charset=utf-8")
                      .sendFile(PAGE)
                      .onFailure(rc::fail));
    }
    router.get("/swagger/ui/*").handler(StaticHandler.create(WEBJAR));
  }
}
