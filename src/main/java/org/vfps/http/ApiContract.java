package org.vfps.http;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.openapi.contract.OpenAPIContract;

/**
 * The REST contract ({@value #RESOURCE}, OpenAPI 3.1): what the router binds and validates, and
 * what the docs serve. Loaded once, shared by every verticle instance.
 *
 * @param document the contract as written, to serve
 */
public record ApiContract(OpenAPIContract contract, Buffer document) {

  /** The class path resource holding the contract. */
  public static final String RESOURCE = "openapi/vfps.json";

  private static final String FHIR_JSON = "application/fhir+json";

  /** Reads and checks the contract without blocking (it takes most of a second, cold). */
  public static Future<ApiContract> load(Vertx vertx) {
    return vertx
        .fileSystem()
        .readFile(RESOURCE)
        .compose(
            document ->
                OpenAPIContract.from(vertx, forParser(document.toJsonObject()))
                    .map(contract -> new ApiContract(contract, document)));
  }

  /**
   * The contract as Vert.x's parser takes it: the parser refuses media types other than {@code
   * application/json} and {@code vnd.*+json}, so the FHIR replies' {@code application/fhir+json} is
   * renamed {@code application/json} in its copy. The FHIR routes are not validated by the
   * contract, so the router loses nothing; the document served keeps the true type.
   */
  private static JsonObject forParser(JsonObject contract) {
    String json = contract.encode();
    return new JsonObject(json.replace("\"" + FHIR_JSON + "\":", "\"application/json\":"));
  }
}
