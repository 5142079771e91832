package org.vfps.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.vertx.core.json.JsonObject;
import io.vertx.grpc.common.GrpcStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.assertj.core.api.AbstractStringAssert;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.vfps.GrpcTestClient;
import org.vfps.HttpTestClient;
import org.vfps.HttpTestClient.Response;
import org.vfps.TestCertificates;
import org.vfps.TestCertificates.Issued;
import org.vfps.TestCertificates.KeyType;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceGetAllRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.config.ConfigException;
import org.vfps.server.VfpsServer;

/**
 * TLS on the gRPC and HTTP listeners with certificates made by openssl: real clients that trust the
 * test authority, plaintext clients refused, certificates replaced the way Kubernetes updates a
 * mounted Secret (a symbolic link swapped to a new directory), broken replacements ignored, and bad
 * files refused at start naming their setting.
 */
class TlsIT {

  private static final Duration DEADLINE = Duration.ofSeconds(30);

  @TempDir Path directory;

  private TestCertificates certificates;
  private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
  private final Logger root = (Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);

  @BeforeEach
  void makeAuthorityAndCaptureLogs() {
    certificates = TestCertificates.authority(directory);
    logs.start();
    root.addAppender(logs);
  }

  @AfterEach
  void releaseLogs() {
    root.detachAppender(logs);
    logs.stop();
  }

  @Test
  void grpcRestFhirAndProbesAnswerOverTlsAndPlaintextIsRefused() {
    Issued issued = certificates.issue("server", KeyType.RSA_PKCS1);
    int metricsPort = TestService.freePort();
    try (VfpsServer server =
            start(issued.certificate(), issued.key(), Map.of("MetricsPort", "" + metricsPort));
        GrpcTestClient grpc =
            new GrpcTestClient(server.grpcPort(), certificates.authorityCertificate());
        HttpTestClient https = new HttpTestClient(server.httpPort(), certificates.clientContext());
        GrpcTestClient plainGrpc = new GrpcTestClient(server.grpcPort());
        HttpTestClient plainHttp = new HttpTestClient(server.httpPort());
        HttpTestClient metrics = new HttpTestClient(metricsPort)) {
      String namespace = "tls-" + UUID.randomUUID();
      grpc.ok(
          NamespaceServiceGrpcClient.Create,
          NamespaceServiceCreateRequest.newBuilder()
              .setName(namespace)
              .setPseudonymLength(16)
              .build());
      String pseudonym =
          grpc.ok(PseudonymServiceGrpcClient.Create, create(namespace, "tls-original"))
              .getPseudonym()
              .getPseudonymValue();

      Response rest =
          https.postJson(
              "/v1/namespaces/" + namespace + "/pseudonyms",
              new JsonObject().put("originalValue", "tls-original").encode());
      Response fhir =
          https.post(
              "/v1/fhir/$create-pseudonym",
              "application/fhir+json",
              fhirCreate(namespace, "tls-original").getBytes(StandardCharsets.UTF_8));
      Response ready = https.get("/readyz");

      assertThat(rest.status()).as(rest.body()).isEqualTo(200);
      assertThat(rest.json().getJsonObject("pseudonym").getString("pseudonymValue"))
          .isEqualTo(pseudonym);
      assertThat(fhir.status()).as(fhir.body()).isEqualTo(200);
      assertThat(fhir.json().getString("resourceType")).isEqualTo("Parameters");
      assertThat(fhir.body()).contains(pseudonym);
      assertThat(ready.status()).as(ready.body()).isEqualTo(200);
      assertThat(https.get("/").status()).isEqualTo(200);

      assertThat(handshake(server.grpcPort(), "h2", "http/1.1"))
          .isEqualTo(new Handshake(issued.serial(), "h2"));
      assertThat(handshake(server.httpPort(), "h2", "http/1.1").serial())
          .isEqualTo(issued.serial());

      assertThatThrownBy(
              () ->
                  plainGrpc.call(
                      PseudonymServiceGrpcClient.Create, create(namespace, "tls-plaintext")))
          .as("h2c on the TLS port")
          .isNotNull();
      assertThatThrownBy(() -> plainHttp.get("/readyz"))
          .as("plain HTTP on the TLS port")
          .isInstanceOf(UncheckedIOException.class);
      assertThat(metrics.get("/metrics").status()).as("metrics stay plain").isEqualTo(200);
    }
    assertThat(messages())
        .anySatisfy(
            line ->
                assertThat(line)
                    .startsWith("TLS on for gRPC and HTTP")
                    .contains("CN=localhost")
                    .contains("serial " + hex(issued.serial()))
                    .contains("valid until"));
  }

  @Test
  void aNewCertificateReachesNewConnectionsAndBrokenOnesAreIgnoredUntilRepaired()
      throws IOException {
    Issued first = certificates.issue("first", KeyType.RSA_PKCS1);
    Issued second = certificates.issue("second", KeyType.EC_SEC1);
    Issued stray = certificates.issue("stray", KeyType.EC_SEC1);
    SecretVolume volume = new SecretVolume(directory.resolve("mounted"));
    volume.publish(first.certificate(), first.key());
    try (VfpsServer server =
        start(
            volume.certificate(),
            volume.key(),
            Map.of("Kestrel__Certificates__Default__ReloadInterval", "00:00:00.1"))) {
      assertThat(handshake(server.grpcPort()).serial()).isEqualTo(first.serial());

      // half of the new certificate, as a writer that is not done yet leaves it
      byte[] whole = Files.readAllBytes(second.certificate());
      Path half = directory.resolve("half.crt");
      Files.write(half, Arrays.copyOf(whole, whole.length / 2));
      volume.publish(half, second.key());
      awaitWarning("Kestrel__Certificates__Default__Path: " + volume.certificate());
      assertThat(handshake(server.grpcPort()).serial()).isEqualTo(first.serial());
      assertThat(handshake(server.httpPort()).serial()).isEqualTo(first.serial());

      // the new certificate with a key of the same type that is not its own
      volume.publish(second.certificate(), stray.key());
      awaitWarning("does not belong to the certificate");
      assertThat(handshake(server.grpcPort()).serial()).isEqualTo(first.serial());
      try (GrpcTestClient grpc =
          new GrpcTestClient(server.grpcPort(), certificates.authorityCertificate())) {
        assertThat(grpc.call(NamespaceServiceGrpcClient.GetAll, getAll()).status())
            .isEqualTo(GrpcStatus.OK);
      }

      volume.publish(second.certificate(), second.key());
      // each port's listener takes the new certificate on its own
      for (int port : List.of(server.grpcPort(), server.httpPort())) {
        await("the new certificate on port " + port)
            .atMost(DEADLINE)
            .until(() -> handshake(port).serial(), second.serial()::equals);
      }
      try (GrpcTestClient grpc =
              new GrpcTestClient(server.grpcPort(), certificates.authorityCertificate());
          HttpTestClient https =
              new HttpTestClient(server.httpPort(), certificates.clientContext())) {
        assertThat(grpc.call(NamespaceServiceGrpcClient.GetAll, getAll()).status())
            .isEqualTo(GrpcStatus.OK);
        assertThat(https.get("/readyz").status()).isEqualTo(200);
      }
    }
    List<String> messages = messages();
    assertThat(messages)
        .filteredOn(line -> line.contains("malformed"))
        .as("one warning for one problem, however often the files are checked")
        .hasSize(1);
    assertThat(messages)
        .anySatisfy(
            line ->
                assertThat(line)
                    .startsWith("TLS certificate replaced")
                    .contains("serial " + hex(second.serial()))
                    .contains("was serial " + hex(first.serial())));
    for (Path key : List.of(first.key(), second.key(), stray.key())) {
      for (String line : Files.readAllLines(key)) {
        if (!line.startsWith("-----")) {
          assertThat(String.join("\n", messages)).as("key material").doesNotContain(line);
        }
      }
    }
  }

  @Test
  void onlyOneOfTheTwoFilesStopsTheStartNamingTheOtherSetting() {
    Issued issued = certificates.issue("server", KeyType.RSA_PKCS1);

    assertThatExceptionOfType(ConfigException.class)
        .isThrownBy(
            () ->
                TestService.start(
                    Map.of(
                        "ConnectionStrings__PostgreSQL", TestPostgres.uri(),
                        "Kestrel__Certificates__Default__Path", issued.certificate().toString())))
        .withMessageStartingWith("Kestrel__Certificates__Default__KeyPath: missing");
  }

  @Test
  void unusableFilesStopTheStartNamingTheirSettingWithoutKeyMaterial() throws IOException {
    Issued issued = certificates.issue("server", KeyType.RSA_PKCS1);
    Issued other = certificates.issue("other", KeyType.RSA_PKCS8);
    Issued elliptic = certificates.issue("elliptic", KeyType.EC_SEC1);
    Path missing = directory.resolve("missing.crt");
    Path text = directory.resolve("notes.txt");
    Files.writeString(text, "not a certificate\n");
    Path encrypted = certificates.encrypt(issued.key());

    assertRefused(missing, issued.key(), "Kestrel__Certificates__Default__Path: " + missing)
        .contains("does not exist");
    assertRefused(text, issued.key(), "Kestrel__Certificates__Default__Path: " + text)
        .contains("is not a PEM certificate");
    assertRefused(issued.key(), issued.key(), "Kestrel__Certificates__Default__Path: ")
        .contains("is not a PEM certificate");
    assertRefused(issued.certificate(), text, "Kestrel__Certificates__Default__KeyPath: " + text)
        .contains("is not a PEM private key");
    assertRefused(issued.certificate(), other.key(), "Kestrel__Certificates__Default__KeyPath: ")
        .contains("does not belong to the certificate");
    assertRefused(issued.certificate(), elliptic.key(), "Kestrel__Certificates__Default__KeyPath: ")
        .contains("holds no unencrypted private key (PKCS#8, PKCS#1 RSA or SEC1 EC) for the RSA");
    assertRefused(issued.certificate(), encrypted, "Kestrel__Certificates__Default__KeyPath: ")
        .contains("is encrypted");
  }

  /** Asserts that the start is refused with a message starting with {@code prefix}. */
  private AbstractStringAssert<?> assertRefused(Path certificate, Path key, String prefix)
      throws IOException {
    ConfigException refused =
        catchThrowableOfType(
            ConfigException.class, () -> start(certificate, key, Map.of()).close());
    assertThat(refused).as("refused to start with %s and %s", certificate, key).isNotNull();
    for (String line : Files.readAllLines(key)) {
      if (!line.startsWith("-----") && line.length() > 8) {
        assertThat(refused.getMessage()).as("key material").doesNotContain(line);
      }
    }
    return assertThat(refused.getMessage()).startsWith(prefix);
  }

  private static VfpsServer start(Path certificate, Path key, Map<String, String> more) {
    Map<String, String> environment = new HashMap<>(more);
    environment.put("ConnectionStrings__PostgreSQL", TestPostgres.uri());
    environment.put("Kestrel__Certificates__Default__Path", certificate.toString());
    environment.put("Kestrel__Certificates__Default__KeyPath", key.toString());
    return TestService.start(environment);
  }

  /** What a new TLS connection saw: the server certificate's serial and the protocol by ALPN. */
  private record Handshake(BigInteger serial, String protocol) {}

  /**
   * Opens a new connection (with a new client context, so no session is resumed), checks the
   * server's name and offers {@code protocols} by ALPN.
   */
  private Handshake handshake(int port, String... protocols) {
    try (SSLSocket socket =
        (SSLSocket)
            certificates.clientContext().getSocketFactory().createSocket("127.0.0.1", port)) {
      socket.setSoTimeout(10_000);
      SSLParameters parameters = socket.getSSLParameters();
      parameters.setEndpointIdentificationAlgorithm("HTTPS");
      parameters.setApplicationProtocols(protocols);
      socket.setSSLParameters(parameters);
      socket.startHandshake();
      X509Certificate presented = (X509Certificate) socket.getSession().getPeerCertificates()[0];
      return new Handshake(presented.getSerialNumber(), socket.getApplicationProtocol());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void awaitWarning(String text) {
    await("a warning with '" + text + "'")
        .atMost(DEADLINE)
        .until(this::messages, messages -> messages.stream().anyMatch(line -> line.contains(text)));
  }

  /** The messages logged so far. */
  private List<String> messages() {
    synchronized (logs) {
      List<String> messages = new ArrayList<>();
      for (ILoggingEvent event : logs.list) {
        messages.add(event.getFormattedMessage());
      }
      return messages;
    }
  }

  private static String hex(BigInteger serial) {
    return serial.toString(16).toUpperCase(Locale.ROOT);
  }

  private static PseudonymServiceCreateRequest create(String namespace, String originalValue) {
    return PseudonymServiceCreateRequest.newBuilder()
        .setNamespace(namespace)
        .setOriginalValue(originalValue)
        .build();
  }

  private static NamespaceServiceGetAllRequest getAll() {
    return NamespaceServiceGetAllRequest.getDefaultInstance();
  }

  /** A FHIR {@code $create-pseudonym} request body; the values need no JSON escaping. */
  private static String fhirCreate(String namespace, String originalValue) {
    return """
        {"resourceType": "Parameters", "parameter": [
          {"name": "namespace", "valueString": "%s"},
          {"name": "originalValue", "valueString": "%s"}]}"""
        .formatted(namespace, originalValue);
  }

  /**
   * A directory laid out as the kubelet mounts a Secret: {@code tls.crt} and {@code tls.key} are
   * symbolic links into {@code ..data}, itself a link to the current version's directory; a new
   * version is written beside it and {@code ..data} swapped to it in one rename.
   */
  private static final class SecretVolume {
    private final Path root;
    private int version;

    SecretVolume(Path root) throws IOException {
      this.root = Files.createDirectories(root);
    }

    Path certificate() {
      return root.resolve("tls.crt");
    }

    Path key() {
      return root.resolve("tls.key");
    }

    void publish(Path certificate, Path key) throws IOException {
      Path next = Files.createDirectory(root.resolve("..version-" + ++version));
      Files.copy(certificate, next.resolve("tls.crt"));
      Files.copy(key, next.resolve("tls.key"));
      Path link = Files.createSymbolicLink(root.resolve("..data_tmp"), next.getFileName());
      Files.move(
          link,
          root.resolve("..data"),
          StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
      for (String name : List.of("tls.crt", "tls.key")) {
        if (!Files.exists(root.resolve(name), LinkOption.NOFOLLOW_LINKS)) {
          Files.createSymbolicLink(root.resolve(name), Path.of("..data", name));
        }
      }
    }
  }
}
