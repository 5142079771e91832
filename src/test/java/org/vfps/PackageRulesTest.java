package org.vfps;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.simpleNameEndingWith;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;
import io.vertx.core.CompositeFuture;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The import rules of {@link PackageRules} (the table of ARCHITECTURE.md at the top of the
 * repository, which {@link ArchitectureTableTest} keeps equal to them), checked with ArchUnit on
 * the compiled classes: every use counts, an import, a fully-qualified name or a static call alike.
 */
class PackageRulesTest {

  private static final JavaClasses SERVICE =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("org.vfps");

  private static String[] packages(Set<String> names) {
    return names.stream().map(name -> "org.vfps." + name + "..").toArray(String[]::new);
  }

  @Test
  void eachPackageUsesOnlyThePackagesTheArchitectureAllowsIt() {
    List<ArchRule> rules =
        PackageRules.MAY_USE.entrySet().stream()
            .map(
                entry -> {
                  Set<String> forbidden = new TreeSet<>(PackageRules.MAY_USE.keySet());
                  forbidden.remove(entry.getKey());
                  forbidden.removeAll(entry.getValue());
                  return noClasses()
                      .that()
                      .resideInAPackage("org.vfps." + entry.getKey() + "..")
                      .should()
                      .dependOnClassesThat(
                          resideInAnyPackage(packages(forbidden)).or(resideInAPackage("org.vfps")))
                      .as(
                          "org.vfps."
                              + entry.getKey()
                              + " uses no package of the service but "
                              + entry.getValue())
                      .allowEmptyShould(true);
                })
            .toList();
    CompositeArchRule.of(rules).check(SERVICE);
  }

  @Test
  void theEdgesDoNotUseEachOther() {
    noClasses()
        .that()
        .resideInAPackage("org.vfps.http..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("org.vfps.grpc..")
        .check(SERVICE);
    noClasses()
        .that()
        .resideInAPackage("org.vfps.grpc..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("org.vfps.http..")
        .check(SERVICE);
  }

  @Test
  void theServerMayUseEveryPackage() {
    Set<String> others = new TreeSet<>(PackageRules.MAY_USE.keySet());
    others.remove("server");
    assertThat(PackageRules.MAY_USE.get("server")).isEqualTo(others);
  }

  @Test
  void theRootPackageHoldsOnlyTheCommandLineAndItsLauncher() {
    classes()
        .that()
        .resideInAPackage("org.vfps")
        .should()
        // their nested classes too
        .haveNameMatching("org\\.vfps\\.(Main|Launcher)(\\$.*)?")
        .check(SERVICE);
  }

  @Test
  void theRootPackageUsesOnlyTheStartUpChainConfigurationLoggingAndSecretHashing() {
    Set<String> forbidden = new TreeSet<>(PackageRules.MAY_USE.keySet());
    forbidden.removeAll(PackageRules.ROOT_MAY_USE);
    noClasses()
        .that()
        .resideInAPackage("org.vfps")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(packages(forbidden))
        .check(SERVICE);
  }

  @Test
  void theErrorPackageUsesOnlyTheJdk() {
    classes()
        .that()
        .resideInAPackage("org.vfps.error..")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage("java..", "org.vfps.error..")
        .check(SERVICE);
  }

  @Test
  void theJdkOnlyPackagesUseNothingButTheJdkAndThemselves() {
    for (String name : PackageRules.JDK_ONLY) {
      classes()
          .that()
          .resideInAPackage("org.vfps." + name + "..")
          .should()
          .onlyDependOnClassesThat()
          .resideInAnyPackage("java..", "org.vfps." + name + "..")
          .as("org.vfps." + name + " uses only the JDK")
          .check(SERVICE);
    }
  }

  @Test
  void theDomainSeesNoTransportStorageOrLibraryButVertxFutures() {
    classes()
        .that()
        .resideInAnyPackage("org.vfps.namespace..", "org.vfps.pseudonym..")
        .should()
        .onlyDependOnClassesThat(
            resideInAnyPackage(
                    "java..",
                    "javax.crypto..",
                    "org.vfps.error..",
                    "org.vfps.namespace..",
                    "org.vfps.pseudonym..",
                    "org.vfps.alphabet..",
                    "org.vfps.access..",
                    // validation regexes: a pure library that matches in linear time
                    "com.google.re2j..")
                .or(equivalentTo(Future.class))
                .or(equivalentTo(Promise.class))
                .or(equivalentTo(CompositeFuture.class)))
        .check(SERVICE);
  }

  /**
   * The storage implements what the services ask for and fails as they fail, through the failure
   * holders of the domain ({@code NamespaceFailures}, {@code PseudonymFailures}): it never reaches
   * up into a service.
   */
  @Test
  void theStorageUsesNoService() {
    noClasses()
        .that()
        .resideInAPackage("org.vfps.storage..")
        .should()
        .dependOnClassesThat(resideInAPackage("org.vfps..").and(simpleNameEndingWith("Service")))
        .check(SERVICE);
  }

  @Test
  void onlyTheNamespacePackageUsesRe2j() {
    noClasses()
        .that(not(resideInAPackage("org.vfps.namespace..")))
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("com.google.re2j..")
        .check(SERVICE);
  }

  @Test
  void configurationUsesOnlyTheJdkAndVertxJson() {
    classes()
        .that()
        .resideInAPackage("org.vfps.config..")
        .should()
        .onlyDependOnClassesThat()
        // text is the JDK alone: the database URL's percent escapes are decoded there
        .resideInAnyPackage(
            "java..",
            "io.vertx.core.json..",
            "org.vfps.config..",
            "org.vfps.error..",
            "org.vfps.text..")
        .check(SERVICE);
  }

  @Test
  void noEdgeReachesTheDatabaseClient() {
    noClasses()
        .that()
        .resideInAnyPackage("org.vfps.grpc..", "org.vfps.http..", "org.vfps.fhir..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.vertx.sqlclient..", "io.vertx.pgclient..")
        .check(SERVICE);
  }

  @Test
  void theFhirEdgeKnowsNoHttpRouterAndNoProtobuf() {
    noClasses()
        .that()
        .resideInAPackage("org.vfps.fhir..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.vertx.ext.web..", "com.google.protobuf..")
        .check(SERVICE);
  }

  @Test
  void onlyTheFhirEdgeUsesHapi() {
    noClasses()
        .that(not(resideInAPackage("org.vfps.fhir..")))
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("ca.uhn..", "org.hl7..")
        .check(SERVICE);
  }

  @Test
  void theDomainStorageAndGrpcEdgeUseNoMeterOrTracer() {
    noClasses()
        .that()
        .resideInAnyPackage(
            "org.vfps.namespace..", "org.vfps.pseudonym..", "org.vfps.storage..", "org.vfps.grpc..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.micrometer..", "io.opentelemetry..", "io.vertx.micrometer..")
        .check(SERVICE);
  }

  @Test
  void theRulesSeeTheService() {
    assertThat(SERVICE.containPackage("org.vfps.storage")).isTrue();
    assertThat(SERVICE.get(Main.class).getDirectDependenciesFromSelf()).isNotEmpty();
    assertThat(SERVICE.stream().map(c -> c.getPackageName()).distinct())
        .allMatch(
            name ->
                name.equals("org.vfps")
                    || PackageRules.MAY_USE.containsKey(
                        name.substring("org.vfps.".length()).split("\\.")[0]),
            "a package of the table");
  }
}
