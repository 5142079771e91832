package org.vfps.fhir;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Optional;

/** FHIR JSON written by hand, as the named clients send it, and read back without HAPI. */
public final class FhirJson {

  private FhirJson() {}

  public static JsonObject string(String name, String value) {
    return new JsonObject().put("name", name).put("valueString", value);
  }

  static JsonObject identifier(String name, String value) {
    return new JsonObject()
        .put("name", name)
        .put("valueIdentifier", new JsonObject().put("value", value));
  }

  static JsonObject identifier(String name, String system, String value) {
    return new JsonObject()
        .put("name", name)
        .put("valueIdentifier", new JsonObject().put("system", system).put("value", value));
  }

  static JsonObject integer(String name, long value) {
    return new JsonObject().put("name", name).put("valueInteger", value);
  }

  static JsonObject bool(String name, boolean value) {
    return new JsonObject().put("name", name).put("valueBoolean", value);
  }

  public static JsonObject parameters(JsonObject... parameters) {
    JsonArray list = new JsonArray();
    for (JsonObject parameter : parameters) {
      list.add(parameter);
    }
    return new JsonObject().put("resourceType", "Parameters").put("parameter", list);
  }

  /** A Bundle entry {@code POST <url>} with the resource. */
  static JsonObject entry(String url, JsonObject resource) {
    return new JsonObject()
        .put("request", new JsonObject().put("method", "POST").put("url", url))
        .put("resource", resource);
  }

  static JsonObject bundle(String type, List<JsonObject> entries) {
    return new JsonObject()
        .put("resourceType", "Bundle")
        .put("type", type)
        .put("entry", new JsonArray(List.copyOf(entries)));
  }

  /** The parameters (or parts) of that name. */
  static List<JsonObject> named(JsonArray parameters, String name) {
    return parameters.stream()
        .map(JsonObject.class::cast)
        .filter(parameter -> name.equals(parameter.getString("name")))
        .toList();
  }

  /** The one parameter (or part) of that name. */
  static JsonObject one(JsonArray parameters, String name) {
    List<JsonObject> found = named(parameters, name);
    if (found.size() != 1) {
      throw new AssertionError(found.size() + " parameters named " + name + " in " + parameters);
    }
    return found.getFirst();
  }

  /** The value of a {@code valueIdentifier} or {@code valueString}. */
  static Optional<String> value(JsonObject parameter) {
    if (parameter.containsKey("valueIdentifier")) {
      return Optional.ofNullable(parameter.getJsonObject("valueIdentifier").getString("value"));
    }
    return Optional.ofNullable(parameter.getString("valueString"));
  }
}
