package org.vfps.config;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Configuration as .NET keeps it before binding: flat, case-insensitive keys such as {@code
 * Pseudonymization:Caching:SizeLimit} (array items as index segments) mapped to text. Every key of
 * a later source whose first segment is one of the service's sections is kept, so arrays are
 * open-ended; keys of other sections ({@code PATH}, {@code HOME}) are dropped. The settings
 * remember which keys were read, so that the ones nobody read can be reported.
 */
final class FlatSettings {

  /** An array index as a key segment. */
  static final String INDEX = "[0-9]{1,9}";

  private final NavigableMap<String, String> values = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
  private final Set<String> sections = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
  private final Set<String> read = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);

  /**
   * Settings holding {@code defaults}; the sections are the top-level names of {@code defaults}
   * plus {@code otherSections} (names of the .NET service the defaults do not hold).
   */
  FlatSettings(JsonObject defaults, Collection<String> otherSections) {
    flatten("", defaults, values);
    sections.addAll(defaults.fieldNames());
    sections.addAll(otherSections);
  }

  /** Overlays the keys of a settings file that belong to the service's sections. */
  void overlay(JsonObject settings) {
    Map<String, String> flat = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    flatten("", settings, flat);
    flat.forEach(this::putIfOurs);
  }

  /**
   * Overlays environment variables, whose names are keys with {@code __} for {@code :}; variables
   * outside the service's sections (PATH and the like) are ignored.
   */
  void overlayEnvironment(Map<String, String> environment) {
    environment.forEach(
        (name, value) -> {
          if (name != null && value != null) {
            putIfOurs(name.replace("__", ":"), value);
          }
        });
  }

  /** The value of {@code key}, if any source set it; the key counts as read. */
  Optional<String> get(String key) {
    read.add(key);
    return Optional.ofNullable(values.get(key));
  }

  /**
   * The value of {@code key}; the key counts as read.
   *
   * @throws ConfigException when no source set it
   */
  String required(String key) {
    read.add(key);
    String value = values.get(key);
    if (value == null) {
      throw new ConfigException(environmentName(key) + ": missing");
    }
    return value;
  }

  /**
   * The keys starting with {@code prefix} (case-insensitively) and their values, sorted; they all
   * count as read.
   */
  NavigableMap<String, String> withPrefix(String prefix) {
    NavigableMap<String, String> matching = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    keys(prefix).forEach(key -> matching.put(key, values.get(key)));
    read.addAll(matching.keySet());
    return Collections.unmodifiableNavigableMap(matching);
  }

  /** The keys starting with {@code prefix} (case-insensitively), sorted; none counts as read. */
  NavigableSet<String> keys(String prefix) {
    NavigableSet<String> matching = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
    for (String key : values.keySet()) {
      if (startsWithIgnoreCase(key, prefix)) {
        matching.add(key);
      }
    }
    return matching;
  }

  /**
   * The indexes of the entries of the open-ended array {@code array} (keys {@code array:N} and
   * {@code array:N:...}), in numeric order; no key counts as read.
   */
  SortedSet<Integer> indexes(String array) {
    SortedSet<Integer> indexes = new TreeSet<>();
    String prefix = array + ":";
    for (String key : keys(prefix)) {
      String index = key.substring(prefix.length()).split(":", 2)[0];
      if (index.matches(INDEX)) {
        indexes.add(Integer.parseInt(index));
      }
    }
    return indexes;
  }

  /** The keys that were set but never read, in their environment variable form, sorted. */
  List<String> unreadKeys() {
    List<String> unread = new ArrayList<>();
    for (String key : values.keySet()) {
      if (!read.contains(key)) {
        unread.add(environmentName(key));
      }
    }
    return unread;
  }

  /** Every key that was asked for, set or not, in its environment variable form, sorted. */
  List<String> readKeys() {
    return read.stream().map(FlatSettings::environmentName).toList();
  }

  /** The environment variable form of {@code key}, as error messages name it. */
  static String environmentName(String key) {
    return key.replace(":", "__");
  }

  static boolean startsWithIgnoreCase(String text, String prefix) {
    return text.regionMatches(true, 0, prefix, 0, prefix.length());
  }

  private void putIfOurs(String key, String value) {
    int colon = key.indexOf(':');
    if (sections.contains(colon < 0 ? key : key.substring(0, colon))) {
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
