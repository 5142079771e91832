package org.vfps.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/configuration.md} is the one reference of the settings: every key the service reads
 * is a row of its tables, and every row is a key the service reads. The keys read are the ones the
 * loader asks for while it loads a configuration that sets an entry of every list, plus the
 * environment variables it falls back on, plus every key of {@code conf/appsettings.json}.
 */
class ConfigurationPageTest {

  private static final Path PAGE = Path.of("docs/configuration.md");

  /** A table row's first cell, a key in backticks: {@code | `Http__Port` | ...}. */
  private static final Pattern ROW_KEY = Pattern.compile("(?m)^\\| `([A-Za-z][A-Za-z0-9_]*)` \\|");

  /** An array index as a key segment, which the page writes as {@code N}. */
  private static final Pattern INDEX = Pattern.compile("__[0-9]+(?=__|$)");

  private static final String HASH =
      "pbkdf2-sha256:600000:AAAAAAAAAAAAAAAAAAAAAA:" + "A".repeat(43);

  /** One entry of every list the service reads, so that the loader asks for their fields. */
  private static Map<String, String> everyListWithAnEntry() {
    Map<String, String> env = new HashMap<>();
    // a connection string without host, port, database, user or password: the PG* fallbacks
    env.put("ConnectionStrings__PostgreSQL", "Application Name=vfps-test");
    env.put("Authorization__AdminRoles__0", "admin");
    env.put("Authorization__NamespaceRules__0__Namespace", "*");
    env.put("Authorization__NamespaceRules__0__ReadRoles__0", "reader");
    env.put("Authorization__NamespaceRules__0__WriteRoles__0", "writer");
    env.put("Authorization__NamespaceRules__0__ReverseLookupRoles__0", "lookup");
    env.put("Authorization__Clients__0__Id", "fhir");
    env.put("Authorization__Clients__0__SecretHash", HASH);
    env.put("Authorization__Clients__0__Roles__0", "writer");
    env.put("Init__v1__Namespaces__0__Name", "seeded");
    env.put("Init__v1__Namespaces__0__Description", "seeded at start");
    env.put("Init__v1__Namespaces__0__PseudonymGenerationMethod", "SecureRandomBase64UrlEncoded");
    env.put("Init__v1__Namespaces__0__PseudonymLength", "16");
    env.put("Init__v1__Namespaces__0__PseudonymPrefix", "p-");
    env.put("Init__v1__Namespaces__0__PseudonymSuffix", "-s");
    return env;
  }

  /** The keys the service reads, in environment variable form, indexes written as N. */
  private static Set<String> keysTheServiceReads() throws IOException {
    Set<String> environmentRead = new TreeSet<>();
    Map<String, String> environment =
        new HashMap<>(everyListWithAnEntry()) {
          @Override
          public String get(Object key) {
            environmentRead.add((String) key);
            return super.get(key);
          }
        };
    LoadedConfig loaded = ConfigLoader.read(environment, Optional.empty());

    Set<String> keys = new TreeSet<>();
    loaded.readKeys().forEach(key -> keys.add(generic(key)));
    environmentRead.forEach(key -> keys.add(generic(key)));
    flatten("", new JsonObject(Files.readString(Path.of(ConfigLoader.DEFAULTS_RESOURCE))), keys);
    return keys;
  }

  private static void flatten(String prefix, Object node, Set<String> into) {
    if (node instanceof JsonObject object) {
      object
          .fieldNames()
          .forEach(name -> flatten(prefix + name + "__", object.getValue(name), into));
    } else if (node instanceof JsonArray array) {
      // the defaults' lists are empty; the entries' fields come from the loaded configuration
      into.add(prefix.substring(0, prefix.length() - 2) + (array.isEmpty() ? "" : "__N"));
    } else {
      into.add(prefix.substring(0, prefix.length() - 2));
    }
  }

  private static String generic(String key) {
    return INDEX.matcher(key).replaceAll("__N");
  }

  private static Set<String> keysOnThePage() throws IOException {
    Set<String> keys = new TreeSet<>();
    Matcher row = ROW_KEY.matcher(Files.readString(PAGE));
    while (row.find()) {
      keys.add(row.group(1));
    }
    return keys;
  }

  @Test
  void everySettingTheServiceReadsIsOnThePage() throws IOException {
    Set<String> missing = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
    missing.addAll(keysTheServiceReads());
    keysOnThePage().forEach(missing::remove);

    assertThat(missing).as("settings the service reads but %s does not list", PAGE).isEmpty();
  }

  @Test
  void everySettingOnThePageIsOneTheServiceReads() throws IOException {
    Set<String> unknown = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
    unknown.addAll(keysOnThePage());
    keysTheServiceReads().forEach(unknown::remove);

    assertThat(keysOnThePage()).as("the settings listed on %s", PAGE).hasSizeGreaterThan(50);
    assertThat(unknown).as("settings %s lists but the service does not read", PAGE).isEmpty();
  }
}
