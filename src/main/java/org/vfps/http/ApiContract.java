package org.vfps.http;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
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

  /** Reads and checks the contract without blocking (it takes most of a second, cold). */
  public static Future<ApiContract> load(Vertx vertx) {
    return vertx
        .fileSystem()
        .readFile(RESOURCE)
        .compose(
            document ->
                OpenAPIContract.from(vertx, document.toJsonObject())
                    .map(contract -> new ApiContract(contract, document)));
  }
}
