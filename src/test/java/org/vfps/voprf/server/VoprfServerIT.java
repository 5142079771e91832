package org.vfps.voprf.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import com.google.protobuf.ByteString;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.RequestOptions;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.health.v1.HealthCheckRequest;
import io.vertx.grpc.health.v1.HealthCheckResponse;
import io.vertx.grpc.reflection.v1.ServerReflectionRequest;
import io.vertx.grpc.reflection.v1.ServerReflectionResponse;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.security.cert.CertificateFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.vfps.GrpcTestClient;
import org.vfps.GrpcTestClient.Reply;
import org.vfps.LogCapture;
import org.vfps.TestCertificates;
import org.vfps.api.voprf.v1.VoprfServiceBlindEvaluateRequest;
import org.vfps.api.voprf.v1.VoprfServiceBlindEvaluateResponse;
import org.vfps.api.voprf.v1.VoprfServiceGetPublicKeyRequest;
import org.vfps.api.voprf.v1.VoprfServiceGetPublicKeyResponse;
import org.vfps.api.voprf.v1.VoprfServiceGrpcClient;
import org.vfps.auth.TestOidcProvider;
import org.vfps.config.ConfigException;
import org.vfps.grpc.ReflectionIT;
import org.vfps.voprf.BlindedInput;
import org.vfps.voprf.ServerPublicKey;

/** The VOPRF server over real gRPC: evaluation, its errors, and what hardening enforces. */
class VoprfServerIT {

  private static final String OTHER_SEED =
      Base64.getEncoder()
          .encodeToString("another VOPRF seed of 32 bytes!!".getBytes(StandardCharsets.US_ASCII));
  private static final String SCOPE = "voprf:evaluate";
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final VoprfServiceGetPublicKeyRequest GET_PUBLIC_KEY =
      VoprfServiceGetPublicKeyRequest.getDefaultInstance();

  @TempDir static Path directory;

  private static Vertx vertx;
  private static TestCertificates certificates;
  private static TestCertificates.Issued serverCertificate;
  private static TestCertificates.Issued allowedClient;
  private static TestCertificates.Issued otherClient;

  @RegisterExtension final LogCapture audit = LogCapture.of(VoprfAudit.LOGGER);

  @BeforeAll
  static void certificates() {
    vertx = Vertx.vertx();
    certificates = TestCertificates.authority(directory);
    serverCertificate = certificates.issue("server", TestCertificates.KeyType.EC_SEC1);
    allowedClient = certificates.issue("client-a", TestCertificates.KeyType.EC_SEC1);
    otherClient = certificates.issue("client-b", TestCertificates.KeyType.EC_SEC1);
  }

  @AfterAll
  static void closeVertx() {
    vertx.close().await();
  }

  @Test
  void answersItsPublicKeyAndKeyId() {
    try (TestVoprfServer server = TestVoprfServer.start();
        GrpcTestClient client = new GrpcTestClient(server.port())) {
      VoprfServiceGetPublicKeyResponse response =
          client.ok(VoprfServiceGrpcClient.GetPublicKey, GET_PUBLIC_KEY);

      assertThat(response.getKeyId()).isEqualTo("test-key");
      assertThat(response.getPublicKey().toByteArray()).isEqualTo(server.publicKey()).hasSize(32);
    }
  }

  @Test
  void evaluatesABatchWithAProofThatVerifiesAndTheSameOutputsEveryTime() throws Exception {
    List<byte[]> inputs = inputs("patient-1", "patient-2", "patient-3");
    try (TestVoprfServer server = TestVoprfServer.start();
        TestVoprfServer other = TestVoprfServer.start(OTHER_SEED, "other-key")) {
      List<byte[]> first = outputs(server, inputs);
      List<byte[]> second = outputs(server, inputs);
      List<byte[]> otherKey = outputs(other, inputs);

      assertThat(first).hasSize(3);
      for (int i = 0; i < 3; i++) {
        assertThat(first.get(i)).hasSize(64).isEqualTo(second.get(i)).isNotEqualTo(otherKey.get(i));
      }
      assertThat(first.get(0)).isNotEqualTo(first.get(1));
    }
  }

  @Test
  void aFixedSeedAndKeyIdGiveTheSameKeyInAnyServer() {
    try (TestVoprfServer one = TestVoprfServer.start(OTHER_SEED, "k1");
        TestVoprfServer two = TestVoprfServer.start(OTHER_SEED, "k1");
        TestVoprfServer otherId = TestVoprfServer.start(OTHER_SEED, "k2")) {
      assertThat(one.publicKey()).isEqualTo(two.publicKey()).isNotEqualTo(otherId.publicKey());
      assertThat(otherId.keyId()).isEqualTo("k2");
    }
  }

  @Test
  void refusesBadBatchesWithUpstreamsMessages() {
    try (TestVoprfServer server = TestVoprfServer.start(Map.of("VoprfServer__MaxBatchSize", "2"));
        GrpcTestClient client = new GrpcTestClient(server.port())) {
      byte[] valid = BlindedInput.blind(bytes("x"), RANDOM).element();
      byte[] notCanonical = new byte[32];
      java.util.Arrays.fill(notCanonical, (byte) 0xFF);

      assertInvalid(client, List.of(), "No blinded elements were supplied.");
      assertInvalid(
          client,
          List.of(valid, valid, valid),
          "A batch carries at most 2 elements; 3 were supplied.");
      assertInvalid(client, List.of(valid, new byte[31]), "Each blinded element is 32 bytes.");
      assertInvalid(client, List.of(new byte[33]), "Each blinded element is 32 bytes.");
      assertInvalid(
          client, List.of(valid, notCanonical), "One or more blinded elements are invalid.");
      assertInvalid(client, List.of(new byte[32]), "One or more blinded elements are invalid.");
    }
  }

  @Test
  void theDefaultCapIs128Elements() {
    try (TestVoprfServer server = TestVoprfServer.start();
        GrpcTestClient client = new GrpcTestClient(server.port())) {
      byte[] valid = BlindedInput.blind(bytes("x"), RANDOM).element();
      Reply<VoprfServiceBlindEvaluateResponse> full =
          blindEvaluate(client, java.util.Collections.nCopies(128, valid));
      assertThat(full.status()).isEqualTo(GrpcStatus.OK);
      assertThat(full.body().getEvaluatedElementsCount()).isEqualTo(128);
      assertInvalid(
          client,
          java.util.Collections.nCopies(129, valid),
          "A batch carries at most 128 elements; 129 were supplied.");
    }
  }

  @Test
  void aMessageOverTheReceiveLimitIsResourceExhausted() {
    try (TestVoprfServer server =
            TestVoprfServer.start(
                Map.of("VoprfServer__Hardening__MaxReceiveMessageSizeBytes", "1024"));
        GrpcTestClient client = new GrpcTestClient(server.port())) {
      byte[] valid = BlindedInput.blind(bytes("x"), RANDOM).element();
      Reply<VoprfServiceBlindEvaluateResponse> reply =
          blindEvaluate(client, java.util.Collections.nCopies(40, valid));

      assertThat(reply.status()).isEqualTo(GrpcStatus.RESOURCE_EXHAUSTED);
    }
  }

  @Test
  void aRequestThatIsNoMessageIsInvalidArgumentNeverUnknown() {
    try (TestVoprfServer server = TestVoprfServer.start()) {
      byte[] notProtobuf = {0x07, 0x01, 0x02, 0x03};
      Buffer framed =
          Buffer.buffer()
              .appendByte((byte) 0)
              .appendInt(notProtobuf.length)
              .appendBytes(notProtobuf);

      assertThat(raw(server, framed)).isEqualTo("3");
      assertThat(raw(server, Buffer.buffer())).isEqualTo("3");
      assertThat(raw(server, framed.slice(0, 6))).isEqualTo("3");
    }
  }

  /** The grpc-status of a BlindEvaluate call whose body is {@code body}, sent over h2c. */
  private static String raw(TestVoprfServer server, Buffer body) {
    HttpClient http =
        vertx.createHttpClient(
            new HttpClientOptions()
                .setProtocolVersion(HttpVersion.HTTP_2)
                .setHttp2ClearTextUpgrade(false));
    try {
      return http.request(
              new RequestOptions()
                  .setMethod(HttpMethod.POST)
                  .setHost("127.0.0.1")
                  .setPort(server.port())
                  .setURI("/vfps.voprf.v1.VoprfService/BlindEvaluate")
                  .putHeader("content-type", "application/grpc")
                  .putHeader("te", "trailers"))
          .compose(
              request -> {
                Future<String> status =
                    request
                        .response()
                        .compose(
                            response ->
                                response
                                    .end()
                                    .map(
                                        ended ->
                                            response.getTrailer("grpc-status") != null
                                                ? response.getTrailer("grpc-status")
                                                : response.getHeader("grpc-status")));
                return request.end(body).transform(sent -> status);
              })
          .timeout(20, TimeUnit.SECONDS)
          .await();
    } finally {
      http.close().await();
    }
  }

  @Test
  void writesOneAuditLineWithCountAndKeyIdButNoElement() throws Exception {
    List<byte[]> inputs = inputs("audited-1", "audited-2", "audited-3");
    List<BlindedInput> blinded = blind(inputs);
    try (TestVoprfServer server = TestVoprfServer.start();
        GrpcTestClient client = new GrpcTestClient(server.port())) {
      Reply<VoprfServiceBlindEvaluateResponse> reply = blindEvaluate(client, elements(blinded));
      assertThat(reply.status()).isEqualTo(GrpcStatus.OK);
    }

    List<ILoggingEvent> lines = audit.atLeast(Level.INFO);
    assertThat(lines).hasSize(1);
    ILoggingEvent line = lines.get(0);
    Map<String, String> fields = new HashMap<>();
    line.getKeyValuePairs().forEach(pair -> fields.put(pair.key, String.valueOf(pair.value)));
    assertThat(line.getFormattedMessage()).isEqualTo("BlindEvaluate OK");
    assertThat(fields)
        .containsEntry("count", "3")
        .containsEntry("keyId", "test-key")
        .containsEntry("subject", "anonymous")
        .containsEntry("outcome", "OK");
    String everything = line.getFormattedMessage() + fields;
    for (BlindedInput input : blinded) {
      assertThat(everything)
          .doesNotContain(Base64.getEncoder().encodeToString(input.element()))
          .doesNotContain(HexFormat.of().formatHex(input.element()));
    }
  }

  @Test
  void servesHealthWithoutCredentials() {
    try (TestVoprfServer server = TestVoprfServer.start(clientCertificateSettings());
        GrpcTestClient client = tls(server)) {
      Reply<HealthCheckResponse> reply =
          client.call(
              GrpcTestClient.HEALTH_CHECK,
              HealthCheckRequest.newBuilder().setService("vfps.voprf.v1.VoprfService").build());

      assertThat(reply.status()).isEqualTo(GrpcStatus.OK);
      assertThat(reply.body().getStatus()).isEqualTo(HealthCheckResponse.ServingStatus.SERVING);
    }
  }

  @Test
  void reflectionIsOffByDefaultAndOnWhenEnabled() {
    ServerReflectionRequest list = ServerReflectionRequest.newBuilder().setListServices("").build();
    try (TestVoprfServer off = TestVoprfServer.start();
        TestVoprfServer on =
            TestVoprfServer.start(Map.of("VoprfServer__Hardening__EnableReflection", "true"));
        GrpcTestClient offClient = new GrpcTestClient(off.port());
        GrpcTestClient onClient = new GrpcTestClient(on.port())) {
      Reply<ServerReflectionResponse> refused = offClient.call(ReflectionIT.REFLECTION, list);
      Reply<ServerReflectionResponse> served = onClient.call(ReflectionIT.REFLECTION, list);

      assertThat(refused.status()).isEqualTo(GrpcStatus.UNIMPLEMENTED);
      assertThat(served.status()).isEqualTo(GrpcStatus.OK);
      assertThat(served.body().getListServicesResponse().getServiceList())
          .anySatisfy(
              service -> assertThat(service.getName()).isEqualTo("vfps.voprf.v1.VoprfService"));
    }
  }

  @Test
  void hardenedItSpeaksOnlyTls() throws Exception {
    Map<String, String> settings = hardened();
    settings.put("VoprfServer__Hardening__RequireAuthentication", "false");
    try (TestVoprfServer server = TestVoprfServer.start(settings);
        GrpcTestClient plain = new GrpcTestClient(server.port());
        GrpcTestClient client = tls(server)) {
      // clear text to a TLS listener gets no answer, or no OK
      GrpcStatus clear =
          plain
              .callAsync(VoprfServiceGrpcClient.GetPublicKey, GET_PUBLIC_KEY)
              .map(Reply::status)
              .otherwise((GrpcStatus) null)
              .await(20, TimeUnit.SECONDS);
      Reply<VoprfServiceGetPublicKeyResponse> secured =
          client.call(VoprfServiceGrpcClient.GetPublicKey, GET_PUBLIC_KEY);

      assertThat(clear).isNotEqualTo(GrpcStatus.OK);
      assertThat(secured.status()).isEqualTo(GrpcStatus.OK);
      assertThat(secured.body().getKeyId()).isEqualTo("test-key");
    }
  }

  @Test
  void anUnreadableTlsFileStopsTheStartNamingIt() {
    Map<String, String> settings = hardened();
    settings.put("VoprfServer__Hardening__RequireAuthentication", "false");
    settings.put(
        "Kestrel__Certificates__Default__Path", directory.resolve("missing.crt").toString());

    assertThatThrownBy(() -> TestVoprfServer.start(settings))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("Kestrel__Certificates__Default__Path");
  }

  @Test
  void withClientCertificatesOnlyAnAllowedOneIsServed() throws Exception {
    try (TestVoprfServer server = TestVoprfServer.start(clientCertificateSettings());
        GrpcTestClient allowedCaller = tls(server, allowedClient);
        GrpcTestClient otherCaller = tls(server, otherClient);
        GrpcTestClient anonymousCaller = tls(server)) {
      List<byte[]> elements = List.of(BlindedInput.blind(bytes("certified"), RANDOM).element());
      Reply<VoprfServiceBlindEvaluateResponse> allowed = blindEvaluate(allowedCaller, elements);
      Reply<VoprfServiceBlindEvaluateResponse> other = blindEvaluate(otherCaller, elements);
      Reply<VoprfServiceBlindEvaluateResponse> none = blindEvaluate(anonymousCaller, elements);

      assertThat(allowed.status()).isEqualTo(GrpcStatus.OK);
      assertThat(allowed.body().getKeyId()).isEqualTo("test-key");
      assertThat(other.status()).isEqualTo(GrpcStatus.UNAUTHENTICATED);
      assertThat(other.message()).isEqualTo("The client certificate is not allowed.");
      assertThat(none.status()).isEqualTo(GrpcStatus.UNAUTHENTICATED);
      assertThat(none.message()).isEqualTo("A client certificate is required.");
    }
    assertThat(audit.atLeast(Level.INFO))
        .extracting(ILoggingEvent::getFormattedMessage)
        .containsExactly(
            "BlindEvaluate OK", "BlindEvaluate UNAUTHENTICATED", "BlindEvaluate UNAUTHENTICATED");
    Map<String, String> first = new HashMap<>();
    audit
        .atLeast(Level.INFO)
        .get(0)
        .getKeyValuePairs()
        .forEach(pair -> first.put(pair.key, String.valueOf(pair.value)));
    assertThat(first).containsEntry("subject", sha1(allowedClient.certificate()).toUpperCase());
  }

  @Test
  void withJwtsOnlyATokenWithTheScopeIsServed() {
    try (TestOidcProvider provider = new TestOidcProvider().start()) {
      Map<String, String> settings = hardened();
      settings.put("VoprfServer__Authentication__Mode", "Jwt");
      settings.put("VoprfServer__Authentication__Jwt__Authority", provider.issuer());
      settings.put("VoprfServer__Authentication__Jwt__Audience", TestOidcProvider.AUDIENCE);
      settings.put("VoprfServer__Authentication__Jwt__RequiredScope", SCOPE);
      String good = provider.token("svc-vfps", c -> c.claim("scope", "openid " + SCOPE));
      String noScope = provider.token("svc-vfps", c -> c.claim("scope", "openid profile"));
      String unknownKey = provider.tokenOfAnUnknownKey("svc-vfps");
      List<String> forged =
          List.of(
              provider.unsignedToken("svc-vfps"),
              provider.hmacTokenWithThePublicKey("svc-vfps"),
              provider.token(
                  "svc-vfps",
                  c ->
                      c.claim("scope", SCOPE)
                          .expirationTime(java.util.Date.from(Instant.now().minusSeconds(600)))),
              provider.token("svc-vfps", c -> c.claim("scope", SCOPE).audience("someone-else")),
              "not-a-jwt");
      try (TestVoprfServer server = TestVoprfServer.start(settings);
          GrpcTestClient client = tls(server)) {
        Reply<VoprfServiceGetPublicKeyResponse> anonymous =
            client.call(VoprfServiceGrpcClient.GetPublicKey, GET_PUBLIC_KEY);
        Reply<VoprfServiceGetPublicKeyResponse> withoutScope =
            client.call(VoprfServiceGrpcClient.GetPublicKey, GET_PUBLIC_KEY, bearer(noScope));
        Reply<VoprfServiceGetPublicKeyResponse> strangers =
            client.call(VoprfServiceGrpcClient.GetPublicKey, GET_PUBLIC_KEY, bearer(unknownKey));
        Reply<VoprfServiceGetPublicKeyResponse> served =
            client.call(VoprfServiceGrpcClient.GetPublicKey, GET_PUBLIC_KEY, bearer(good));

        assertThat(anonymous.status()).isEqualTo(GrpcStatus.UNAUTHENTICATED);
        assertThat(withoutScope.status()).isEqualTo(GrpcStatus.PERMISSION_DENIED);
        assertThat(withoutScope.message()).contains(SCOPE);
        assertThat(strangers.status()).isEqualTo(GrpcStatus.UNAUTHENTICATED);
        for (String token : forged) {
          assertThat(
                  client
                      .call(VoprfServiceGrpcClient.GetPublicKey, GET_PUBLIC_KEY, bearer(token))
                      .status())
              .as(token)
              .isEqualTo(GrpcStatus.UNAUTHENTICATED);
        }
        assertThat(served.status()).isEqualTo(GrpcStatus.OK);
        assertThat(served.body().getPublicKey().toByteArray()).isEqualTo(server.publicKey());
      }
    }
  }

  @Test
  void withJwtsATokenIsUnavailableWhileTheProvidersKeysAreNotLoaded() {
    // never started: its port refuses the discovery request
    try (TestOidcProvider provider = new TestOidcProvider()) {
      Map<String, String> settings = hardened();
      settings.put("VoprfServer__Authentication__Mode", "Jwt");
      settings.put("VoprfServer__Authentication__Jwt__Authority", provider.issuer());
      settings.put("VoprfServer__Authentication__Jwt__Audience", TestOidcProvider.AUDIENCE);
      settings.put("VoprfServer__Authentication__Jwt__RequiredScope", SCOPE);
      String good = provider.token("svc-vfps", c -> c.claim("scope", SCOPE));
      try (TestVoprfServer server = TestVoprfServer.start(settings);
          GrpcTestClient client = tls(server)) {
        Reply<VoprfServiceGetPublicKeyResponse> withToken =
            client.call(VoprfServiceGrpcClient.GetPublicKey, GET_PUBLIC_KEY, bearer(good));
        Reply<VoprfServiceGetPublicKeyResponse> without =
            client.call(VoprfServiceGrpcClient.GetPublicKey, GET_PUBLIC_KEY);

        assertThat(withToken.status()).isEqualTo(GrpcStatus.UNAVAILABLE);
        assertThat(without.status()).isEqualTo(GrpcStatus.UNAUTHENTICATED);
      }
    }
  }

  @Test
  void overTheRateLimitACallIsRefusedAtOnce() {
    Map<String, String> settings = hardened();
    settings.put("VoprfServer__Hardening__RequireAuthentication", "false");
    settings.put("VoprfServer__Hardening__RateLimit__PermitsPerWindow", "3");
    settings.put("VoprfServer__Hardening__RateLimit__Window", "01:00:00");
    try (TestVoprfServer server = TestVoprfServer.start(settings);
        GrpcTestClient client = tls(server)) {
      List<GrpcStatus> statuses = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        statuses.add(client.call(VoprfServiceGrpcClient.GetPublicKey, GET_PUBLIC_KEY).status());
      }
      Reply<VoprfServiceGetPublicKeyResponse> fifth =
          client.call(VoprfServiceGrpcClient.GetPublicKey, GET_PUBLIC_KEY);

      assertThat(statuses)
          .containsExactly(
              GrpcStatus.OK, GrpcStatus.OK, GrpcStatus.OK, GrpcStatus.RESOURCE_EXHAUSTED);
      assertThat(fifth.message()).isEqualTo("Rate limit exceeded; retry later.");
      Reply<VoprfServiceBlindEvaluateResponse> evaluation =
          blindEvaluate(client, List.of(BlindedInput.blind(bytes("limited"), RANDOM).element()));
      assertThat(evaluation.status()).isEqualTo(GrpcStatus.RESOURCE_EXHAUSTED);
      assertThat(audit.atLeast(Level.INFO))
          .extracting(ILoggingEvent::getFormattedMessage)
          .containsExactly("BlindEvaluate RESOURCE_EXHAUSTED");
    }
  }

  @Test
  void theJarRunsTheServerAndStopsOnSigterm() throws Exception {
    Path log = directory.resolve("voprf-server.log");
    List<String> command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-jar",
            System.getProperty("vfps.jar", "target/vfps.jar"),
            "voprf-server");
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().clear();
    builder.environment().putAll(TestVoprfServer.defaults());
    Process process = builder.start();
    try {
      Pattern listening = Pattern.compile("listening on gRPC port ([0-9]+): key id test-key");
      Instant deadline = Instant.now().plusSeconds(30);
      Matcher matcher = listening.matcher("");
      while (!matcher.reset(Files.readString(log)).find()) {
        assertThat(process.isAlive()).as(Files.readString(log)).isTrue();
        assertThat(Instant.now()).as(Files.readString(log)).isBefore(deadline);
        TimeUnit.MILLISECONDS.sleep(50);
      }
      VoprfServiceGetPublicKeyResponse response;
      try (GrpcTestClient client = new GrpcTestClient(Integer.parseInt(matcher.group(1)))) {
        response = client.ok(VoprfServiceGrpcClient.GetPublicKey, GET_PUBLIC_KEY);
      }
      assertThat(response.getKeyId()).isEqualTo("test-key");
      assertThat(Files.readString(log))
          .contains(Base64.getEncoder().encodeToString(response.getPublicKey().toByteArray()))
          .contains("Hardening is off")
          .doesNotContain(TestVoprfServer.SEED);

      process.destroy();
      assertThat(process.waitFor(15, TimeUnit.SECONDS)).isTrue();
      assertThat(Files.readString(log)).contains("Stopping the VOPRF server");
    } finally {
      process.destroyForcibly();
    }
  }

  @Test
  void theJarExitsTwoNamingABadSetting() throws Exception {
    Path log = directory.resolve("voprf-bad.log");
    ProcessBuilder builder =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar",
                System.getProperty("vfps.jar", "target/vfps.jar"),
                "voprf-server")
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    builder.environment().clear();
    builder.environment().putAll(TestVoprfServer.defaults());
    builder.environment().put("VoprfServer__Key__KeyId", "v1.2");
    Process process = builder.start();
    try {
      assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(process.exitValue()).as(Files.readString(log)).isEqualTo(2);
      assertThat(Files.readString(log)).contains("Invalid configuration: VoprfServer__Key__KeyId");
    } finally {
      process.destroyForcibly();
    }
  }

  private static Map<String, String> hardened() {
    Map<String, String> settings = new HashMap<>();
    settings.put("VoprfServer__Hardening__IsEnabled", "true");
    settings.put(
        "Kestrel__Certificates__Default__Path", serverCertificate.certificate().toString());
    settings.put("Kestrel__Certificates__Default__KeyPath", serverCertificate.key().toString());
    return settings;
  }

  private static Map<String, String> clientCertificateSettings() {
    Map<String, String> settings = hardened();
    String sha1 = sha1(allowedClient.certificate()).toUpperCase();
    // as .NET and openssl print it, with colons
    StringBuilder printed = new StringBuilder();
    for (int i = 0; i < sha1.length(); i += 2) {
      printed.append(i == 0 ? "" : ":").append(sha1, i, i + 2);
    }
    settings.put(
        "VoprfServer__Authentication__ClientCertificate__AllowedThumbprints__0",
        printed.toString());
    return settings;
  }

  private static String sha1(Path pem) {
    try (InputStream in = Files.newInputStream(pem)) {
      byte[] der = CertificateFactory.getInstance("X.509").generateCertificate(in).getEncoded();
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(der));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static Map<String, String> bearer(String token) {
    return Map.of("authorization", "Bearer " + token);
  }

  /** A TLS client trusting the test authority. */
  private static GrpcTestClient tls(TestVoprfServer server) {
    return new GrpcTestClient(server.port(), certificates.authorityCertificate());
  }

  /** A TLS client trusting the test authority, presenting {@code certificate}. */
  private static GrpcTestClient tls(TestVoprfServer server, TestCertificates.Issued certificate) {
    return new GrpcTestClient(
        server.port(),
        certificates.authorityCertificate(),
        certificate.certificate(),
        certificate.key());
  }

  private static List<byte[]> outputs(TestVoprfServer server, List<byte[]> inputs)
      throws Exception {
    List<BlindedInput> blinded = blind(inputs);
    VoprfServiceBlindEvaluateResponse response;
    try (GrpcTestClient client = new GrpcTestClient(server.port())) {
      response = client.ok(VoprfServiceGrpcClient.BlindEvaluate, evaluate(elements(blinded)));
    }
    assertThat(response.getKeyId()).isEqualTo(server.keyId());
    assertThat(response.getProof().size()).isEqualTo(64);
    List<byte[]> evaluated = new ArrayList<>();
    response.getEvaluatedElementsList().forEach(element -> evaluated.add(element.toByteArray()));
    return ServerPublicKey.of(server.publicKey())
        .finalize(blinded, evaluated, response.getProof().toByteArray());
  }

  private static void assertInvalid(GrpcTestClient client, List<byte[]> elements, String message) {
    Reply<VoprfServiceBlindEvaluateResponse> reply = blindEvaluate(client, elements);
    assertThat(reply.status()).as(message).isEqualTo(GrpcStatus.INVALID_ARGUMENT);
    assertThat(reply.message()).isEqualTo(message);
  }

  /** One BlindEvaluate call with these elements; never throws for a non-OK status. */
  private static Reply<VoprfServiceBlindEvaluateResponse> blindEvaluate(
      GrpcTestClient client, List<byte[]> elements) {
    return client.call(VoprfServiceGrpcClient.BlindEvaluate, evaluate(elements));
  }

  private static VoprfServiceBlindEvaluateRequest evaluate(List<byte[]> elements) {
    VoprfServiceBlindEvaluateRequest.Builder request =
        VoprfServiceBlindEvaluateRequest.newBuilder();
    elements.forEach(element -> request.addBlindedElements(ByteString.copyFrom(element)));
    return request.build();
  }

  private static List<byte[]> inputs(String... values) {
    List<byte[]> inputs = new ArrayList<>();
    for (String value : values) {
      inputs.add(bytes(value));
    }
    return inputs;
  }

  private static List<BlindedInput> blind(List<byte[]> inputs) {
    return inputs.stream().map(input -> BlindedInput.blind(input, RANDOM)).toList();
  }

  private static List<byte[]> elements(List<BlindedInput> blinded) {
    return blinded.stream().map(BlindedInput::element).toList();
  }

  private static byte[] bytes(String value) {
    return value.getBytes(StandardCharsets.UTF_8);
  }
}
