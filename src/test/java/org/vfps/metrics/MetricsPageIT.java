package org.vfps.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.grpc.common.GrpcStatus;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.ClassResources;
import org.vfps.GrpcTestClient;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.PseudonymServiceBatchCreateRequest;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.auth.SecretHashing;
import org.vfps.server.VfpsServer;

/**
 * {@code docs/observability.md} is the one reference of the metrics: every family a service with
 * its caches and authorization on exports, after gRPC, REST, FHIR, batch and stream calls and a
 * denied one, is a row of its tables, by name or by a {@code prefix_*} row for a group of standard
 * families; and every named row is exported.
 */
class MetricsPageIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static final Path PAGE = Path.of("docs/observability.md");

  /** A table row's first cell in backticks: a family name, or a prefix with a star. */
  private static final Pattern ROW = Pattern.compile("(?m)^\\| `([a-z][a-z0-9_]*)(\\*?)` \\|");

  private static final Pattern TYPE = Pattern.compile("(?m)^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) ");

  private static final String SECRET = "metrics-page-secret";

  private static VfpsServer server;
  private static Set<String> exported;
  private static String scraped;

  private static Map<String, String> basic(String id) {
    String credentials = id + ":" + SECRET;
    return Map.of(
        "authorization",
        "Basic "
            + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
  }

  @BeforeAll
  static void exerciseAndScrape() throws IOException, InterruptedException {
    String hash = SecretHashing.hash(SECRET.toCharArray()).toString();
    // a service-account token, for the expiry gauge, which reads the tokens when it starts
    TestPostgres.execute(
        TestPostgres.database(),
        "INSERT INTO service_accounts (name, created_by, created_at, last_updated_at)"
            + " VALUES ('metrics-page', 'test', now(), now()) ON CONFLICT DO NOTHING",
        "INSERT INTO access_tokens (id, token_type, token_id, token_hash, name, expires_at,"
            + " created_by, roles, service_account_name, created_at, last_updated_at)"
            + " VALUES (gen_random_uuid(), 1, 'metrics-page-token', '\\x00'::bytea, 'page',"
            + " '2031-01-01T00:00:00Z', 'test', '[]'::jsonb, 'metrics-page', now(), now())"
            + " ON CONFLICT DO NOTHING");
    server =
        resources.own(
            TestService.start(
                Map.ofEntries(
                    Map.entry("ConnectionStrings__PostgreSQL", TestPostgres.uri()),
                    Map.entry("MetricsPort", Integer.toString(TestService.freePort())),
                    Map.entry("Pseudonymization__Caching__Namespaces__IsEnabled", "true"),
                    Map.entry("Pseudonymization__Caching__Pseudonyms__IsEnabled", "true"),
                    Map.entry("Authorization__IsEnabled", "true"),
                    Map.entry("Authorization__AdminRoles__0", "admin"),
                    Map.entry("Authorization__AccessTokens__IsEnabled", "true"),
                    Map.entry("Authorization__Clients__0__Id", "admin"),
                    Map.entry("Authorization__Clients__0__SecretHash", hash),
                    Map.entry("Authorization__Clients__0__Roles__0", "admin"),
                    Map.entry("Authorization__Clients__1__Id", "nobody"),
                    Map.entry("Authorization__Clients__1__SecretHash", hash))));
    GrpcTestClient client = resources.own(new GrpcTestClient(server.grpcPort()));
    String namespace = "metrics-page";
    client.call(
        NamespaceServiceGrpcClient.Create,
        NamespaceServiceCreateRequest.newBuilder()
            .setName(namespace)
            .setPseudonymLength(16)
            .build(),
        basic("admin"));
    PseudonymServiceCreateRequest create =
        PseudonymServiceCreateRequest.newBuilder()
            .setNamespace(namespace)
            .setOriginalValue("a")
            .build();
    List<GrpcStatus> answers =
        List.of(
            client.call(PseudonymServiceGrpcClient.Create, create, basic("admin")).status(),
            client.call(PseudonymServiceGrpcClient.Create, create, basic("admin")).status(),
            client
                .call(
                    PseudonymServiceGrpcClient.BatchCreate,
                    PseudonymServiceBatchCreateRequest.newBuilder()
                        .setNamespace(namespace)
                        .addAllOriginalValues(List.of("b", "c"))
                        .build(),
                    basic("admin"))
                .status(),
            client.stream(PseudonymServiceGrpcClient.CreateStream, List.of(create), basic("admin"))
                .status(),
            client.call(PseudonymServiceGrpcClient.Create, create, basic("nobody")).status());
    assertThat(answers)
        .containsExactly(
            GrpcStatus.OK,
            GrpcStatus.OK,
            GrpcStatus.OK,
            GrpcStatus.OK,
            GrpcStatus.PERMISSION_DENIED);

    HttpClient http = resources.own(HttpClient.newHttpClient());
    for (String path : List.of("/v1/namespaces/" + namespace, "/v1/fhir/metadata")) {
      HttpResponse<Void> answer =
          http.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.httpPort() + path))
                  .header("authorization", basic("admin").get("authorization"))
                  .build(),
              HttpResponse.BodyHandlers.discarding());
      assertThat(answer.statusCode()).as(path).isEqualTo(200);
    }

    String text =
        http.send(
                HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + server.metricsPort() + "/metrics"))
                    .build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    scraped = text;
    exported = new TreeSet<>();
    Matcher type = TYPE.matcher(text);
    while (type.find()) {
      exported.add(type.group(1));
    }
  }

  private static Set<String> rows(boolean prefixes) throws IOException {
    Set<String> names = new TreeSet<>();
    Matcher row = ROW.matcher(Files.readString(PAGE));
    while (row.find()) {
      if (row.group(2).isEmpty() != prefixes) {
        names.add(row.group(1));
      }
    }
    return names;
  }

  @Test
  void everyExportedFamilyIsOnThePage() throws IOException {
    Set<String> named = rows(false);
    Set<String> prefixes = rows(true);
    Set<String> missing = new TreeSet<>();
    for (String family : exported) {
      if (!named.contains(family) && prefixes.stream().noneMatch(family::startsWith)) {
        missing.add(family);
      }
    }

    assertThat(exported).as("the families /metrics exports").hasSizeGreaterThan(20);
    assertThat(missing).as("families /metrics exports but %s does not list", PAGE).isEmpty();
  }

  @Test
  void everyFamilyNamedOnThePageIsExported() throws IOException {
    Set<String> unknown = new TreeSet<>(rows(false));
    unknown.removeAll(exported);

    assertThat(unknown).as("families %s names but /metrics does not export", PAGE).isEmpty();
  }

  @Test
  void aServiceAccountTokensExpiryIsItsSeries() {
    Matcher series =
        Pattern.compile(
                "(?m)^vfps_service_account_token_expiration_timestamp_seconds\\{([^}]*)} (\\S+)$")
            .matcher(scraped);
    Map<String, Double> values = new java.util.HashMap<>();
    while (series.find()) {
      values.put(series.group(1), Double.parseDouble(series.group(2)));
    }

    assertThat(values)
        .containsEntry(
            "service_account=\"metrics-page\",token_id=\"metrics-page-token\","
                + "token_name=\"page\"",
            1_924_992_000d);
  }
}
