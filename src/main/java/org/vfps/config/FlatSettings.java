package org.vfps.config;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Collections;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Configuration as .NET keeps it before binding: flat, case-insensitive keys such as {@code
 * Pseudonymization:Caching:SizeLimit} (array items as index segments) mapped to text. Only keys the
 * defaults define, and keys under {@link #INIT_NAMESPACES}, can be set by later sources.
 */
final class FlatSettings {

  /** The one key prefix whose keys are open-ended: the start-up namespaces array. */
  static final String INIT_NAMESPACES = "Init:v1:Namespaces:";

  private final NavigableMap<String, String> values = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
  private final Set<String> knownKeys = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);

  /** Settings holding {@code defaults}, whose keys become the known keys. */
  FlatSettings(JsonObject defaults) {
    flatten("", defaults, values);
    knownKeys.addAll(values.keySet());
  }

  /** Overlays the known keys of a settings file; other keys are ignored, as .NET does. */
  void overlay(JsonObject settings) {
    Map<String, String> flat = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    flatten("", settings, flat);
    flat.forEach(this::putIfKnown);
  }

  /**
   * Overlays environment variables, whose names are keys with {@code __} for {@code :}; variables
   * that name no known key (PATH and the like) are ignored.
   */
  void overlayEnvironment(Map<String, String> environment) {
    environment.forEach(
        (name, value) -> {
          if (name != null && value != null) {
            putIfKnown(name.replace("__", ":"), value);
          }
        });
  }

  /** The value of {@code key}, if any source set it. */
  Optional<String> get(String key) {
    return Optional.ofNullable(values.get(key));
  }

  /**
   * The value of {@code key}.
   *
   * @throws ConfigException when no source set it
   */
  String required(String key) {
    String value = values.get(key);
    if (value == null) {
      throw new ConfigException(environmentName(key) + ": missing");
    }
    return value;
  }

  /** The keys starting with {@code prefix} (case-insensitively) and their values, sorted. */
  NavigableMap<String, String> withPrefix(String prefix) {
    NavigableMap<String, String> matching = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    values.forEach(
        (key, value) -> {
          if (startsWithIgnoreCase(key, prefix)) {
            matching.put(key, value);
          }
        });
    return Collections.unmodifiableNavigableMap(matching);
  }

  /** The environment variable form of {@code key}, as error messages name it. */
  static String environmentName(String key) {
    return key.replace(":", "__");
  }

  static boolean startsWithIgnoreCase(String text, String prefix) {
    return text.regionMatches(true, 0, prefix, 0, prefix.length());
  }

  private void putIfKnown(String key, String value) {
    if (knownKeys.contains(key) || startsWithIgnoreCase(key, INIT_NAMESPACES)) {
      // a TreeMap keeps the first spelling of a key, so messages use the defaults' casing
      values.put(key, value);
    }
  }

  private static void flatten(String prefix, Object node, Map<String, String> into) {
    if (node instanceof JsonObject object) {
      for (String name : object.fieldNames()) {
        flatten(prefix + name + ":", object.getValue(name), into);
      }
    } else if (node instanceof JsonArray array) {
      for (int i = 0; i < array.size(); i++) {
        flatten(prefix + i + ":", array.getValue(i), into);
      }
    } else if (node != null) {
      into.put(prefix.substring(0, prefix.length() - 1), node.toString());
    }
  }
}
