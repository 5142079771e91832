package org.vfps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import com.nimbusds.jwt.JWTClaimsSet;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.grpc.common.GrpcStatus;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.access.Audit;
import org.vfps.api.x.access.v1.AccessServiceGrpcClient;
import org.vfps.api.x.access.v1.AccessToken;
import org.vfps.api.x.access.v1.CreateAccessTokenRequest;
import org.vfps.api.x.access.v1.ListAccessTokensRequest;
import org.vfps.api.x.access.v1.RevokeAccessTokenRequest;
import org.vfps.auth.SecretHashing;
import org.vfps.auth.TestOidcProvider;
import org.vfps.objectstore.TestObjectStore;
import org.vfps.server.VfpsServer;

/**
 * Who a caller is, with authorization on: a provider token without {@code sub} is named by its
 * {@code azp} and is nobody else, one with neither is refused, and a client account named like a
 * person's {@code sub} is not that person: none of them sees or touches another's CSV jobs or
 * personal access tokens, over REST and gRPC.
 */
class CallerIdentityIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static final String TWIN_SECRET = "the twin's secret, not the person's";

  private static TestOidcProvider provider;
  private static HttpTestClient http;
  private static GrpcTestClient grpc;
  private static String namespace;

  /** A person's {@code sub}, and the id of a client account. */
  private static String twin;

  @RegisterExtension final LogCapture audit = LogCapture.of(Audit.LOGGER);

  @BeforeAll
  static void start() {
    provider = resources.own(new TestOidcProvider().start());
    namespace = "identity-" + UUID.randomUUID();
    twin = "carol-" + UUID.randomUUID().toString().substring(0, 8);
    Map<String, String> env = new HashMap<>(TestObjectStore.environment());
    env.put("ConnectionStrings__PostgreSQL", TestPostgres.uri());
    env.putAll(AuthorizationIT.authorization(provider, namespace));
    env.put("Authorization__Clients__1__Id", twin);
    env.put(
        "Authorization__Clients__1__SecretHash",
        SecretHashing.hash(TWIN_SECRET.toCharArray()).toString());
    env.put("Authorization__Clients__1__Roles__0", "study-auditor");
    env.put("Authorization__AccessTokens__IsEnabled", "true");
    VfpsServer server = resources.own(TestService.start(env));
    http = resources.own(new HttpTestClient(server.httpPort()));
    grpc = resources.own(new GrpcTestClient(server.grpcPort()));
    // the provider's signing keys load after the start; until then a bearer token is UNAVAILABLE
    await("the service is ready, the provider's keys loaded")
        .atMost(Duration.ofSeconds(30))
        .until(() -> http.get("/readyz").status() == 200);
    HttpTestClient.Response created =
        http.send(
            "POST",
            "/v1/namespaces",
            auth("Bearer " + provider.token("alice", "vfps-admin")),
            new JsonObject().put("name", namespace).put("pseudonymLength", 16).encode());
    assertThat(created.status()).as(created.body()).isEqualTo(200);
  }

  /** A bearer token of the provider without {@code sub}: a client's, by client credentials. */
  private static String clientToken(String azp, String... roles) {
    JWTClaimsSet.Builder claims = provider.claims("ignored", roles).subject(null);
    if (azp != null) {
      claims.claim("azp", azp);
    }
    return "Bearer " + provider.token(claims.build());
  }

  private static Map<String, String> auth(String authorization) {
    return Map.of("authorization", authorization);
  }

  private static HttpTestClient.Response export(String authorization) {
    JsonObject mapping =
        new JsonObject()
            .put("sourceColumn", "original")
            .put("targetColumn", "pseudonym")
            .put("namespace", namespace);
    return http.send(
        "POST",
        "/v1/csv-jobs",
        auth(authorization),
        new JsonObject()
            .put("direction", "CSV_JOB_DIRECTION_EXPORT")
            .put("columnMappings", new JsonArray(List.of(mapping)))
            .encode());
  }

  private static List<String> jobIds(String authorization) {
    HttpTestClient.Response list = http.send("GET", "/v1/csv-jobs", auth(authorization), null);
    assertThat(list.status()).as(list.body()).isEqualTo(200);
    return list.json().getJsonArray("jobs").stream()
        .map(job -> ((JsonObject) job).getString("id"))
        .toList();
  }

  /** Asserts that the caller can neither read, cancel nor list the job. */
  private static void assertForeign(String authorization, String job) {
    assertThat(http.send("GET", "/v1/csv-jobs/" + job, auth(authorization), null).status())
        .isEqualTo(404);
    assertThat(
            http.send("POST", "/v1/csv-jobs/" + job + ":cancel", auth(authorization), "{}")
                .status())
        .isEqualTo(404);
    assertThat(jobIds(authorization)).doesNotContain(job);
  }

  private static List<AccessToken> tokens(String authorization) {
    return grpc.ok(
            AccessServiceGrpcClient.ListAccessTokens,
            ListAccessTokensRequest.getDefaultInstance(),
            auth(authorization))
        .getAccessTokensList();
  }

  private static GrpcStatus revoke(String authorization, String id) {
    return grpc.call(
            AccessServiceGrpcClient.RevokeAccessToken,
            RevokeAccessTokenRequest.newBuilder().setId(id).build(),
            auth(authorization))
        .status();
  }

  @Test
  void clientsWithoutSubAreNamedByTheirAzpAndKeepTheirJobsApart() {
    String etl = "etl-" + UUID.randomUUID();
    String exporter = clientToken(etl, "study-auditor");
    String stranger = clientToken("other-" + UUID.randomUUID());

    HttpTestClient.Response created = export(exporter);
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    String job = created.json().getString("id");

    // a client without any right is refused before anything is looked up; one with the same
    // rights as the creator is not the creator
    assertThat(http.send("GET", "/v1/csv-jobs/" + job, auth(stranger), null).status())
        .isEqualTo(403);
    assertForeign(clientToken("other-" + UUID.randomUUID(), "study-auditor"), job);
    assertThat(http.send("GET", "/v1/csv-jobs/" + job, auth(exporter), null).status())
        .isEqualTo(200);
    assertThat(jobIds(exporter)).contains(job);
    assertThat(created.json().getString("createdBy")).isEqualTo("azp:" + etl);
    // the audit trail names the client as such, never as a person's sub
    assertThat(export(stranger).status()).isEqualTo(403);
    assertThat(audit.atLeast(Level.INFO))
        .anySatisfy(
            event ->
                assertThat(event.getKeyValuePairs().toString())
                    .contains("PERMISSION_DENIED")
                    .contains("subject=\"azp:other-"));
  }

  @Test
  void aTokenWithNeitherSubNorAzpIsRefusedNamingTheClaims() {
    String nameless = clientToken(null, "vfps-admin");

    HttpTestClient.Response rest = http.send("GET", "/v1/csv-jobs", auth(nameless), null);
    assertThat(rest.status()).as(rest.body()).isEqualTo(401);
    assertThat(rest.json().getString("message")).contains("sub").contains("azp");
    GrpcTestClient.Reply<?> call =
        grpc.call(
            AccessServiceGrpcClient.ListAccessTokens,
            ListAccessTokensRequest.getDefaultInstance(),
            auth(nameless));
    assertThat(call.status()).isEqualTo(GrpcStatus.UNAUTHENTICATED);
    assertThat(call.message()).contains("sub").contains("azp");
  }

  @Test
  void aClientAccountNamedLikeAPersonsSubIsNotThatPerson() {
    String person = "Bearer " + provider.token(twin, "study-auditor");
    String account =
        "Basic "
            + Base64.getEncoder()
                .encodeToString((twin + ":" + TWIN_SECRET).getBytes(StandardCharsets.UTF_8));
    HttpTestClient.Response personal = export(person);
    assertThat(personal.status()).as(personal.body()).isEqualTo(200);
    String personsJob = personal.json().getString("id");
    HttpTestClient.Response machine = export(account);
    assertThat(machine.status()).as(machine.body()).isEqualTo(200);
    String accountsJob = machine.json().getString("id");
    String token =
        grpc.ok(
                AccessServiceGrpcClient.CreateAccessToken,
                CreateAccessTokenRequest.newBuilder().setName("carol's laptop").build(),
                auth(person))
            .getAccessToken()
            .getId();

    assertForeign(account, personsJob);
    assertForeign(person, accountsJob);
    assertThat(tokens(account)).extracting(AccessToken::getId).doesNotContain(token);
    assertThat(revoke(account, token)).isEqualTo(GrpcStatus.NOT_FOUND);
    assertThat(tokens(person))
        .singleElement()
        .satisfies(
            mine -> {
              assertThat(mine.getId()).isEqualTo(token);
              assertThat(mine.hasRevokedAt()).isFalse();
            });
    assertThat(jobIds(person)).contains(personsJob);
    assertThat(jobIds(account)).contains(accountsJob);
  }

  @Test
  void clientsWithoutSubOwnNoPersonalTokensAndNoneOfTheOldSharedOnes() throws Exception {
    String admin = clientToken("admin-client-" + UUID.randomUUID(), "vfps-admin");
    GrpcTestClient.Reply<?> refused =
        grpc.call(
            AccessServiceGrpcClient.CreateAccessToken,
            CreateAccessTokenRequest.newBuilder().setName("shared?").build(),
            auth(admin));
    assertThat(refused.status()).isEqualTo(GrpcStatus.PERMISSION_DENIED);

    // an admin's token as vfps wrote it before, for every caller without sub: owned by nobody now
    String secret = randomBase64Url(32);
    String tokenId = randomBase64Url(16);
    String id = UUID.randomUUID().toString();
    TestPostgres.execute(
        TestPostgres.database(),
        "INSERT INTO access_tokens (id, token_type, token_id, token_hash, name, expires_at,"
            + " created_by, subject, username, email, roles, service_account_name, created_at,"
            + " last_updated_at) VALUES ('"
            + id
            + "', 0, '"
            + tokenId
            + "', '\\x"
            + HexFormat.of()
                .formatHex(
                    MessageDigest.getInstance("SHA-256")
                        .digest(secret.getBytes(StandardCharsets.UTF_8)))
            + "'::bytea, 'shared', now() + interval '1 day', 'anonymous', 'anonymous', NULL,"
            + " NULL, '[\"vfps-admin\"]'::jsonb, NULL, now(), now())");
    String stranger = clientToken("other-" + UUID.randomUUID());

    assertThat(tokens(stranger)).extracting(AccessToken::getId).doesNotContain(id);
    assertThat(revoke(stranger, id)).isEqualTo(GrpcStatus.NOT_FOUND);
    HttpTestClient.Response used =
        http.send("GET", "/v1/csv-jobs", auth("Bearer vfps_pat_" + tokenId + "." + secret), null);
    assertThat(used.status()).as(used.body()).isEqualTo(401);
  }

  @Test
  void jobsStoredWithoutTheirCreatorsIssuerKeepTheirOwners() {
    String person = "Bearer " + provider.token(twin, "study-auditor");
    String account =
        "Basic "
            + Base64.getEncoder()
                .encodeToString((twin + ":" + TWIN_SECRET).getBytes(StandardCharsets.UTF_8));
    // the .NET vfps's job: created_by is a sub, and there is no run row
    String dotnets = insertEndedJob(twin);
    // vfps's job of a client account, stored before creators named their issuer
    String accounts = insertEndedJob(twin);
    TestPostgres.execute(
        TestPostgres.database(),
        "INSERT INTO vfps_csv_job_runs (job_id, creator) VALUES ('"
            + accounts
            + "', '{\"subject\":\""
            + twin
            + "\",\"roles\":[\"study-auditor\"],\"clientAddress\":\"127.0.0.1\","
            + "\"credential\":\"CLIENT_ACCOUNT\"}'::jsonb)");

    assertThat(jobIds(person)).contains(dotnets).doesNotContain(accounts);
    assertThat(http.send("GET", "/v1/csv-jobs/" + dotnets, auth(person), null).status())
        .isEqualTo(200);
    assertForeign(person, accounts);
    assertThat(jobIds(account)).contains(accounts).doesNotContain(dotnets);
    assertThat(http.send("GET", "/v1/csv-jobs/" + accounts, auth(account), null).status())
        .isEqualTo(200);
    assertForeign(account, dotnets);
  }

  /** A cancelled export job's row, as the .NET vfps writes it; returns its id. */
  private static String insertEndedJob(String createdBy) {
    String id = UUID.randomUUID().toString();
    TestPostgres.execute(
        TestPostgres.database(),
        "INSERT INTO pseudonymization_jobs (id, status, created_by, input_object_key,"
            + " output_object_key, encoding, delimiter, has_header_row, column_mappings,"
            + " total_bytes, bytes_processed, rows_processed, error_message, hangfire_job_id,"
            + " created_at, last_updated_at, direction, bad_data_row_count, original_file_name,"
            + " missing_value_count, pseudonymize_mode, unresolved_value_count) VALUES ('"
            + id
            + "', 5, '"
            + createdBy
            + "', NULL, NULL, 'utf-8', ',', true,"
            + " '[{\"SourceColumn\":\"o\",\"TargetColumn\":\"p\",\"Namespace\":\""
            + namespace
            + "\"}]', 0, 0, 0, NULL, NULL, now(), now(), 3, 0, NULL, 0, 0, 0)");
    return id;
  }

  private static String randomBase64Url(int bytes) {
    byte[] random = new byte[bytes];
    new java.security.SecureRandom().nextBytes(random);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(random);
  }
}
