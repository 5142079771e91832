package org.vfps;

import static org.assertj.core.api.Assertions.assertThat;

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
 * would pull a class in. And the same jar with clustering, tracing and metrics on still has them.
 */
class LazyLoadingIT {

  /**
   * The class name prefixes that must not load with the optional features off, each with why it is
   * optional. One list, so that a new optional library is added here once.
   */
  static final List<Unused> UNUSED =
      List.of(
          new Unused("software.amazon.", "the AWS SDK: CSV jobs' S3 bucket (S3__IsEnabled)"),
          new Unused("org.vfps.objectstore.S3ObjectStore", "CSV jobs' S3 bucket"),
          new Unused("org.vfps.objectstore.EmbeddedObjectStore", "the embedded S3 store"),
          new Unused("org.vfps.job.CsvJobWorkers", "CSV job workers, started with a store"),
          new Unused("org.vfps.job.CsvJobRunner", "CSV job runs, started by the workers"),
          new Unused("org.vfps.voprf.", "VOPRF namespaces (Voprf__*) and the VOPRF server"),
          new Unused("com.hazelcast.", "clustering (Cluster__IsEnabled)"),
          new Unused("io.vertx.spi.cluster.", "clustering: Vert.x's Hazelcast cluster manager"),
          new Unused("org.vfps.cluster.HazelcastCluster", "clustering: forming the cluster"),
          new Unused("io.opentelemetry.", "tracing (Tracing__IsEnabled)"),
          new Unused("io.vertx.tracing.", "tracing: Vert.x's OpenTelemetry tracer"),
          new Unused("org.vfps.tracing.SdkTracing", "tracing: vfps's SDK set-up"),
          new Unused("io.micrometer.", "metrics (MetricsPort)"),
          new Unused("io.vertx.micrometer.", "metrics: Vert.x's meters"),
          new Unused("io.zonky.", "the embedded PostgreSQL (no connection string)"),
          new Unused("org.vfps.storage.EmbeddedDatabase", "the embedded PostgreSQL"),
          new Unused("org.flywaydb.", "migrations (ForceRunDatabaseMigrations, vfps migrate)"),
          new Unused("ca.uhn.fhir.parser.XmlParser", "FHIR XML: vfps speaks FHIR JSON only"),
          new Unused("ca.uhn.fhir.parser.RDFParser", "FHIR RDF: vfps speaks FHIR JSON only"),
          new Unused("com.ctc.wstx.", "woodstox, HAPI's XML parser"),
          new Unused("org.codehaus.stax2.", "stax2, HAPI's XML parser"),
          new Unused("org.apache.jena.", "Jena, HAPI's RDF parser"));

  /** A class name prefix that the start must not load, and the feature that needs it. */
  record Unused(String prefix, String neededFor) {}

  private static final Pattern LOADED = Pattern.compile("\\] (\\S+) source: ");

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static List<String> loadedBeforeFirstAnswer;

  private static ConnectionSettings database;

  @BeforeAll
  static void startWithOptionalFeaturesOffAndCreateOnePseudonym() throws Exception {
    database = TestPostgres.freshDatabase();
    Migrations.migrate(database);
    int grpcPort = TestService.freePort();
    Path classLog =
        resources.own(Files.createTempFile("vfps-classes", ".log"), Files::deleteIfExists);
    Path log = resources.own(Files.createTempFile("vfps-lazy", ".log"), Files::deleteIfExists);
    ProcessBuilder builder = jarService(log, "-Xlog:class+load:file=" + classLog);
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
                  .setOriginalValue("patient-1")
                  .build());
      assertThat(created.status()).as(Files.readString(log)).isEqualTo(GrpcStatus.OK);
    }
    // the JVM writes each line as it loads the class, so the file holds all before the answer
    loadedBeforeFirstAnswer = loadedClasses(Files.readAllLines(classLog));
  }

  @Test
  void loadsNoClassOfAFeatureThatIsOff() {
    List<String> loaded =
        UNUSED.stream()
            .flatMap(
                unused ->
                    loadedBeforeFirstAnswer.stream()
                        .filter(name -> name.startsWith(unused.prefix()))
                        .map(name -> name + " (" + unused.neededFor() + ")"))
            .toList();

    assertThat(loaded).as("classes of features that are off").isEmpty();
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
