package org.vfps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
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
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.access.Audit;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.api.x.access.v1.AccessServiceGrpcClient;
import org.vfps.api.x.access.v1.CreateAccessTokenRequest;
import org.vfps.api.x.access.v1.CreateAccessTokenResponse;
import org.vfps.api.x.access.v1.CreateGrantRequest;
import org.vfps.api.x.access.v1.CreateServiceAccountRequest;
import org.vfps.api.x.access.v1.GranteeType;
import org.vfps.api.x.access.v1.ListAccessTokensRequest;
import org.vfps.api.x.access.v1.ListGrantsRequest;
import org.vfps.api.x.access.v1.RevokeAccessTokenRequest;
import org.vfps.auth.TestOidcProvider;
import org.vfps.config.ConnectionSettings;
import org.vfps.grpc.ReflectionIT;
import org.vfps.server.VfpsServer;

/**
 * Database grants and vfps access tokens, against a real OIDC provider and PostgreSQL: rows written
 * the way the .NET vfps writes them authenticate and grant here; tokens made here are stored in its
 * format; grants of each grantee type; every kind of bad token refused and audited; the access
 * API's refusals and bad input; reflection behind credentials; the tokens' last use written back.
 */
class AccessTokensIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  /** Short, so that rows written behind the service's back are seen within a test. */
  private static final Duration GRANT_CACHE = Duration.ofSeconds(2);

  private static TestOidcProvider provider;
  private static VfpsServer server;
  private static GrpcTestClient grpc;
  private static HttpTestClient http;
  private static String admin;
  private static String namespace;

  @RegisterExtension final LogCapture audit = LogCapture.of(Audit.LOGGER);
  @RegisterExtension final LogCapture service = LogCapture.of("org.vfps");

  @BeforeAll
  static void start() {
    provider = resources.own(new TestOidcProvider().start());
    Map<String, String> env = new HashMap<>();
    env.put("ConnectionStrings__PostgreSQL", TestPostgres.uri());
    env.put("Authorization__IsEnabled", "true");
    env.put("Authorization__Authority", provider.issuer());
    env.put("Authorization__Audience", TestOidcProvider.AUDIENCE);
    env.put("Authorization__RequireHttpsMetadata", "false");
    env.put("Authorization__AdminRoles__0", "vfps-admin");
    env.put("Authorization__GrantCacheDuration", "0.00:00:02");
    env.put("Authorization__AccessTokens__IsEnabled", "true");
    env.put("Authorization__AccessTokens__MaximumLifetime", "30.00:00:00");
    env.put("Authorization__AccessTokens__DefaultLifetime", "7.00:00:00");
    env.put("Authorization__AccessTokens__UsageFlushInterval", "0.00:00:01");
    server = resources.own(TestService.start(env));
    grpc = resources.own(new GrpcTestClient(server.grpcPort()));
    http = resources.own(new HttpTestClient(server.httpPort()));
    admin = bearer(provider.token("alice", "vfps-admin"));
    namespace = "access-" + UUID.randomUUID();
    createNamespace(admin, namespace);
  }

  private static String bearer(String token) {
    return "Bearer " + token;
  }

  private static Map<String, String> auth(String authorization) {
    return authorization == null ? Map.of() : Map.of("authorization", authorization);
  }

  private static void createNamespace(String authorization, String name) {
    assertThat(
            grpc.call(
                    NamespaceServiceGrpcClient.Create,
                    NamespaceServiceCreateRequest.newBuilder()
                        .setName(name)
                        .setPseudonymLength(16)
                        .build(),
                    auth(authorization))
                .status())
        .isEqualTo(GrpcStatus.OK);
  }

  private static GrpcTestClient.Reply<?> create(String authorization, String inNamespace) {
    return grpc.call(
        PseudonymServiceGrpcClient.Create,
        PseudonymServiceCreateRequest.newBuilder()
            .setNamespace(inNamespace)
            .setOriginalValue("value-" + UUID.randomUUID())
            .build(),
        auth(authorization));
  }

  private static String grant(GranteeType type, String grantee, String inNamespace) {
    return grpc.ok(
            AccessServiceGrpcClient.CreateGrant,
            CreateGrantRequest.newBuilder()
                .setNamespace(inNamespace)
                .setGranteeType(type)
                .setGrantee(grantee)
                .setCanWrite(true)
                .build(),
            auth(admin))
        .getGrant()
        .getId();
  }

  private static String serviceAccount(String prefix) {
    String name = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    grpc.ok(
        AccessServiceGrpcClient.CreateServiceAccount,
        CreateServiceAccountRequest.newBuilder().setName(name).build(),
        auth(admin));
    return name;
  }

  private static CreateAccessTokenResponse token(String authorization, String serviceAccount) {
    return grpc.ok(
        AccessServiceGrpcClient.CreateAccessToken,
        CreateAccessTokenRequest.newBuilder()
            .setName("test token")
            .setServiceAccount(serviceAccount)
            .build(),
        auth(authorization));
  }

  /** Waits (within ten times the grant cache's duration) until the status is the one expected. */
  private static void eventually(GrpcStatus expected, Supplier<GrpcStatus> call) {
    long deadline = System.nanoTime() + GRANT_CACHE.multipliedBy(10).toNanos();
    GrpcStatus last = null;
    while (System.nanoTime() < deadline) {
      last = call.get();
      if (last == expected) {
        return;
      }
      sleep(100);
    }
    fail("expected " + expected + " within " + GRANT_CACHE.multipliedBy(10) + ", last " + last);
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static String sha256Hex(String text) throws Exception {
    return HexFormat.of()
        .formatHex(
            MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
  }

  private static String randomBase64Url(int bytes) {
    byte[] random = new byte[bytes];
    new java.security.SecureRandom().nextBytes(random);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(random);
  }

  /** A token row as the .NET vfps writes it; returns the token's text. */
  private static String insertDotnetToken(
      String subject, String rolesJson, String serviceAccount, String expiresIn) throws Exception {
    String tokenId = randomBase64Url(16);
    String secret = randomBase64Url(32);
    boolean personal = serviceAccount == null;
    TestPostgres.execute(
        TestPostgres.database(),
        "INSERT INTO access_tokens (id, token_type, token_id, token_hash, name, expires_at,"
            + " created_by, subject, username, email, roles, service_account_name, created_at,"
            + " last_updated_at) VALUES ('"
            + UUID.randomUUID()
            + "', "
            + (personal ? 0 : 1)
            + ", '"
            + tokenId
            + "', '\\x"
            + sha256Hex(secret)
            + "'::bytea, 'written by .NET', now() + interval '"
            + expiresIn
            + "', 'dotnet-admin', "
            + (personal ? "'" + subject + "'" : "NULL")
            + ", "
            + (personal ? "'" + subject + "'" : "NULL")
            + ", NULL, '"
            + rolesJson
            + "'::jsonb, "
            + (personal ? "NULL" : "'" + serviceAccount + "'")
            + ", now(), now())");
    return (personal ? "vfps_pat_" : "vfps_sat_") + tokenId + "." + secret;
  }

  @Test
  void rowsTheDotnetServiceWroteAuthenticateAndGrant() throws Exception {
    String role = "dotnet-writer-" + UUID.randomUUID();
    String token = insertDotnetToken("dora", "[\"" + role + "\"]", null, "10 days");
    String account = "dotnet-sa-" + UUID.randomUUID().toString().substring(0, 8);
    TestPostgres.execute(
        TestPostgres.database(),
        "INSERT INTO service_accounts (name, description, created_by, created_at,"
            + " last_updated_at) VALUES ('"
            + account
            + "', NULL, 'dotnet-admin', now(), now())");
    String accountToken = insertDotnetToken(null, "[]", account, "10 days");

    // the tokens are known (within the grant cache's duration), but grant nothing yet
    eventually(GrpcStatus.PERMISSION_DENIED, () -> create(bearer(token), namespace).status());
    eventually(
        GrpcStatus.PERMISSION_DENIED, () -> create(bearer(accountToken), namespace).status());

    for (String[] grant : List.of(new String[] {"0", role}, new String[] {"2", account})) {
      TestPostgres.execute(
          TestPostgres.database(),
          "INSERT INTO namespace_access_grants (id, namespace_name, grantee_type, grantee,"
              + " can_read, can_write, can_reverse_lookup, created_at, last_updated_at) VALUES ('"
              + UUID.randomUUID()
              + "', '"
              + namespace
              + "', "
              + grant[0]
              + ", '"
              + grant[1]
              + "', false, true, false, now(), now())");
    }

    eventually(GrpcStatus.OK, () -> create(bearer(token), namespace).status());
    eventually(GrpcStatus.OK, () -> create(bearer(accountToken), namespace).status());
    // write, not reverse lookup: the grant's flags hold
    assertThat(
            http.send(
                    "GET",
                    "/v1/namespaces/" + namespace + "/pseudonyms",
                    Map.of("Authorization", bearer(token)),
                    null)
                .status())
        .isEqualTo(403);
  }

  @Test
  void aTokenMadeHereIsStoredInTheDotnetFormatAndWorksOnEveryEdge() throws Exception {
    String account = serviceAccount("edges");
    grant(GranteeType.GRANTEE_TYPE_SERVICE_ACCOUNT, account, namespace);
    CreateAccessTokenResponse created = token(admin, account);
    String secret = created.getSecret();

    assertThat(secret).matches("vfps_sat_[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}");
    assertThat(created.getAccessToken().getTokenId()).isEqualTo(secret.substring(9, 31));
    ConnectionSettings db = TestPostgres.database();
    assertThat(
            TestPostgres.queryLong(
                db,
                "SELECT count(*) FROM access_tokens WHERE token_id = ? AND token_type = 1"
                    + " AND service_account_name = ? AND roles = '[]'::jsonb"
                    + " AND encode(token_hash, 'hex') = ? AND revoked_at IS NULL",
                created.getAccessToken().getTokenId(),
                account,
                sha256Hex(secret.substring(32))))
        .isEqualTo(1);
    // the default lifetime: seven days
    assertThat(
            created.getAccessToken().getExpiresAt().getSeconds()
                - created.getAccessToken().getCreatedAt().getSeconds())
        .isEqualTo(Duration.ofDays(7).toSeconds());

    assertThat(create(bearer(secret), namespace).status()).isEqualTo(GrpcStatus.OK);
    assertThat(
            http.send(
                    "POST",
                    "/v1/namespaces/" + namespace + "/pseudonyms",
                    Map.of("Authorization", bearer(secret)),
                    "{\"originalValue\": \"rest-value\"}")
                .status())
        .isEqualTo(200);
    assertThat(
            http.send(
                    "POST",
                    "/v1/fhir/$create-pseudonym",
                    Map.of(
                        "Authorization", bearer(secret), "Content-Type", "application/fhir+json"),
                    "{\"resourceType\": \"Parameters\", \"parameter\": ["
                        + "{\"name\": \"namespace\", \"valueString\": \""
                        + namespace
                        + "\"}, {\"name\": \"originalValue\", \"valueString\": \"fhir-value\"}]}")
                .status())
        .isEqualTo(200);
    // never admin, and no token creates a token
    assertThat(
            grpc.call(
                    NamespaceServiceGrpcClient.Create,
                    NamespaceServiceCreateRequest.newBuilder()
                        .setName("sa-made-" + UUID.randomUUID())
                        .build(),
                    auth(bearer(secret)))
                .status())
        .isEqualTo(GrpcStatus.PERMISSION_DENIED);
    assertThat(
            grpc.call(
                    AccessServiceGrpcClient.CreateAccessToken,
                    CreateAccessTokenRequest.newBuilder().setName("x").build(),
                    auth(bearer(secret)))
                .status())
        .isEqualTo(GrpcStatus.PERMISSION_DENIED);

    // the use is written back within the flush interval
    long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
    while (TestPostgres.queryLong(
                db,
                "SELECT count(*) FROM access_tokens WHERE token_id = ? AND last_used_at IS NOT NULL",
                created.getAccessToken().getTokenId())
            == 0
        && System.nanoTime() < deadline) {
      sleep(200);
    }
    assertThat(
            TestPostgres.queryLong(
                db,
                "SELECT count(*) FROM access_tokens WHERE token_id = ? AND last_used_at IS NOT NULL",
                created.getAccessToken().getTokenId()))
        .isEqualTo(1);
    // no line of any log holds the secret
    assertThat(service.atLeast(Level.TRACE))
        .extracting(ILoggingEvent::getFormattedMessage)
        .noneMatch(line -> line.contains(secret.substring(32)));
  }

  @Test
  void aPersonalTokenActsAsItsOwnerDidWhenItWasMade() {
    String role = "study-writer-" + UUID.randomUUID();
    grant(GranteeType.GRANTEE_TYPE_ROLE, role, namespace);
    String person = bearer(provider.token("paula-" + UUID.randomUUID(), role));
    String secret = token(person, "").getSecret();

    assertThat(secret).startsWith("vfps_pat_");
    assertThat(create(bearer(secret), namespace).status()).isEqualTo(GrpcStatus.OK);
    // an admin's personal token is an admin
    String adminToken = token(admin, "").getSecret();
    createNamespace(bearer(adminToken), "made-by-token-" + UUID.randomUUID());
    // but it creates no token
    assertThat(
            grpc.call(
                    AccessServiceGrpcClient.CreateAccessToken,
                    CreateAccessTokenRequest.newBuilder().setName("again").build(),
                    auth(bearer(adminToken)))
                .status())
        .isEqualTo(GrpcStatus.PERMISSION_DENIED);
    // the owner lists it, and revokes it: it stops at once on this replica
    assertThat(
            grpc.ok(
                    AccessServiceGrpcClient.ListAccessTokens,
                    ListAccessTokensRequest.getDefaultInstance(),
                    auth(person))
                .getAccessTokensList())
        .extracting(listed -> listed.getTokenId())
        .containsExactly(secret.substring(9, 31));
    String id =
        grpc.ok(
                AccessServiceGrpcClient.ListAccessTokens,
                ListAccessTokensRequest.getDefaultInstance(),
                auth(person))
            .getAccessTokens(0)
            .getId();
    grpc.ok(
        AccessServiceGrpcClient.RevokeAccessToken,
        RevokeAccessTokenRequest.newBuilder().setId(id).build(),
        auth(person));
    assertThat(create(bearer(secret), namespace).status()).isEqualTo(GrpcStatus.UNAUTHENTICATED);
  }

  @Test
  void grantsOfEachGranteeTypeMatchTheirOwnCallersOnly() {
    String role = "role-" + UUID.randomUUID();
    String email = "Ella." + UUID.randomUUID() + "@Example.org";
    String account = serviceAccount("kind");
    grant(GranteeType.GRANTEE_TYPE_ROLE, role, namespace);
    grant(GranteeType.GRANTEE_TYPE_EMAIL, email, namespace);
    String child = "child-" + UUID.randomUUID();
    assertThat(
            grpc.call(
                    NamespaceServiceGrpcClient.Create,
                    NamespaceServiceCreateRequest.newBuilder()
                        .setName(child)
                        .setPseudonymLength(16)
                        .setParentName(namespace)
                        .build(),
                    auth(admin))
                .status())
        .isEqualTo(GrpcStatus.OK);

    String byRole = bearer(provider.token("rolf", role));
    String verified =
        bearer(
            provider.token(
                provider
                    .claims("ella")
                    .claim("email", email)
                    .claim("email_verified", true)
                    .build()));
    String unverified =
        bearer(
            provider.token(
                provider
                    .claims("mallory")
                    .claim("email", email)
                    .claim("email_verified", false)
                    .build()));
    // a service-account token whose account has no grant of its own, named like the role
    String accountToken = bearer(token(admin, account).getSecret());

    assertThat(create(byRole, namespace).status()).isEqualTo(GrpcStatus.OK);
    assertThat(create(verified, namespace).status()).isEqualTo(GrpcStatus.OK);
    assertThat(create(unverified, namespace).status()).isEqualTo(GrpcStatus.PERMISSION_DENIED);
    assertThat(create(accountToken, namespace).status()).isEqualTo(GrpcStatus.PERMISSION_DENIED);
    // nothing is inherited down the namespace tree
    assertThat(create(byRole, child).status()).isEqualTo(GrpcStatus.PERMISSION_DENIED);
  }

  @Test
  void everyBadTokenIsUnauthenticatedAndAudited() throws Exception {
    String account = serviceAccount("bad");
    grant(GranteeType.GRANTEE_TYPE_SERVICE_ACCOUNT, account, namespace);
    String good = token(admin, account).getSecret();
    String expired = insertDotnetToken(null, "[]", account, "-1 minutes");
    String revoked = token(admin, account).getSecret();
    String revokedId =
        grpc
            .ok(
                AccessServiceGrpcClient.ListAccessTokens,
                ListAccessTokensRequest.newBuilder().setServiceAccount(account).build(),
                auth(admin))
            .getAccessTokensList()
            .stream()
            .filter(listed -> revoked.contains(listed.getTokenId()))
            .findFirst()
            .orElseThrow()
            .getId();
    grpc.ok(
        AccessServiceGrpcClient.RevokeAccessToken,
        RevokeAccessTokenRequest.newBuilder().setId(revokedId).build(),
        auth(admin));
    Map<String, String> cases =
        Map.of(
            "vfps_sat_nodot",
            "Malformed access token.",
            "vfps_sat_." + good.substring(32),
            "Malformed access token.",
            good.substring(0, 32) + randomBase64Url(32),
            "Unknown or revoked access token.",
            "vfps_sat_" + randomBase64Url(16) + "." + good.substring(32),
            "Unknown or revoked access token.",
            revoked,
            "Unknown or revoked access token.");
    eventually(GrpcStatus.UNAUTHENTICATED, () -> create(bearer(expired), namespace).status());
    for (Map.Entry<String, String> bad : cases.entrySet()) {
      GrpcTestClient.Reply<?> reply = create(bearer(bad.getKey()), namespace);
      assertThat(reply.status()).as(bad.getKey()).isEqualTo(GrpcStatus.UNAUTHENTICATED);
      assertThat(reply.message()).as(bad.getKey()).isEqualTo(bad.getValue());
    }
    assertThat(create(bearer(expired), namespace).message())
        .isEqualTo("The access token has expired.");
    HttpTestClient.Response rest =
        http.send(
            "POST",
            "/v1/namespaces/" + namespace + "/pseudonyms",
            Map.of("Authorization", bearer(revoked)),
            "{\"originalValue\": \"x\"}");
    assertThat(rest.status()).isEqualTo(401);
    assertThat(rest.headers().firstValue("WWW-Authenticate"))
        .hasValue("Bearer error=\"invalid_token\"");
    assertThat(create(bearer(good), namespace).status()).isEqualTo(GrpcStatus.OK);

    List<ILoggingEvent> refused =
        audit.atLeast(Level.INFO).stream()
            .filter(event -> event.getFormattedMessage().endsWith("UNAUTHENTICATED"))
            .toList();
    assertThat(refused.size()).isGreaterThanOrEqualTo(cases.size() + 2);
    assertThat(refused)
        .extracting(AccessTokensIT::reason)
        .contains(
            "Malformed access token.",
            "Unknown or revoked access token.",
            "The access token has expired.");
    // no audit line holds a secret
    assertThat(audit.atLeast(Level.TRACE))
        .extracting(event -> event.getFormattedMessage() + event.getKeyValuePairs())
        .noneMatch(
            line -> line.contains(good.substring(32)) || line.contains(revoked.substring(32)));
  }

  private static String reason(ILoggingEvent event) {
    return event.getKeyValuePairs().stream()
        .filter(pair -> pair.key.equals("reason"))
        .map(pair -> String.valueOf(pair.value))
        .findFirst()
        .orElse("");
  }

  @Test
  void theAccessApiRefusesNonAdminsAndAuditsEveryChange() {
    String someone = bearer(provider.token("sam", "study-read"));
    assertThat(
            grpc.call(
                    AccessServiceGrpcClient.ListGrants,
                    ListGrantsRequest.getDefaultInstance(),
                    auth(someone))
                .status())
        .isEqualTo(GrpcStatus.PERMISSION_DENIED);
    assertThat(
            grpc.call(
                    AccessServiceGrpcClient.CreateServiceAccount,
                    CreateServiceAccountRequest.newBuilder().setName("sams-account").build(),
                    auth(someone))
                .status())
        .isEqualTo(GrpcStatus.PERMISSION_DENIED);
    assertThat(
            grpc.call(
                    AccessServiceGrpcClient.ListAccessTokens,
                    ListAccessTokensRequest.newBuilder().setAll(true).build(),
                    auth(someone))
                .status())
        .isEqualTo(GrpcStatus.PERMISSION_DENIED);
    HttpTestClient.Response rest =
        http.send(
            "POST",
            "/x/v1/access/grants",
            Map.of("Authorization", someone),
            "{\"namespace\": \""
                + namespace
                + "\", \"granteeType\": \"GRANTEE_TYPE_ROLE\","
                + " \"grantee\": \"study-read\", \"canReverseLookup\": true}");
    assertThat(rest.status()).isEqualTo(403);
    assertThat(rest.json().getInteger("code")).isEqualTo(7);
    assertThat(
            grpc.call(
                    PseudonymServiceGrpcClient.Create,
                    PseudonymServiceCreateRequest.newBuilder()
                        .setNamespace(namespace)
                        .setOriginalValue("x")
                        .build(),
                    auth(someone))
                .status())
        .isEqualTo(GrpcStatus.PERMISSION_DENIED);

    String id = grant(GranteeType.GRANTEE_TYPE_ROLE, "audited-" + UUID.randomUUID(), namespace);
    assertThat(
            audit.atLeast(Level.INFO).stream()
                .filter(event -> event.getFormattedMessage().equals("AccessService/CreateGrant OK"))
                .map(event -> event.getKeyValuePairs().toString()))
        .anyMatch(pairs -> pairs.contains(id) && pairs.contains("subject=\"alice\""));
    assertThat(audit.atLeast(Level.INFO).stream().map(ILoggingEvent::getFormattedMessage))
        .contains(
            "AccessService/ListGrants PERMISSION_DENIED",
            "AccessService/CreateServiceAccount PERMISSION_DENIED");
  }

  @Test
  void badInputIsRefusedClearlyAndStoresNothing() {
    ConnectionSettings db = TestPostgres.database();
    long grants = TestPostgres.queryLong(db, "SELECT count(*) FROM namespace_access_grants");
    long accounts = TestPostgres.queryLong(db, "SELECT count(*) FROM service_accounts");
    long tokens = TestPostgres.queryLong(db, "SELECT count(*) FROM access_tokens");
    Map<String, String> admins = Map.of("Authorization", admin);
    Map<String, String> badGrants =
        Map.of(
            "{\"namespace\": \"" + namespace + "\", \"grantee\": \"r\", \"canRead\": true}",
                "grantee_type must be",
            "{\"namespace\": \""
                    + namespace
                    + "\", \"granteeType\": \"GRANTEE_TYPE_UNSPECIFIED\","
                    + " \"grantee\": \"r\", \"canRead\": true}",
                "grantee_type must be",
            "{\"namespace\": \""
                    + namespace
                    + "\", \"allNamespaces\": true,"
                    + " \"granteeType\": \"GRANTEE_TYPE_ROLE\", \"grantee\": \"r\", \"canRead\": true}",
                "Exactly one of namespace and all_namespaces",
            "{\"namespace\": \""
                    + namespace
                    + "\", \"granteeType\": \"GRANTEE_TYPE_ROLE\","
                    + " \"grantee\": \"r\"}",
                "at least one of can_read",
            "{\"namespace\": \""
                    + namespace
                    + "\", \"granteeType\": \"GRANTEE_TYPE_EMAIL\","
                    + " \"grantee\": \"not an address\", \"canRead\": true}",
                "not an e-mail address",
            "{\"namespace\": \""
                    + namespace
                    + "\", \"granteeType\": \"GRANTEE_TYPE_SERVICE_ACCOUNT\","
                    + " \"grantee\": \"Bad_Name!\", \"canRead\": true}",
                "not a service account's name",
            "{\"namespace\": \""
                    + namespace
                    + "\", \"granteeType\": \"GRANTEE_TYPE_ROLE\","
                    + " \"grantee\": \"nul\\u0000role\", \"canRead\": true}",
                "must not contain NUL");
    for (Map.Entry<String, String> bad : badGrants.entrySet()) {
      HttpTestClient.Response answer =
          http.send("POST", "/x/v1/access/grants", admins, bad.getKey());
      assertThat(answer.status()).as(bad.getKey()).isEqualTo(400);
      assertThat(answer.json().getString("message")).as(bad.getKey()).contains(bad.getValue());
    }
    // an unknown grantee type by number is refused too, by the contract or the service
    assertThat(
            http.send(
                    "POST",
                    "/x/v1/access/grants",
                    admins,
                    "{\"namespace\": \""
                        + namespace
                        + "\", \"granteeType\": 9,"
                        + " \"grantee\": \"r\", \"canRead\": true}")
                .status())
        .isEqualTo(400);
    for (String name :
        List.of("a", "-starts-with-hyphen", "ends-", "under_score", "x".repeat(65))) {
      HttpTestClient.Response answer =
          http.send(
              "POST", "/x/v1/access/service-accounts", admins, "{\"name\": \"" + name + "\"}");
      assertThat(answer.status()).as(name).isEqualTo(400);
      assertThat(answer.json().getString("message")).as(name).contains("2 to 64");
    }
    assertThat(http.send("GET", "/x/v1/access/grants?namespace=a%00b", admins, null).status())
        .isEqualTo(400);
    assertThat(http.send("DELETE", "/x/v1/access/service-accounts/a%00b", admins, null).status())
        .isEqualTo(404);
    String account = serviceAccount("lifetime");
    HttpTestClient.Response tooLong =
        http.send(
            "POST",
            "/x/v1/access/tokens",
            admins,
            "{\"name\": \"t\", \"serviceAccount\": \"" + account + "\", \"lifetimeDays\": 31}");
    assertThat(tooLong.status()).isEqualTo(400);
    assertThat(tooLong.json().getString("message"))
        .contains("at most 30 (Authorization__AccessTokens__MaximumLifetime)");
    assertThat(
            http.send(
                    "POST",
                    "/x/v1/access/grants",
                    admins,
                    "{\"namespace\": \"no-such-"
                        + UUID.randomUUID()
                        + "\","
                        + " \"granteeType\": \"GRANTEE_TYPE_ROLE\", \"grantee\": \"r\","
                        + " \"canRead\": true}")
                .status())
        .isEqualTo(404);
    assertThat(
            http.send("PATCH", "/x/v1/access/grants/not-a-uuid", admins, "{\"canRead\": true}")
                .status())
        .isEqualTo(400);
    assertThat(
            http.send("DELETE", "/x/v1/access/grants/" + UUID.randomUUID(), admins, null).status())
        .isEqualTo(404);

    assertThat(TestPostgres.queryLong(db, "SELECT count(*) FROM namespace_access_grants"))
        .isEqualTo(grants);
    assertThat(TestPostgres.queryLong(db, "SELECT count(*) FROM service_accounts"))
        .isEqualTo(accounts + 1);
    assertThat(TestPostgres.queryLong(db, "SELECT count(*) FROM access_tokens")).isEqualTo(tokens);
    // a duplicate is a conflict
    String role = "dup-" + UUID.randomUUID();
    grant(GranteeType.GRANTEE_TYPE_ROLE, role, namespace);
    assertThat(
            http.send(
                    "POST",
                    "/x/v1/access/grants",
                    admins,
                    "{\"namespace\": \""
                        + namespace
                        + "\", \"granteeType\": \"GRANTEE_TYPE_ROLE\","
                        + " \"grantee\": \""
                        + role
                        + "\", \"canRead\": true}")
                .status())
        .isEqualTo(409);
    assertThat(service.atLeast(Level.ERROR)).isEmpty();
  }

  @Test
  void reflectionNeedsCredentialsAndHealthDoesNot() {
    assertThat(grpc.call(ReflectionIT.REFLECTION, ReflectionIT.LIST_SERVICES).status())
        .isEqualTo(GrpcStatus.UNAUTHENTICATED);
    assertThat(
            grpc.call(ReflectionIT.REFLECTION, ReflectionIT.LIST_SERVICES, auth(admin))
                .body()
                .getListServicesResponse()
                .getServiceList())
        .extracting(service -> service.getName())
        .contains("vfps.api.v1.PseudonymService", "vfps.x.access.v1.AccessService");
    assertThat(
            grpc.call(
                    GrpcTestClient.HEALTH_CHECK,
                    io.vertx.grpc.health.v1.HealthCheckRequest.getDefaultInstance())
                .status())
        .isEqualTo(GrpcStatus.OK);
    assertThat(http.get("/readyz").status()).isEqualTo(200);
  }

  @Test
  void deletingAServiceAccountDeletesItsGrantsAndTokens() {
    String account = serviceAccount("gone");
    grant(GranteeType.GRANTEE_TYPE_SERVICE_ACCOUNT, account, namespace);
    String secret = token(admin, account).getSecret();
    assertThat(create(bearer(secret), namespace).status()).isEqualTo(GrpcStatus.OK);

    JsonObject deleted =
        http.send(
                "DELETE",
                "/x/v1/access/service-accounts/" + account,
                Map.of("Authorization", admin),
                null)
            .json();

    assertThat(deleted.fieldNames()).isEmpty();
    assertThat(create(bearer(secret), namespace).status()).isEqualTo(GrpcStatus.UNAUTHENTICATED);
    ConnectionSettings db = TestPostgres.database();
    assertThat(
            TestPostgres.queryLong(
                db,
                "SELECT count(*) FROM namespace_access_grants WHERE grantee_type = 2 AND grantee = ?",
                account))
        .isZero();
    assertThat(
            TestPostgres.queryLong(
                db, "SELECT count(*) FROM access_tokens WHERE service_account_name = ?", account))
        .isZero();
  }
}
