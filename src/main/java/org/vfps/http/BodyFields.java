package org.vfps.http;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.openapi.contract.OpenAPIContract;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The top-level fields each operation's JSON body knows, by the contract: both names of a field
 * (JSON and proto), as the service reads them. The service ignores other fields, as the .NET
 * transcoding does; a request that fails names them, since a misspelt field is the likeliest cause.
 * Read only when a request fails, so a request that succeeds pays nothing. Thread-safe.
 */
final class BodyFields {

  private static final String REF_PREFIX = "#/components/schemas/";

  private final Map<String, Set<String>> byOperation;

  BodyFields(OpenAPIContract contract) {
    JsonObject raw = contract.getRawContract();
    JsonObject schemas =
        raw.getJsonObject("components", new JsonObject())
            .getJsonObject("schemas", new JsonObject());
    Map<String, Set<String>> known = new HashMap<>();
    raw.getJsonObject("paths", new JsonObject())
        .forEach(
            path -> {
              if (!(path.getValue() instanceof JsonObject methods)) {
                return;
              }
              methods.forEach(
                  method -> {
                    if (!(method.getValue() instanceof JsonObject operation)
                        || !operation.containsKey("operationId")) {
                      return;
                    }
                    JsonObject schema =
                        operation
                            .getJsonObject("requestBody", new JsonObject())
                            .getJsonObject("content", new JsonObject())
                            .getJsonObject("application/json", new JsonObject())
                            .getJsonObject("schema");
                    JsonObject properties =
                        schema == null
                            ? null
                            : resolved(schema, schemas).getJsonObject("properties");
                    if (properties != null) {
                      known.put(
                          operation.getString("operationId"), Set.copyOf(properties.fieldNames()));
                    }
                  });
            });
    this.byOperation = Map.copyOf(known);
  }

  /** The schema a {@code $ref} to a component names, else the schema itself. */
  private static JsonObject resolved(JsonObject schema, JsonObject schemas) {
    String ref = schema.getString("$ref");
    if (ref != null && ref.startsWith(REF_PREFIX)) {
      JsonObject target = schemas.getJsonObject(ref.substring(REF_PREFIX.length()));
      return target == null ? schema : target;
    }
    return schema;
  }

  /**
   * The top-level fields of the body that the operation does not know, in the body's order; empty
   * when the operation is unknown, has no body schema, or the body is no JSON object.
   *
   * @param operationId may be null
   * @param body may be null
   */
  List<String> unknown(String operationId, Buffer body) {
    Set<String> known = operationId == null ? null : byOperation.get(operationId);
    if (known == null || body == null || body.length() == 0) {
      return List.of();
    }
    Object parsed;
    try {
      parsed = body.toJsonValue();
    } catch (DecodeException e) {
      return List.of();
    }
    if (!(parsed instanceof JsonObject json)) {
      return List.of();
    }
    List<String> unknown = new ArrayList<>();
    for (String name : json.fieldNames()) {
      if (!known.contains(name)) {
        unknown.add(name);
      }
    }
    return unknown;
  }
}
