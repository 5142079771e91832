package org.vfps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.vertx.grpc.common.GrpcStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.config.ConnectionSettings;
import org.vfps.storage.Migrations;

/**
 * The packaged jar, started with every optional feature off (no CSV jobs, no VOPRF namespace, no
 * cluster, no tracing, no metrics listener, an external database) and asked for one pseudonym over
 * gRPC, loads none of the classes that only those features need, and the FHIR edge loads only
 * HAPI's JSON parser. The JVM's own class-loading log ({@code -Xlog:class+load}) is the witness, so
 * the check holds whatever path (a static field, a service registration, a verifier's look-up)
 * would pull a class in. Started with the AOT cache the build recorded for it, a JVM loads every
 * class the cache holds, so the cache holds none of them either but those of metrics, which the
 * default configuration turns on. And the same jar with clustering, tracing and metrics on still
 * has them.
 */
class LazyLoadingIT {

  /**
   * The class name prefixes that must not load with the optional features off, each with why it is
   * optional. One list, so that a new optional library is added here once.
   */
  static final List<Unused> UNUSED =
      List.of(
          new Unused("software.amazon.", "the AWS SDK: CSV jobs' S3 bucket (S3__IsEnabled)", false),
          new Unused("org.vfps.objectstore.S3ObjectStore", "CSV jobs' S3 bucket", false),
          new Unused("org.vfps.objectstore.EmbeddedObjectStore", "the embedded S3 store", false),
          new Unused("org.vfps.job.CsvJobWorkers", "CSV job workers, started with a store", false),
          new Unused("org.vfps.job.CsvJobRunner", "CSV job runs, started by the workers", false),
          new Unused("org.vfps.voprf.", "VOPRF namespaces (Voprf__*) and the VOPRF server", false),
          new Unused("com.hazelcast.", "clustering (Cluster__IsEnabled)", false),
          new Unused(
              "io.vertx.spi.cluster.", "clustering: Vert.x's Hazelcast cluster manager", false),
          new Unused("org.vfps.cluster.HazelcastCluster", "clustering: forming the cluster", false),
          new Unused("io.opentelemetry.", "tracing (Tracing__IsEnabled)", false),
          new Unused("io.vertx.tracing.", "tracing: Vert.x's OpenTelemetry tracer", false),
          new Unused("org.vfps.tracing.SdkTracing", "tracing: vfps's SDK set-up", false),
          new Unused("org.slf4j.bridge.", "tracing: OpenTelemetry's log lines to logback", false),
          new Unused("io.vertx.grpc.client.", "Vert.x's gRPC client: the VOPRF client", false),
          new Unused(
              "io.vertx.core.http.impl.HttpClientImpl",
              "Vert.x's HTTP client: an OIDC provider (Authorization__Authority), the VOPRF client",
              false),
          new Unused("io.micrometer.", "metrics (MetricsPort)", true),
          new Unused("io.vertx.micrometer.", "metrics: Vert.x's meters", true),
          new Unused("io.zonky.", "the embedded PostgreSQL (no connection string)", false),
          new Unused("org.vfps.storage.EmbeddedDatabase", "the embedded PostgreSQL", false),
          new Unused(
              "org.flywaydb.", "migrations (ForceRunDatabaseMigrations, vfps migrate)", false),
          new Unused("org.postgresql.", "migrations: Flyway's JDBC driver", false),
          new Unused("tools.jackson.", "migrations: Flyway's Jackson", false),
          new Unused("ca.uhn.fhir.parser.XmlParser", "FHIR XML: vfps speaks FHIR JSON only", false),
          new Unused("ca.uhn.fhir.parser.RDFParser", "FHIR RDF: vfps speaks FHIR JSON only", false),
          new Unused("com.ctc.wstx.", "woodstox, HAPI's XML parser", false),
          new Unused("org.codehaus.stax2.", "stax2, HAPI's XML parser", false),
          new Unused("org.apache.jena.", "Jena, HAPI's RDF parser", false));

  /**
   * A class name prefix that the start must not load, the feature that needs it, and whether that
   * feature is on in the default configuration (which the AOT cache is recorded with).
   */
  record Unused(String prefix, String neededFor, boolean onByDefault) {}

  private static final Pattern LOADED = Pattern.compile("\\] (\\S+) source: ");

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static List<String> loadedBeforeFirstAnswer;

  private static ConnectionSettings database;

  @BeforeAll
  static void startWithOptionalFeaturesOffAndCreateOnePseudonym() throws Exception {
    database = TestPostgres.freshDatabase();
    Migrations.migrate(database);
    loadedBeforeFirstAnswer = loadedClasses(classLoadingUntilFirstCreate());
  }

  @Test
  void loadsNoClassOfAFeatureThatIsOff() {
    assertThat(classesOfFeaturesOff(loadedBeforeFirstAnswer, UNUSED))
        .as("classes of features that are off")
        .isEmpty();
  }

  @Test
  void theAotCacheHoldsNoClassOfAFeatureThatIsOffByDefault() throws Exception {
    // a JVM started with an AOT cache loads every class the cache holds, whatever it then uses
    Path jar = Path.of(System.getProperty("vfps.jar", "target/vfps.jar"));
    Path cache = jar.resolveSibling("vfps.aot");
    assumeTrue(
        Files.exists(cache)
            && !Files.getLastModifiedTime(cache)
                .toInstant()
                .isBefore(Files.getLastModifiedTime(jar).toInstant()),
        "the build recorded an AOT cache for this jar (JDK 25+, without -Dvfps.aot.skip)");

    List<String> lines = classLoadingUntilFirstCreate("-XX:AOTCache=" + cache);

    assertThat(lines)
        .as("the JVM used the cache")
        .anyMatch(line -> line.contains(" org.vfps.Main source: shared objects file"));
    List<Unused> offByDefault = UNUSED.stream().filter(unused -> !unused.onByDefault()).toList();
    assertThat(classesOfFeaturesOff(loadedClasses(lines), offByDefault))
        .as("classes of features that are off by default, loaded from the AOT cache")
        .isEmpty();
  }

  /**
   * Starts the jar with the Java options and every optional feature off, creates one pseudonym over
   * gRPC, and returns the JVM's class-loading log up to the answer.
   */
  private static List<String> classLoadingUntilFirstCreate(String... javaOptions) throws Exception {
    int grpcPort = TestService.freePort();
    Path classLog =
        resources.own(Files.createTempFile("vfps-classes", ".log"), Files::deleteIfExists);
    Path log = resources.own(Files.createTempFile("vfps-lazy", ".log"), Files::deleteIfExists);
    List<String> options = new ArrayList<>(List.of(javaOptions));
    options.add("-Xlog:class+load:file=" + classLog);
    ProcessBuilder builder = jarService(log, options.toArray(String[]::new));
    builder.environment().put("Grpc__Port", Integer.toString(grpcPort));
    builder.environment().put("MetricsPort", "0");
    builder.environment().put("Init__v1__Namespaces__0__Name", "lazy");
    builder.environment().put("Init__v1__Namespaces__0__PseudonymLength", "16");
    ServiceProcess.startAndAwait(resources, builder, log);
    try (GrpcTestClient grpc = new GrpcTestClient(grpcPort)) {
      GrpcTestClient.Reply<?> created =
          grpc.call(
              PseudonymServiceGrpcClient.Create,
              PseudonymServiceCreateRequest.newBuilder()
                  .setNamespace("lazy")
                  .setOriginalValue("patient-" + UUID.randomUUID())
                  .build());
      assertThat(created.status()).as(Files.readString(log)).isEqualTo(GrpcStatus.OK);
    }
    // the JVM writes each line as it loads the class, so the file holds all before the answer
    return Files.readAllLines(classLog);
  }

  private static List<String> classesOfFeaturesOff(List<String> loaded, List<Unused> unused) {
    return unused.stream()
        .flatMap(
            feature ->
                loaded.stream()
                    .filter(name -> name.startsWith(feature.prefix()))
                    .map(name -> name + " (" + feature.neededFor() + ")"))
        .toList();
  }

  @Test
  void loadsHapisJsonParserForTheFhirEdge() {
    // the witness works: the FHIR edge's parser is made at start, so it is in the log
    assertThat(loadedBeforeFirstAnswer).contains("ca.uhn.fhir.parser.JsonParser");
  }

  @Test
  void theJarStillClustersTracesAndMetersWhenTheyAreOn() throws Exception {
    // the jar leaves the libraries' Vert.x service registrations out: what is on must not need them
    Path log = resources.own(Files.createTempFile("vfps-on", ".log"), Files::deleteIfExists);
    ProcessBuilder builder = jarService(log);
    int metricsPort = TestService.freePort();
    builder.environment().put("Grpc__Port", Integer.toString(TestService.freePort()));
    builder.environment().put("MetricsPort", Integer.toString(metricsPort));
    builder.environment().put("Cluster__IsEnabled", "true");
    builder.environment().put("Cluster__Name", "lazy-" + UUID.randomUUID());
    builder.environment().put("Cluster__Host", "127.0.0.1");
    builder.environment().put("Cluster__Members", "127.0.0.1");
    builder.environment().put("Cluster__Port", Integer.toString(TestService.freePort()));
    builder.environment().put("Cluster__EventBus__Port", Integer.toString(TestService.freePort()));
    builder.environment().put("Tracing__IsEnabled", "true");

    ServiceProcess.startAndAwait(resources, builder, log);

    assertThat(Files.readString(log)).contains("with 1 members", "tracing OTLP to ");
    try (HttpTestClient metrics = new HttpTestClient(metricsPort)) {
      assertThat(metrics.get("/metrics").body()).contains("vertx_eventbus_handlers");
    }
  }

  /** {@code java OPTIONS -jar vfps.jar serve} on the test database, with a free HTTP port. */
  private static ProcessBuilder jarService(Path log, String... javaOptions) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of(javaOptions));
    command.addAll(List.of("-jar", System.getProperty("vfps.jar", "target/vfps.jar"), "serve"));
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().clear();
    builder.environment().put("ConnectionStrings__PostgreSQL", TestPostgres.uri(database));
    builder.environment().put("Http__Port", Integer.toString(TestService.freePort()));
    return builder;
  }

  private static List<String> loadedClasses(List<String> lines) {
    return lines.stream()
        .map(LOADED::matcher)
        .filter(Matcher::find)
        .map(matcher -> matcher.group(1))
        .toList();
  }
}
