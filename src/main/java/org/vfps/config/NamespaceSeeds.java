package org.vfps.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The namespaces created at start when absent ({@code Init:v1:Namespaces:<index>:<setting>}), in
 * index order.
 */
final class NamespaceSeeds {

  private static final String INIT_NAMESPACES = "Init:v1:Namespaces:";
  private static final String INIT_ENTRY = "Init__v1__Namespaces__";
  private static final List<String> SEED_FIELDS =
      List.of(
          "Name",
          "Description",
          "PseudonymGenerationMethod",
          "PseudonymLength",
          "PseudonymPrefix",
          "PseudonymSuffix");

  private NamespaceSeeds() {}

  /** Groups {@code Init:v1:Namespaces:N:Field} by N, in index order. */
  static List<NamespaceSeed> read(FlatSettings settings) {
    Map<Integer, Map<String, String>> entries = new TreeMap<>();
    settings
        .withPrefix(INIT_NAMESPACES)
        .forEach(
            (key, value) -> {
              String[] parts = key.substring(INIT_NAMESPACES.length()).split(":", -1);
              if (parts.length != 2 || !parts[0].matches(FlatSettings.INDEX)) {
                throw new ConfigException(
                    FlatSettings.environmentName(key)
                        + ": expected "
                        + INIT_ENTRY
                        + "<index>__<setting>");
              }
              String field =
                  SEED_FIELDS.stream()
                      .filter(parts[1]::equalsIgnoreCase)
                      .findFirst()
                      .orElseThrow(
                          () ->
                              new ConfigException(
                                  FlatSettings.environmentName(key)
                                      + ": unknown setting (expected one of "
                                      + String.join(", ", SEED_FIELDS)
                                      + ")"));
              entries
                  .computeIfAbsent(Integer.parseInt(parts[0]), index -> new TreeMap<>())
                  .put(field, value);
            });
    List<NamespaceSeed> seeds = new ArrayList<>();
    entries.forEach((index, fields) -> seeds.add(seed(INIT_ENTRY + index, fields)));
    return seeds;
  }

  private static NamespaceSeed seed(String entry, Map<String, String> fields) {
    String name = fields.get("Name");
    if (name == null) {
      throw new ConfigException(entry + "__Name: missing (every namespace needs a name)");
    }
    if (name.isBlank()) {
      throw new ConfigException(entry + "__Name: must not be blank");
    }
    String length = fields.get("PseudonymLength");
    if (length == null) {
      throw new ConfigException(
          entry + "__PseudonymLength: missing (a non-negative integer is required)");
    }
    if (!length.strip().matches("[0-9]{1,18}")) {
      throw new ConfigException(
          entry + "__PseudonymLength: '" + length + "' is not a non-negative integer");
    }
    return new NamespaceSeed(
        entry,
        name,
        fields.get("Description"),
        fields.get("PseudonymGenerationMethod"),
        Long.parseLong(length.strip()),
        fields.get("PseudonymPrefix"),
        fields.get("PseudonymSuffix"));
  }
}
