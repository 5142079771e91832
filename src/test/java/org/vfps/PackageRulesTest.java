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
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The import rules of ARCHITECTURE.md, checked with ArchUnit on the compiled classes: every use
 * counts, an import, a fully-qualified name or a static call alike.
 */
class PackageRulesTest {

  private static final JavaClasses SERVICE =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("org.vfps");

  private static final Set<String> DOMAIN = Set.of("namespace", "pseudonym", "error");

  /**
   * The packages of the service (below {@code org.vfps}; {@code api} is the generated protobuf
   * code) and the ones each may use besides itself. {@code server}, the start-up chain, may use
   * every package and no package but the root may use it; the root package (the command line) and
   * no other uses {@code server}, and no package uses the root. The domain services call the one
   * decision point of the permission model in {@code access}, and the edges (the admin UI among
   * them) turn credentials into its caller through {@code auth}.
   */
  private static final Map<String, Set<String>> MAY_USE =
      Map.ofEntries(
          Map.entry("error", Set.of()),
          // CSV jobs: the runner reaches the pseudonym service's batch methods, the object store
          // and the CSV format; storage implements their repository
          Map.entry("job", union(DOMAIN, "access", "config", "csv", "objectstore")),
          Map.entry("csv", Set.of()),
          Map.entry("objectstore", Set.of("config")),
          Map.entry("config", Set.of("error")),
          Map.entry("namespace", Set.of("error", "access")),
          Map.entry("pseudonym", Set.of("namespace", "error", "access")),
          // the write queues are bounded, and calls' deadlines honoured, by admission control
          // it implements the access store of grants and tokens, as it does the repositories, and
          // the log of cache invalidations
          Map.entry("storage", union(DOMAIN, "config", "admission", "access", "job", "cache")),
          Map.entry("cache", DOMAIN),
          Map.entry("cluster", union(DOMAIN, "cache", "config", "access")),
          // the edges
          // (a CSV job's presigned URLs are the object store's records; durations in messages are
          // written as the settings write them)
          Map.entry(
              "grpc",
              union(
                  DOMAIN,
                  "api",
                  "config",
                  "access",
                  "auth",
                  "connection",
                  "admission",
                  "log",
                  "job",
                  "objectstore")),
          // the HTTP listener shares the gRPC edge's message mapping and hosts the FHIR operations
          Map.entry(
              "http",
              union(
                  DOMAIN,
                  "api",
                  "grpc",
                  "fhir",
                  "job",
                  "access",
                  "auth",
                  "connection",
                  "admission",
                  "log",
                  "text")),
          Map.entry("fhir", union(DOMAIN, "access", "auth", "admission", "log", "text")),
          // the admin UI signs users in and turns their sessions into callers through auth
          Map.entry("ui", union(DOMAIN, "access", "auth", "text")),
          Map.entry("metrics", Set.of("config")),
          Map.entry("tracing", Set.of("config")),
          Map.entry("access", Set.of("error", "config")),
          Map.entry("auth", Set.of("access", "config", "error", "text")),
          Map.entry("api", Set.of()),
          // the listeners' connection limits, shared by both edges
          Map.entry("connection", Set.of()),
          // the one place that admits work (asked by the edges and the storage) and calls'
          // deadlines
          Map.entry("admission", Set.of("error")),
          // the logging configuration (Logging__Format) and the edges' throttled warnings (a lost
          // database, malformed requests), one set per server
          Map.entry("log", Set.of("error", "config")),
          // media types and strictly decoded text, read one way by the edges and the credentials
          Map.entry("text", Set.of()),
          // keyed pseudonyms: the RFC 9497 primitives, vfps's client of a VOPRF server (a keyed
          // generator of the pseudonym package, failing as the domain fails) and the server, which
          // authenticates its callers and logs as the edges do, its audit lines escaped as
          // vfps's
          Map.entry(
              "voprf", Set.of("access", "api", "auth", "config", "error", "log", "pseudonym")),
          // the start-up chain wires them all
          Map.entry(
              "server",
              Set.of(
                  "access",
                  "admission",
                  "api",
                  "auth",
                  "cache",
                  "cluster",
                  "config",
                  "connection",
                  "csv",
                  "error",
                  "fhir",
                  "grpc",
                  "http",
                  "job",
                  "log",
                  "metrics",
                  "namespace",
                  "objectstore",
                  "pseudonym",
                  "storage",
                  "text",
                  "tracing",
                  "ui",
                  "voprf")));

  /**
   * The packages the root package's command line may use: the start-up chain, the configuration,
   * the console's log format and the secret hashing of {@code hash-secret}.
   */
  private static final Set<String> ROOT_MAY_USE =
      Set.of("server", "config", "log", "auth", "voprf");

  private static Set<String> union(Set<String> packages, String... more) {
    Set<String> all = new TreeSet<>(packages);
    all.addAll(List.of(more));
    return all;
  }

  private static String[] packages(Set<String> names) {
    return names.stream().map(name -> "org.vfps." + name + "..").toArray(String[]::new);
  }

  @Test
  void eachPackageUsesOnlyThePackagesTheArchitectureAllowsIt() {
    List<ArchRule> rules =
        MAY_USE.entrySet().stream()
            .map(
                entry -> {
                  Set<String> forbidden = new TreeSet<>(MAY_USE.keySet());
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
  void theServerMayUseEveryPackage() {
    Set<String> others = new TreeSet<>(MAY_USE.keySet());
    others.remove("server");
    assertThat(MAY_USE.get("server")).isEqualTo(others);
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
    Set<String> forbidden = new TreeSet<>(MAY_USE.keySet());
    forbidden.removeAll(ROOT_MAY_USE);
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
        .resideInAnyPackage(
            "java..", "io.vertx.core.json..", "org.vfps.config..", "org.vfps.error..")
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
                    || MAY_USE.containsKey(name.substring("org.vfps.".length()).split("\\.")[0]),
            "a package of the table");
  }
}
