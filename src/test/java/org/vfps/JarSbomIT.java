package org.vfps;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The jar's SBOM ({@code target/vfps-<version>.cdx.json}, written by the CycloneDX Maven plugin in
 * the package phase) against the shaded jar it describes: the libraries whose classes the jar holds
 * are the ones the SBOM lists, at the versions on the build's class path.
 */
class JarSbomIT {

  private static final String JAR = System.getProperty("vfps.jar", "target/vfps.jar");
  private static final String SBOM = System.getProperty("vfps.jar.sbom");

  private static JsonObject sbom;
  private static Set<String> shadedEntries;

  /** A library the SBOM lists, and the directory of its jar in a Maven repository. */
  record Component(String purl, String group, String name, String version) {
    String repositoryDirectory() {
      return String.join(File.separator, group.replace('.', File.separatorChar), name, version);
    }
  }

  @BeforeAll
  static void readSbomAndJar() throws IOException {
    assertThat(SBOM).as("the system property vfps.jar.sbom (set in the pom)").isNotNull();
    sbom = new JsonObject(Files.readString(Path.of(SBOM)));
    shadedEntries = contentEntries(Path.of(JAR));
  }

  @Test
  void describesThisVersionOfVfpsInCycloneDx() {
    assertThat(sbom.getString("bomFormat")).isEqualTo("CycloneDX");
    JsonObject described = sbom.getJsonObject("metadata").getJsonObject("component");
    assertThat(described.getString("purl"))
        .startsWith("pkg:maven/org.vfps/vfps@" + System.getProperty("vfps.version") + "?");
    assertThat(described.getString("type")).isEqualTo("application");
  }

  @Test
  void namesVertxAndThePostgresqlClientsAtThePomsVersions() {
    assertThat(components())
        .extracting(c -> c.group() + ":" + c.name() + ":" + c.version())
        .contains(
            "io.vertx:vertx-core:" + System.getProperty("vfps.vertx.version"),
            "io.vertx:vertx-pg-client:" + System.getProperty("vfps.vertx.version"),
            "org.postgresql:postgresql:" + System.getProperty("vfps.postgresql-jdbc.version"));
  }

  @Test
  void listsEveryLibraryWhoseContentTheJarHolds() throws IOException {
    List<Component> components = components();
    Set<String> unlisted = new TreeSet<>();
    for (Path library : classPathJars()) {
      if (contributesToShadedJar(library)
          && components.stream()
              .noneMatch(c -> library.getParent().endsWith(c.repositoryDirectory()))) {
        unlisted.add(library.getFileName().toString());
      }
    }
    assertThat(unlisted).as("libraries in the jar that the SBOM does not name").isEmpty();
  }

  @Test
  void listsOnlyLibrariesTheJarHoldsAtTheVersionsBuilt() throws IOException {
    List<Path> jars = classPathJars();
    Set<String> notInJar = new TreeSet<>();
    for (Component component : components()) {
      List<Path> built =
          jars.stream()
              .filter(jar -> jar.getParent().endsWith(component.repositoryDirectory()))
              .toList();
      assertThat(built).as("%s on the build's class path", component.purl()).isNotEmpty();
      // an empty jar (such as Guava's listenablefuture placeholder) has nothing to shade
      boolean contributesOrEmpty = false;
      for (Path jar : built) {
        contributesOrEmpty |= contributesToShadedJar(jar) || contentEntries(jar).isEmpty();
      }
      if (!contributesOrEmpty) {
        notInJar.add(component.purl());
      }
    }
    assertThat(notInJar).as("libraries the SBOM names but the jar does not hold").isEmpty();
  }

  private static List<Component> components() {
    JsonArray array = sbom.getJsonArray("components");
    List<Component> components = new ArrayList<>();
    for (int i = 0; i < array.size(); i++) {
      JsonObject c = array.getJsonObject(i);
      components.add(
          new Component(
              c.getString("purl"),
              c.getString("group"),
              c.getString("name"),
              c.getString("version")));
    }
    return components;
  }

  /** The jars of the class path the tests run on: every runtime library and the test ones. */
  private static List<Path> classPathJars() {
    String classPath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<Path> jars = new ArrayList<>();
    for (String element : classPath.split(File.pathSeparator)) {
      if (element.endsWith(".jar")) {
        jars.add(Path.of(element).toAbsolutePath());
      }
    }
    return jars;
  }

  private static boolean contributesToShadedJar(Path library) throws IOException {
    for (String entry : contentEntries(library)) {
      if (shadedEntries.contains(entry)) {
        return true;
      }
    }
    return false;
  }

  /**
   * A jar's own content: its classes, resources and web resources, not the metadata under META-INF
   * that shading drops or merges (manifests, Maven files, licences, service files), nor module
   * descriptors.
   */
  private static Set<String> contentEntries(Path jar) throws IOException {
    Set<String> entries = new HashSet<>();
    try (ZipFile zip = new ZipFile(jar.toFile())) {
      zip.stream()
          .filter(entry -> !entry.isDirectory())
          .map(ZipEntry::getName)
          .filter(
              name ->
                  (!name.startsWith("META-INF/") || name.startsWith("META-INF/resources/"))
                      && !name.endsWith("module-info.class"))
          .forEach(entries::add);
    }
    return entries;
  }
}
