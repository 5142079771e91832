package org.vfps;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.vertx.core.json.JsonObject;
import io.vertx.grpc.common.GrpcMessageDecoder;
import io.vertx.grpc.common.GrpcMessageEncoder;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.common.ServiceMethod;
import io.vertx.grpc.common.ServiceName;
import io.vertx.grpc.health.v1.HealthCheckRequest;
import io.vertx.grpc.health.v1.HealthCheckResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BiFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;
import org.vfps.access.Audit;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceDeleteRequest;
import org.vfps.api.v1.NamespaceServiceGetAllRequest;
import org.vfps.api.v1.NamespaceServiceGetAllResponse;
import org.vfps.api.v1.NamespaceServiceGetRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.PseudonymServiceBatchCreateRequest;
import org.vfps.api.v1.PseudonymServiceBatchGetRequest;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceGetRequest;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.api.v1.PseudonymServiceListRequest;
import org.vfps.api.x.withdrawal.v1.DeletePseudonymsRequest;
import org.vfps.api.x.withdrawal.v1.WithdrawalServiceGrpcClient;
import org.vfps.auth.SecretHashing;
import org.vfps.auth.TestOidcProvider;
import org.vfps.metrics.Scrape;
import org.vfps.server.VfpsServer;

/**
 * Authorization on, against an OIDC provider in the test JVM: the permission matrix of the .NET
 * role model over gRPC, REST and FHIR, GetAll filtering, every kind of bad credentials, key
 * rotation, client accounts with Basic, the audit trail and the denied-calls counter.
 */
class AuthorizationIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static final String CLIENT_ID = "pseudonymizer";
  private static final String CLIENT_SECRET = "correct horse battery staple";

  private static TestOidcProvider provider;
  private static VfpsServer server;
  private static GrpcTestClient grpc;
  private static HttpTestClient http;
  private static String namespace;
  private static String other;
  private static String pseudonym;
  private static String original;
  private static Map<String, String> callers;

  private final ListAppender<ILoggingEvent> audit = new ListAppender<>();
  private final Logger auditLogger = (Logger) LoggerFactory.getLogger(Audit.LOGGER);

  /** The callers of the matrix, in its column order. */
  private static final List<String> WHO =
      List.of("admin", "reader", "writer", "auditor", "star-reader", "anonymous");

  @BeforeAll
  static void start() {
    provider = resources.own(new TestOidcProvider().start());
    namespace = "auth-" + UUID.randomUUID();
    other = "auth-other-" + UUID.randomUUID();
    Map<String, String> env = new HashMap<>();
    env.put("ConnectionStrings__PostgreSQL", TestPostgres.uri());
    env.put("MetricsPort", Integer.toString(TestService.freePort()));
    env.putAll(authorization(provider, namespace));
    server = resources.own(TestService.start(env));
    grpc = resources.own(new GrpcTestClient(server.grpcPort()));
    http = resources.own(new HttpTestClient(server.httpPort()));
    issueTokens();
    for (String name : List.of(namespace, other)) {
      assertThat(createNamespace(callers.get("admin"), name)).isEqualTo(GrpcStatus.OK);
    }
    original = "original-" + UUID.randomUUID();
    pseudonym = createPseudonym(callers.get("writer")).body().getPseudonym().getPseudonymValue();
  }

  /** Tokens of the current keys (a test rotates them) for the callers of the matrix. */
  private static void issueTokens() {
    callers = new LinkedHashMap<>();
    callers.put("admin", bearer(provider.token("alice", "vfps-admin")));
    callers.put("reader", bearer(provider.token("rita", "study-read")));
    callers.put("writer", bearer(provider.token("walt", "study-write")));
    callers.put("auditor", bearer(provider.token("aude", "study-auditor")));
    callers.put("star-reader", bearer(provider.token("stella", "all-read")));
    callers.put("anonymous", null);
  }

  /** The settings of the tests' service: the upstream role model on {@code namespace}. */
  static Map<String, String> authorization(TestOidcProvider provider, String namespace) {
    Map<String, String> env = new HashMap<>();
    env.put("Authorization__IsEnabled", "true");
    env.put("Authorization__Authority", provider.issuer());
    env.put("Authorization__Audience", TestOidcProvider.AUDIENCE);
    env.put("Authorization__RequireHttpsMetadata", "false");
    env.put("Authorization__AdminRoles__0", "vfps-admin");
    env.put("Authorization__NamespaceRules__0__Namespace", namespace);
    env.put("Authorization__NamespaceRules__0__ReadRoles__0", "study-read");
    env.put("Authorization__NamespaceRules__0__WriteRoles__0", "study-write");
    env.put("Authorization__NamespaceRules__0__ReverseLookupRoles__0", "study-auditor");
    env.put("Authorization__NamespaceRules__1__Namespace", "*");
    env.put("Authorization__NamespaceRules__1__ReadRoles__0", "all-read");
    env.put("Authorization__Clients__0__Id", CLIENT_ID);
    env.put(
        "Authorization__Clients__0__SecretHash",
        SecretHashing.hash(CLIENT_SECRET.toCharArray()).toString());
    env.put("Authorization__Clients__0__Roles__0", "study-write");
    return env;
  }

  @BeforeEach
  void captureAudit() {
    issueTokens();
    audit.start();
    auditLogger.addAppender(audit);
  }

  @AfterEach
  void releaseAudit() {
    auditLogger.detachAppender(audit);
    audit.stop();
  }

  private static String bearer(String token) {
    return "Bearer " + token;
  }

  private static String basic(String id, String secret) {
    return "Basic "
        + Base64.getEncoder().encodeToString((id + ":" + secret).getBytes(StandardCharsets.UTF_8));
  }

  private static Map<String, String> headers(String authorization) {
    return authorization == null ? Map.of() : Map.of("authorization", authorization);
  }

  private static GrpcStatus getNamespace(String authorization) {
    return grpc.call(
            NamespaceServiceGrpcClient.Get,
            NamespaceServiceGetRequest.newBuilder().setName(namespace).build(),
            headers(authorization))
        .status();
  }

  private static GrpcStatus reverseLookup(String authorization) {
    return grpc.call(
            PseudonymServiceGrpcClient.Get,
            PseudonymServiceGetRequest.newBuilder()
                .setNamespace(namespace)
                .setPseudonymValue(pseudonym)
                .build(),
            headers(authorization))
        .status();
  }

  private static GrpcTestClient.Reply<org.vfps.api.v1.PseudonymServiceCreateResponse>
      createPseudonym(String authorization) {
    return createPseudonymOf(authorization, original);
  }

  private static GrpcTestClient.Reply<org.vfps.api.v1.PseudonymServiceCreateResponse>
      createPseudonymOf(String authorization, String originalValue) {
    return grpc.call(
        PseudonymServiceGrpcClient.Create,
        PseudonymServiceCreateRequest.newBuilder()
            .setNamespace(namespace)
            .setOriginalValue(originalValue)
            .build(),
        headers(authorization));
  }

  private static GrpcStatus createNamespace(String authorization, String name) {
    return grpc.call(
            NamespaceServiceGrpcClient.Create,
            NamespaceServiceCreateRequest.newBuilder().setName(name).setPseudonymLength(16).build(),
            headers(authorization))
        .status();
  }

  /** The operations of the matrix over gRPC: who (an Authorization value or null) to status. */
  private static Map<String, BiFunction<String, String, GrpcStatus>> grpcOperations() {
    Map<String, BiFunction<String, String, GrpcStatus>> operations = new LinkedHashMap<>();
    operations.put("NamespaceService/Create", (who, auth) -> createNamespace(auth, throwaway(who)));
    operations.put("NamespaceService/Get", (who, auth) -> getNamespace(auth));
    operations.put(
        "NamespaceService/GetAll",
        (who, auth) ->
            grpc.call(
                    NamespaceServiceGrpcClient.GetAll,
                    NamespaceServiceGetAllRequest.getDefaultInstance(),
                    headers(auth))
                .status());
    operations.put(
        "NamespaceService/Delete",
        (who, auth) ->
            grpc.call(
                    NamespaceServiceGrpcClient.Delete,
                    NamespaceServiceDeleteRequest.newBuilder()
                        .setName(who.equals("admin") ? throwawayNamespace() : namespace)
                        .build(),
                    headers(auth))
                .status());
    operations.put("PseudonymService/Create", (who, auth) -> createPseudonym(auth).status());
    operations.put("PseudonymService/Get", (who, auth) -> reverseLookup(auth));
    operations.put(
        "PseudonymService/BatchCreate",
        (who, auth) ->
            grpc.call(
                    PseudonymServiceGrpcClient.BatchCreate,
                    PseudonymServiceBatchCreateRequest.newBuilder()
                        .setNamespace(namespace)
                        .addOriginalValues(original)
                        .build(),
                    headers(auth))
                .status());
    operations.put(
        "PseudonymService/BatchGet",
        (who, auth) ->
            grpc.call(
                    PseudonymServiceGrpcClient.BatchGet,
                    PseudonymServiceBatchGetRequest.newBuilder()
                        .setNamespace(namespace)
                        .addPseudonymValues(pseudonym)
                        .build(),
                    headers(auth))
                .status());
    operations.put(
        "PseudonymService/CreateStream",
        (who, auth) ->
            grpc.stream(
                    PseudonymServiceGrpcClient.CreateStream,
                    List.of(
                        PseudonymServiceCreateRequest.newBuilder()
                            .setNamespace(namespace)
                            .setOriginalValue(original)
                            .build()),
                    headers(auth))
                .status());
    operations.put(
        "PseudonymService/List",
        (who, auth) ->
            grpc.call(
                    PseudonymServiceGrpcClient.List,
                    PseudonymServiceListRequest.newBuilder().setNamespace(namespace).build(),
                    headers(auth))
                .status());
    return operations;
  }

  /** The same operations over REST: who to HTTP status. */
  private static Map<String, BiFunction<String, String, Integer>> restOperations() {
    Map<String, BiFunction<String, String, Integer>> operations = new LinkedHashMap<>();
    String path = "/v1/namespaces/" + namespace;
    operations.put(
        "NamespaceService/Create",
        (who, auth) ->
            http.send(
                    "POST",
                    "/v1/namespaces",
                    headers(auth),
                    new JsonObject()
                        .put("name", throwaway(who))
                        .put("pseudonymLength", 16)
                        .encode())
                .status());
    operations.put(
        "NamespaceService/Get",
        (who, auth) -> http.send("GET", path, headers(auth), null).status());
    operations.put(
        "NamespaceService/GetAll",
        (who, auth) -> http.send("GET", "/v1/namespaces", headers(auth), null).status());
    operations.put(
        "NamespaceService/Delete",
        (who, auth) ->
            http.send(
                    "DELETE",
                    who.equals("admin") ? "/v1/namespaces/" + throwawayNamespace() : path,
                    headers(auth),
                    null)
                .status());
    operations.put(
        "PseudonymService/Create",
        (who, auth) ->
            http.send(
                    "POST",
                    path + "/pseudonyms",
                    headers(auth),
                    new JsonObject().put("originalValue", original).encode())
                .status());
    operations.put(
        "PseudonymService/Get",
        (who, auth) ->
            http.send("GET", path + "/pseudonyms/" + pseudonym, headers(auth), null).status());
    operations.put(
        "PseudonymService/BatchCreate",
        (who, auth) ->
            http.send(
                    "POST",
                    path + "/pseudonyms:batchCreate",
                    headers(auth),
                    new JsonObject().put("originalValues", List.of(original)).encode())
                .status());
    operations.put(
        "PseudonymService/BatchGet",
        (who, auth) ->
            http.send(
                    "POST",
                    path + "/pseudonyms:batchGet",
                    headers(auth),
                    new JsonObject().put("pseudonymValues", List.of(pseudonym)).encode())
                .status());
    operations.put(
        "PseudonymService/List",
        (who, auth) -> http.send("GET", path + "/pseudonyms", headers(auth), null).status());
    return operations;
  }

  /**
   * The matrix: for each operation, the answer of admin, reader, writer, auditor (reverse lookup),
   * the {@code *} reader and an anonymous caller. Y allowed, D denied, U unauthenticated.
   */
  private static final Map<String, String> MATRIX =
      Map.of(
          "NamespaceService/Create", "YDDDDU",
          "NamespaceService/Get", "YYDDYU",
          "NamespaceService/GetAll", "YYYYYU",
          "NamespaceService/Delete", "YDDDDU",
          "PseudonymService/Create", "YDYDDU",
          "PseudonymService/Get", "YDDYDU",
          "PseudonymService/BatchCreate", "YDYDDU",
          "PseudonymService/BatchGet", "YDDYDU",
          "PseudonymService/CreateStream", "YDYDDU",
          "PseudonymService/List", "YYDDYU");

  private static String throwaway(String who) {
    return "auth-new-" + who + "-" + UUID.randomUUID();
  }

  /** A namespace of its own for the admin to delete. */
  private static String throwawayNamespace() {
    String name = throwaway("deleted");
    assertThat(createNamespace(callers.get("admin"), name)).isEqualTo(GrpcStatus.OK);
    return name;
  }

  @Test
  void grpcAnswersThePermissionMatrix() {
    List<String> wrong = new ArrayList<>();
    grpcOperations()
        .forEach(
            (operation, call) -> {
              for (int i = 0; i < WHO.size(); i++) {
                String who = WHO.get(i);
                GrpcStatus expected =
                    switch (MATRIX.get(operation).charAt(i)) {
                      case 'Y' -> GrpcStatus.OK;
                      case 'D' -> GrpcStatus.PERMISSION_DENIED;
                      default -> GrpcStatus.UNAUTHENTICATED;
                    };
                GrpcStatus actual = call.apply(who, callers.get(who));
                if (actual != expected) {
                  wrong.add(operation + " by " + who + ": " + actual + ", not " + expected);
                }
              }
            });
    assertThat(wrong).isEmpty();
    assertThat(namespaceExists(namespace)).isTrue();
  }

  @Test
  void restAnswersThePermissionMatrix() {
    List<String> wrong = new ArrayList<>();
    restOperations()
        .forEach(
            (operation, call) -> {
              for (int i = 0; i < WHO.size(); i++) {
                String who = WHO.get(i);
                int expected =
                    switch (MATRIX.get(operation).charAt(i)) {
                      case 'Y' -> 200;
                      case 'D' -> 403;
                      default -> 401;
                    };
                int actual = call.apply(who, callers.get(who));
                if (actual != expected) {
                  wrong.add(operation + " by " + who + ": " + actual + ", not " + expected);
                }
              }
            });
    assertThat(wrong).isEmpty();
    assertThat(namespaceExists(namespace)).isTrue();
  }

  @Test
  void fhirCreatePseudonymNeedsTheWriteGrant() {
    String body =
        "{\"resourceType\": \"Parameters\", \"parameter\": [{\"name\": \"namespace\","
            + " \"valueString\": \""
            + namespace
            + "\"}, {\"name\": \"originalValue\", \"valueString\": \""
            + original
            + "\"}]}";
    Map<String, Integer> expected = new LinkedHashMap<>();
    for (int i = 0; i < WHO.size(); i++) {
      expected.put(
          WHO.get(i),
          switch (MATRIX.get("PseudonymService/Create").charAt(i)) {
            case 'Y' -> 200;
            case 'D' -> 403;
            default -> 401;
          });
    }
    Map<String, Integer> actual = new LinkedHashMap<>();
    Map<String, String> issues = new HashMap<>();
    for (String who : WHO) {
      HttpTestClient.Response response =
          http.send("POST", "/v1/fhir/$create-pseudonym", headers(callers.get(who)), body);
      actual.put(who, response.status());
      JsonObject resource = response.json();
      if (response.status() != 200) {
        assertThat(resource.getString("resourceType")).isEqualTo("OperationOutcome");
        issues.put(who, resource.getJsonArray("issue").getJsonObject(0).getString("code"));
      } else {
        assertThat(resource.encode()).contains(pseudonym);
      }
    }
    assertThat(actual).isEqualTo(expected);
    assertThat(issues).containsEntry("reader", "forbidden").containsEntry("anonymous", "login");
    assertThat(http.send("GET", "/v1/fhir/metadata", Map.of(), null).status()).isEqualTo(200);
  }

  @Test
  void withdrawalsNeedTheWriteAndTheReverseLookupGrantOnEveryEdge() {
    Map<String, String> who = new LinkedHashMap<>(callers);
    who.put("writer-auditor", bearer(provider.token("wanda", "study-write", "study-auditor")));
    Map<String, GrpcStatus> expected = new LinkedHashMap<>();
    who.keySet()
        .forEach(
            name ->
                expected.put(
                    name,
                    switch (name) {
                      case "admin", "writer-auditor" -> GrpcStatus.OK;
                      case "anonymous" -> GrpcStatus.UNAUTHENTICATED;
                      default -> GrpcStatus.PERMISSION_DENIED;
                    }));
    Map<String, GrpcStatus> grpcDeletes = new LinkedHashMap<>();
    Map<String, Integer> restAnonymizes = new LinkedHashMap<>();
    Map<String, Integer> miiDeletes = new LinkedHashMap<>();
    Map<String, Integer> gpasDeletes = new LinkedHashMap<>();
    String denial = null;
    for (Map.Entry<String, String> caller : who.entrySet()) {
      List<String> values = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        String value = "withdrawn-" + UUID.randomUUID();
        assertThat(createPseudonymOf(callers.get("admin"), value).status())
            .isEqualTo(GrpcStatus.OK);
        values.add(value);
      }
      GrpcTestClient.Reply<?> delete =
          grpc.call(
              WithdrawalServiceGrpcClient.DeletePseudonyms,
              DeletePseudonymsRequest.newBuilder()
                  .setNamespace(namespace)
                  .setOriginalValue(values.get(0))
                  .build(),
              headers(caller.getValue()));
      grpcDeletes.put(caller.getKey(), delete.status());
      if (caller.getKey().equals("writer")) {
        denial = delete.message();
      }
      restAnonymizes.put(
          caller.getKey(),
          http.send(
                  "POST",
                  "/x/v1/namespaces/" + namespace + "/pseudonyms:batchAnonymize",
                  headers(caller.getValue()),
                  new JsonObject()
                      .put(
                          "originalValues",
                          new io.vertx.core.json.JsonArray(List.of(values.get(1))))
                      .encode())
              .status());
      miiDeletes.put(
          caller.getKey(),
          http.send(
                  "POST",
                  "/v1/fhir/$delete-pseudonym",
                  headers(caller.getValue()),
                  "{\"resourceType\": \"Parameters\", \"parameter\": [{\"name\": \"context\","
                      + " \"valueIdentifier\": {\"value\": \""
                      + namespace
                      + "\"}}, {\"name\": \"original\", \"valueIdentifier\": {\"value\": \""
                      + values.get(2)
                      + "\"}}]}")
              .status());
      gpasDeletes.put(
          caller.getKey(),
          http.send(
                  "POST",
                  "/ttp-fhir/fhir/gpas/$deletePseudonyms",
                  headers(caller.getValue()),
                  "{\"resourceType\": \"Parameters\", \"parameter\": [{\"name\": \"target\","
                      + " \"valueString\": \""
                      + namespace
                      + "\"}, {\"name\": \"original\", \"valueString\": \""
                      + values.get(3)
                      + "\"}]}")
              .status());
    }

    assertThat(grpcDeletes).isEqualTo(expected);
    Map<String, Integer> http = new LinkedHashMap<>();
    expected.forEach(
        (name, status) ->
            http.put(
                name,
                switch (status) {
                  case OK -> 200;
                  case UNAUTHENTICATED -> 401;
                  default -> 403;
                }));
    assertThat(restAnonymizes).isEqualTo(http);
    assertThat(miiDeletes).isEqualTo(http);
    assertThat(gpasDeletes).isEqualTo(http);
    assertThat(denial).contains("write and the reverse-lookup permission");
    assertThat(audit.list)
        .anySatisfy(
            event ->
                assertThat(event.getFormattedMessage())
                    .isEqualTo("WithdrawalService/DeletePseudonyms PERMISSION_DENIED"));
  }

  @Test
  void getAllShowsOnlyTheNamespacesTheCallerMayRead() {
    assertThat(namespacesSeenBy(callers.get("reader"))).contains(namespace).doesNotContain(other);
    assertThat(namespacesSeenBy(callers.get("writer"))).doesNotContain(namespace, other);
    assertThat(namespacesSeenBy(callers.get("star-reader"))).contains(namespace, other);
    assertThat(namespacesSeenBy(callers.get("admin"))).contains(namespace, other);
  }

  private static List<String> namespacesSeenBy(String authorization) {
    NamespaceServiceGetAllResponse all =
        grpc.call(
                NamespaceServiceGrpcClient.GetAll,
                NamespaceServiceGetAllRequest.getDefaultInstance(),
                headers(authorization))
            .body();
    return all.getNamespacesList().stream().map(n -> n.getName()).toList();
  }

  private static boolean namespaceExists(String name) {
    return grpc.call(
                NamespaceServiceGrpcClient.Get,
                NamespaceServiceGetRequest.newBuilder().setName(name).build(),
                headers(callers.get("admin")))
            .status()
        == GrpcStatus.OK;
  }

  @Test
  void badCredentialsAreUnauthenticated() {
    Instant now = Instant.now();
    Map<String, String> bad = new LinkedHashMap<>();
    bad.put(
        "expired",
        bearer(
            provider.token(
                "alice",
                c ->
                    c.expirationTime(Date.from(now.minusSeconds(3600)))
                        .issueTime(Date.from(now.minusSeconds(7200))))));
    bad.put(
        "not yet valid",
        bearer(provider.token("alice", c -> c.notBeforeTime(Date.from(now.plusSeconds(3600))))));
    bad.put("without expiry", bearer(provider.token("alice", c -> c.expirationTime(null))));
    bad.put("wrong audience", bearer(provider.token("alice", c -> c.audience("another-service"))));
    bad.put("no audience", bearer(provider.token("alice", c -> c.audience((String) null))));
    bad.put(
        "wrong issuer",
        bearer(provider.token("alice", c -> c.issuer("http://127.0.0.1:1/realms/evil"))));
    bad.put("unknown key", bearer(provider.tokenOfAnUnknownKey("alice", "vfps-admin")));
    bad.put("alg none", bearer(provider.unsignedToken("alice", "vfps-admin")));
    bad.put(
        "HS256 with the public key",
        bearer(provider.hmacTokenWithThePublicKey("alice", "vfps-admin")));
    String good = provider.token("alice", "vfps-admin");
    bad.put("truncated", bearer(good.substring(0, good.length() - 10)));
    bad.put("signature of another token", bearer(withSignatureOf(good, provider.token("x"))));
    bad.put("garbage", "Bearer garbage");
    bad.put("empty bearer", "Bearer ");
    bad.put("Basic with a wrong secret", basic(CLIENT_ID, "wrong"));
    bad.put("Basic of an unknown client", basic("nobody", CLIENT_SECRET));
    bad.put("Basic malformed", "Basic %%%");
    bad.put("another scheme", "Digest username=alice");

    Map<String, GrpcStatus> answers = new LinkedHashMap<>();
    Map<String, Integer> restAnswers = new LinkedHashMap<>();
    Map<String, String> challenges = new LinkedHashMap<>();
    bad.forEach(
        (what, authorization) -> {
          answers.put(what, reverseLookup(authorization));
          HttpTestClient.Response rest =
              http.send(
                  "GET",
                  "/v1/namespaces/" + namespace + "/pseudonyms/" + pseudonym,
                  headers(authorization),
                  null);
          restAnswers.put(what, rest.status());
          challenges.put(what, rest.headers().firstValue("www-authenticate").orElse(""));
          assertThat(rest.body()).doesNotContain(original);
        });

    assertThat(answers)
        .allSatisfy(
            (what, status) -> assertThat(status).as(what).isEqualTo(GrpcStatus.UNAUTHENTICATED));
    assertThat(restAnswers)
        .allSatisfy((what, status) -> assertThat(status).as(what).isEqualTo(401));
    assertThat(challenges)
        .allSatisfy(
            (what, challenge) ->
                assertThat(challenge).as(what).isEqualTo("Bearer error=\"invalid_token\""));
    HttpTestClient.Response anonymous =
        http.send("GET", "/v1/namespaces/" + namespace, Map.of(), null);
    assertThat(anonymous.status()).isEqualTo(401);
    assertThat(anonymous.headers().firstValue("www-authenticate")).hasValue("Bearer");
    assertThat(anonymous.json().getInteger("code")).isEqualTo(GrpcStatus.UNAUTHENTICATED.code);
    // the same token, intact, is fine
    assertThat(getNamespace(bearer(good))).isEqualTo(GrpcStatus.OK);
  }

  /** The header and payload of {@code token} with the signature of {@code donor}. */
  private static String withSignatureOf(String token, String donor) {
    return token.substring(0, token.lastIndexOf('.')) + donor.substring(donor.lastIndexOf('.'));
  }

  @Test
  void ecTokensAreAcceptedToo() {
    assertThat(getNamespace(bearer(provider.ecToken("rita", "study-read"))))
        .isEqualTo(GrpcStatus.OK);
  }

  @Test
  void aKeyRotatedAtTheProviderIsPickedUpWithoutARestart() {
    String before = provider.token("rita", "study-read");
    provider.rotate();
    String after = provider.token("rita", "study-read");

    GrpcStatus status = getNamespace(bearer(after));

    assertThat(status).isEqualTo(GrpcStatus.OK);
    // the old key is gone with the rotation, and the tokens cached with it
    assertThat(getNamespace(bearer(before))).isEqualTo(GrpcStatus.UNAUTHENTICATED);
  }

  @Test
  void clientAccountsAuthenticateWithBasicOverGrpc() {
    String authorization = basic(CLIENT_ID, CLIENT_SECRET);
    for (int i = 0; i < 3; i++) {
      assertThat(createPseudonym(authorization).body().getPseudonym().getPseudonymValue())
          .isEqualTo(pseudonym);
    }
    // its role grants write, not reverse lookup
    assertThat(reverseLookup(authorization)).isEqualTo(GrpcStatus.PERMISSION_DENIED);
  }

  @Test
  void theAuditTrailHasReverseLookupsDenialsAndNamespaceChangesButNoOriginalValue() {
    reverseLookup(callers.get("auditor"));
    reverseLookup(callers.get("reader"));
    http.send("GET", "/v1/namespaces/" + namespace + "/pseudonyms/" + pseudonym, Map.of(), null);
    String created = throwaway("audited");
    createNamespace(callers.get("admin"), created);
    grpc.call(
        NamespaceServiceGrpcClient.Delete,
        NamespaceServiceDeleteRequest.newBuilder().setName(created).build(),
        headers(callers.get("admin")));

    List<Map<String, String>> lines = AuditLines.fields(audit.list);
    assertThat(lines)
        .contains(
            Map.of(
                "operation", "PseudonymService/Get",
                "outcome", "OK",
                "subject", "aude",
                "client", "127.0.0.1",
                "namespace", namespace,
                "pseudonym", pseudonym),
            Map.of(
                "operation", "PseudonymService/Get",
                "outcome", "PERMISSION_DENIED",
                "subject", "rita",
                "client", "127.0.0.1",
                "namespace", namespace),
            Map.of(
                "operation", "NamespaceService/Create",
                "outcome", "OK",
                "subject", "alice",
                "client", "127.0.0.1",
                "namespace", created),
            Map.of(
                "operation", "NamespaceService/Delete",
                "outcome", "OK",
                "subject", "alice",
                "client", "127.0.0.1",
                "namespace", created));
    assertThat(lines)
        .anySatisfy(
            line ->
                assertThat(line)
                    .containsEntry("operation", "PseudonymService/Get")
                    .containsEntry("outcome", "UNAUTHENTICATED")
                    .containsKey("reason"));
    assertThat(audit.list)
        .allSatisfy(
            event -> {
              assertThat(event.getFormattedMessage()).doesNotContain(original);
              assertThat(String.valueOf(event.getKeyValuePairs())).doesNotContain(original);
            });
    // reading never writes an audit line
    int before = audit.list.size();
    grpc.call(
        NamespaceServiceGrpcClient.Get,
        NamespaceServiceGetRequest.newBuilder().setName(namespace).build(),
        headers(callers.get("reader")));
    assertThat(audit.list).hasSize(before);
  }

  @Test
  void deniedCallsAreCountedByOperation() {
    reverseLookup(callers.get("writer"));

    String metrics;
    try (HttpTestClient scraper = new HttpTestClient(server.metricsPort())) {
      metrics = scraper.get("/metrics").body();
    }
    double denied =
        Scrape.parse(metrics)
            .value("vfps_authorization_denied_total", Map.of("operation", "PseudonymService/Get"));
    assertThat(denied).isGreaterThanOrEqualTo(1);
    assertThat(metrics)
        .contains("vfps_authorization_denied_total{operation=\"NamespaceService/Create\"}");
  }

  @Test
  void probesMetricsHealthAndDocsStayOpen() {
    HttpTestClient.Response ready = http.get("/readyz");
    assertThat(ready.status()).isEqualTo(200);
    assertThat(ready.json().getJsonArray("checks").encode()).contains("\"authorization\"");
    for (String path : List.of("/livez", "/healthz", "/", "/openapi.json", "/v1/fhir/metadata")) {
      assertThat(http.get(path).status()).as(path).isEqualTo(200);
    }
    GrpcTestClient.Reply<HealthCheckResponse> health =
        grpc.call(
            ServiceMethod.client(
                ServiceName.create("grpc.health.v1", "Health"),
                "Check",
                GrpcMessageEncoder.encoder(),
                GrpcMessageDecoder.decoder(HealthCheckResponse.newBuilder())),
            HealthCheckRequest.getDefaultInstance());
    assertThat(health.status()).isEqualTo(GrpcStatus.OK);
    assertThat(health.body().getStatus()).isEqualTo(HealthCheckResponse.ServingStatus.SERVING);
  }
}
