package org.vfps.http;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.openapi.contract.OpenAPIContract;

/**
 * The REST contract ({@value #RESOURCE}, OpenAPI 3.1): what the router binds and validates, and
 * what the docs serve. Loaded once, shared by every verticle instance.
 *
 * @param document the contract to serve: as written, but for its {@code info}, which names the
 *     running service's version ({@code version}) and git revision ({@value #REVISION})
 */
public record ApiContract(OpenAPIContract contract, Buffer document) {

  /** The class path resource holding the contract. */
  public static final String RESOURCE = "openapi/vfps.json";

  /** The extension keyword of the served {@code info} that names the service's git revision. */
  public static final String REVISION = "x-revision";

  /**
   * The extension keyword of a schema that lists the keywords (rules) the service checks itself,
   * which the router leaves to it.
   */
  static final String CHECKED_BY_SERVICE = "x-checked-by-service";

  private static final String FHIR_JSON = "application/fhir+json";

  /**
   * Reads and checks the contract without blocking (it takes most of a second, cold).
   *
   * @param version the running service's version, for the served {@code info.version}
   * @param revision the git revision it was built from, for the served {@code info}'s {@value
   *     #REVISION}
   */
  public static Future<ApiContract> load(Vertx vertx, String version, String revision) {
    return vertx
        .fileSystem()
        .readFile(RESOURCE)
        .map(Buffer::toJsonObject)
        .compose(
            document ->
                OpenAPIContract.from(vertx, forParser(document))
                    .map(
                        contract ->
                            new ApiContract(
                                contract, served(document, version, revision).toBuffer())));
  }

  /**
   * The document as served: {@code info.version} is the running service's (the file's says the
   * pom's version, which a test holds it to) and {@code info} names the revision, too.
   */
  private static JsonObject served(JsonObject document, String version, String revision) {
    JsonObject served = document.copy();
    served.getJsonObject("info").put("version", version).put(REVISION, revision);
    return served;
  }

  /**
   * The contract as Vert.x's parser and validator take it.
   *
   * <ul>
   *   <li>The rules a schema names in {@value #CHECKED_BY_SERVICE} are left out: the service checks
   *       them itself and answers them with codes and messages of its own ({@code OUT_OF_RANGE} for
   *       a pseudonym length, the index of a blank value in a batch), which the validator's generic
   *       400 would hide. The document served keeps them, for clients and fuzzers.
   *   <li>The parser refuses media types other than {@code application/json} and {@code
   *       vnd.*+json}, so the FHIR replies' {@code application/fhir+json} is renamed {@code
   *       application/json}. The FHIR routes are not validated by the contract, so the router loses
   *       nothing; the document served keeps the true type.
   *   <li>The parser refuses a path variable that a custom method follows in its segment ({@code
   *       /v1/csv-jobs/{id}:start}), which the protos' HTTP rules write so: such a path is given to
   *       it as {@code {id}/:start} ({@link #CUSTOM_METHOD_AFTER_VARIABLE}), and the router matches
   *       the path as written ({@link CustomMethodRoutes#matchLiterally}).
   * </ul>
   */
  private static JsonObject forParser(JsonObject contract) {
    JsonObject parsed = (JsonObject) withoutServiceChecks(contract);
    JsonObject paths = new JsonObject();
    parsed
        .getJsonObject("paths")
        .forEach(
            path ->
                paths.put(
                    path.getKey().replace("}:", CUSTOM_METHOD_AFTER_VARIABLE), path.getValue()));
    String json = parsed.put("paths", paths).encode();
    return new JsonObject(json.replace("\"" + FHIR_JSON + "\":", "\"application/json\":"));
  }

  /** How a custom method after a path variable reaches the parser: in a segment of its own. */
  static final String CUSTOM_METHOD_AFTER_VARIABLE = "}/:";

  /** A copy of the JSON value without the keywords each schema lists as checked by the service. */
  private static Object withoutServiceChecks(Object value) {
    if (value instanceof JsonObject object) {
      JsonArray checked = object.getJsonArray(CHECKED_BY_SERVICE, new JsonArray());
      JsonObject copy = new JsonObject();
      object.forEach(
          entry -> {
            if (!entry.getKey().equals(CHECKED_BY_SERVICE) && !checked.contains(entry.getKey())) {
              copy.put(entry.getKey(), withoutServiceChecks(entry.getValue()));
            }
          });
      return copy;
    }
    if (value instanceof JsonArray array) {
      JsonArray copy = new JsonArray();
      array.forEach(item -> copy.add(withoutServiceChecks(item)));
      return copy;
    }
    return value;
  }
}
