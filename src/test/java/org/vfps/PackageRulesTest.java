package org.vfps;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The import rules of ARCHITECTURE.md, checked on the sources. */
class PackageRulesTest {

  private static final Path SOURCES = Path.of("src/main/java/org/vfps");
  private static final Pattern IMPORT =
      Pattern.compile("^import (?:static )?([\\w.]+)", Pattern.MULTILINE);

  private static List<String> imports(String pkg) throws IOException {
    try (Stream<Path> files = Files.list(SOURCES.resolve(pkg))) {
      return files
          .filter(file -> file.toString().endsWith(".java"))
          .flatMap(
              file -> {
                try {
                  Matcher matcher = IMPORT.matcher(Files.readString(file));
                  return matcher
                      .results()
                      .map(result -> file.getFileName() + ": " + result.group(1));
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              })
          .toList();
    }
  }

  private static Predicate<String> importing(String... prefixes) {
    return line -> {
      String imported = line.substring(line.indexOf(": ") + 2);
      return Stream.of(prefixes).anyMatch(imported::startsWith);
    };
  }

  @Test
  void theErrorPackageImportsOnlyTheJdk() throws IOException {
    assertThat(imports("error")).allMatch(importing("java."));
  }

  @Test
  void theDomainSeesNoTransportStorageOrLibrary() throws IOException {
    for (String pkg : List.of("namespace", "pseudonym")) {
      assertThat(imports(pkg))
          .as(pkg)
          .allMatch(
              importing(
                  "java.",
                  "javax.crypto.",
                  "io.vertx.core.Future",
                  "org.vfps.access.",
                  "org.vfps.error.",
                  "org.vfps.namespace."));
    }
  }

  @Test
  void accessSeesOnlyErrorsAndConfiguration() throws IOException {
    assertThat(imports("access"))
        .filteredOn(importing("org.vfps."))
        .allMatch(importing("org.vfps.error.", "org.vfps.config."));
    assertThat(imports("access")).noneMatch(importing("io.vertx.ext.", "io.vertx.grpc."));
  }

  @Test
  void authenticationSeesAccessConfigurationAndErrorsOnly() throws IOException {
    assertThat(imports("auth"))
        .filteredOn(importing("org.vfps."))
        .allMatch(importing("org.vfps.access.", "org.vfps.config.", "org.vfps.error."));
  }

  @Test
  void configurationImportsOnlyTheJdkAndJson() throws IOException {
    assertThat(imports("config"))
        .allMatch(importing("java.", "io.vertx.core.json.", "org.vfps.config."));
  }

  @Test
  void storageAndTheGrpcEdgeDoNotReachIntoEachOther() throws IOException {
    assertThat(imports("storage")).noneMatch(importing("org.vfps.grpc.", "org.vfps.api."));
    assertThat(imports("grpc"))
        .noneMatch(importing("org.vfps.storage.", "org.vfps.config.", "io.vertx.sqlclient."));
  }

  @Test
  void theHttpAndFhirEdgesReachNeitherStorageNorConfiguration() throws IOException {
    for (String pkg : List.of("http", "fhir")) {
      assertThat(imports(pkg))
          .as(pkg)
          .noneMatch(importing("org.vfps.storage.", "org.vfps.config.", "io.vertx.sqlclient."));
    }
  }

  @Test
  void metricsAndTracingSeeOnlyTheConfigurationOfTheService() throws IOException {
    for (String pkg : List.of("metrics", "tracing")) {
      assertThat(imports(pkg))
          .as(pkg)
          .filteredOn(importing("org.vfps."))
          .allMatch(importing("org.vfps.config."));
    }
  }

  @Test
  void theFhirEdgeKnowsNoHttpLibraryAndNoOtherEdge() throws IOException {
    assertThat(imports("fhir"))
        .noneMatch(
            importing(
                "io.vertx.ext.web.", "org.vfps.http.", "org.vfps.grpc.", "com.google.protobuf."));
  }

  @Test
  void onlyTheFhirEdgeUsesHapi() throws IOException {
    for (String pkg : List.of("http", "grpc", "namespace", "pseudonym", "storage", "config")) {
      assertThat(imports(pkg)).as(pkg).noneMatch(importing("ca.uhn.", "org.hl7."));
    }
    assertThat(imports("fhir")).anyMatch(importing("ca.uhn.fhir."));
  }

  @Test
  void theDomainAndStorageImportNoMeterOrTracer() throws IOException {
    for (String pkg : List.of("namespace", "pseudonym", "storage", "grpc")) {
      assertThat(imports(pkg))
          .as(pkg)
          .noneMatch(importing("io.micrometer.", "io.opentelemetry.", "io.vertx.micrometer."));
    }
  }

  @Test
  void theAdminUiIsAnEdgeOfItsOwn() throws IOException {
    assertThat(imports("ui"))
        .noneMatch(
            importing(
                "org.vfps.http.",
                "org.vfps.grpc.",
                "org.vfps.storage.",
                "org.vfps.config.",
                "io.vertx.sqlclient."));
    assertThat(imports("http")).noneMatch(importing("org.vfps.ui."));
  }

  @Test
  void theRulesSeeImports() throws IOException {
    assertThat(imports("storage")).anyMatch(importing("io.vertx.sqlclient."));
  }
}
