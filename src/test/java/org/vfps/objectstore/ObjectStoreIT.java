package org.vfps.objectstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vfps.TcpProxy;
import org.vfps.config.S3Config;

/** The S3 client against s3proxy, which checks signatures as S3 does, over real HTTP. */
class ObjectStoreIT {

  private static final int MIB = 1024 * 1024;

  @TempDir static Path directory;

  private static EmbeddedObjectStore embedded;
  private static S3ObjectStore store;
  private static final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  @BeforeAll
  static void startStore() {
    S3Config base =
        new S3Config(
            false,
            Optional.empty(),
            "",
            "",
            "",
            "us-east-1",
            true,
            Duration.ofMinutes(5),
            0,
            List.of(),
            directory,
            0);
    embedded = EmbeddedObjectStore.start(directory.resolve("s3"), 0, List.of("*"), base);
    store = S3ObjectStore.connect(embedded.config());
  }

  @AfterAll
  static void stopStore() {
    store.close();
    embedded.close();
  }

  private static String newKey() {
    return "csv-jobs/" + UUID.randomUUID() + "/input.csv";
  }

  private static HttpResponse<String> put(PresignedRequest request, String body, String type)
      throws Exception {
    HttpRequest.Builder put =
        HttpRequest.newBuilder(request.url()).PUT(HttpRequest.BodyPublishers.ofString(body));
    request.headers().forEach(put::header);
    if (type != null) {
      put.setHeader("Content-Type", type);
    }
    return http.send(put.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static void putObject(String key, byte[] bytes) {
    String id = store.startUpload(key);
    String etag = store.uploadPart(key, id, 1, bytes, bytes.length);
    store.completeUpload(key, id, List.of(etag));
  }

  private static byte[] readAll(String key) throws IOException {
    try (InputStream in = store.read(key, 0)) {
      return in.readAllBytes();
    }
  }

  private static byte[] randomBytes(int count) {
    byte[] bytes = new byte[count];
    ThreadLocalRandom.current().nextBytes(bytes);
    return bytes;
  }

  @Test
  void presignedUploadWithTheSignedHeadersStoresTheBody() throws Exception {
    String key = newKey();
    PresignedRequest upload = store.presignUpload(key, "text/csv");

    HttpResponse<String> response = put(upload, "a,b\n1,2\n", null);

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(upload.headers()).containsEntry("content-type", "text/csv");
    assertThat(upload.headers().keySet()).noneMatch(name -> name.equalsIgnoreCase("host"));
    assertThat(upload.expiresAt()).isAfter(java.time.Instant.now());
    assertThat(store.size(key)).hasValue(8);
  }

  @Test
  void presignedUploadWithATamperedSignatureIsRefused() throws Exception {
    PresignedRequest upload = store.presignUpload(newKey(), "text/csv");
    String url = upload.url().toString();
    int at = url.indexOf("X-Amz-Signature=") + "X-Amz-Signature=".length();
    char changed = url.charAt(at) == '0' ? '1' : '0';
    PresignedRequest tampered =
        new PresignedRequest(
            URI.create(url.substring(0, at) + changed + url.substring(at + 1)),
            upload.headers(),
            upload.expiresAt());

    assertThat(put(tampered, "a\n", null).statusCode()).isEqualTo(403);
  }

  @Test
  void presignedUploadWithAnotherContentTypeIsRefused() throws Exception {
    String key = newKey();
    PresignedRequest upload = store.presignUpload(key, "text/csv");

    assertThat(put(upload, "a\n", "application/octet-stream").statusCode()).isEqualTo(403);
    assertThat(store.size(key)).isEmpty();
  }

  @Test
  void browserMayUploadFromAnAllowedOrigin() throws Exception {
    PresignedRequest upload = store.presignUpload(newKey(), "text/csv");

    HttpResponse<String> preflight =
        http.send(
            HttpRequest.newBuilder(upload.url())
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                .header("Origin", "http://localhost:8080")
                .header("Access-Control-Request-Method", "PUT")
                .header("Access-Control-Request-Headers", "content-type")
                .build(),
            HttpResponse.BodyHandlers.ofString());

    assertThat(preflight.statusCode()).isEqualTo(200);
    assertThat(preflight.headers().firstValue("Access-Control-Allow-Origin")).isPresent();
    assertThat(preflight.headers().firstValue("Access-Control-Allow-Methods").orElse(""))
        .contains("PUT");
  }

  @Test
  void presignedDownloadReturnsTheBytesAsAnAttachment() throws Exception {
    String key = newKey();
    putObject(key, "x,y\n".getBytes(StandardCharsets.UTF_8));

    PresignedRequest download =
        store.presignDownload(key, "Résultat \"final\".csv", Duration.ofMinutes(2));
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(download.url()).GET().build(),
            HttpResponse.BodyHandlers.ofString());

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).isEqualTo("x,y\n");
    assertThat(download.url().getRawQuery()).contains("X-Amz-Expires=120");
    assertThat(download.expiresAt())
        .isBetween(Instant.now().plusSeconds(100), Instant.now().plusSeconds(121));
    assertThat(response.headers().firstValue("Content-Disposition"))
        .hasValue(
            "attachment; filename=\"R_sultat _final_.csv\";"
                + " filename*=UTF-8''R%C3%A9sultat%20%22final%22.csv");
  }

  @Test
  void readFromAnOffsetReturnsTheTail() throws Exception {
    String key = newKey();
    putObject(key, "0123456789".getBytes(StandardCharsets.US_ASCII));

    try (InputStream in = store.read(key, 4)) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.US_ASCII)).isEqualTo("456789");
    }
  }

  @Test
  void readAtTheEndIsEmpty() throws Exception {
    String key = newKey();
    putObject(key, "0123456789".getBytes(StandardCharsets.US_ASCII));

    try (InputStream in = store.read(key, 10)) {
      assertThat(in.readAllBytes()).isEmpty();
    }
  }

  @Test
  void sizeOfAMissingObjectIsEmpty() {
    assertThat(store.size(newKey())).isEmpty();
  }

  @Test
  void completedMultipartUploadIsTheConcatenationOfItsParts() throws Exception {
    String key = newKey();
    byte[] first = randomBytes(5 * MIB + 17);
    byte[] second = randomBytes(1000);
    byte[] buffer = Arrays.copyOf(second, 4096);

    String id = store.startUpload(key);
    String one = store.uploadPart(key, id, 1, first, first.length);
    String two = store.uploadPart(key, id, 2, buffer, second.length);
    store.completeUpload(key, id, List.of(one, two));

    byte[] expected = Arrays.copyOf(first, first.length + second.length);
    System.arraycopy(second, 0, expected, first.length, second.length);
    assertThat(store.size(key)).hasValue(expected.length);
    assertThat(readAll(key)).isEqualTo(expected);
  }

  @Test
  void partUploadedAgainReplacesTheEarlierOne() throws Exception {
    String key = newKey();
    byte[] first = randomBytes(5 * MIB);
    byte[] earlier = "earlier".getBytes(StandardCharsets.US_ASCII);
    byte[] later = "later".getBytes(StandardCharsets.US_ASCII);

    String id = store.startUpload(key);
    String one = store.uploadPart(key, id, 1, first, first.length);
    store.uploadPart(key, id, 2, earlier, earlier.length);
    String two = store.uploadPart(key, id, 2, later, later.length);
    store.completeUpload(key, id, List.of(one, two));

    byte[] all = readAll(key);
    assertThat(all).hasSize(first.length + later.length);
    assertThat(Arrays.copyOfRange(all, first.length, all.length)).isEqualTo(later);
  }

  @Test
  void abortedUploadLeavesNoObject() {
    String key = newKey();
    byte[] part = "a,b\n".getBytes(StandardCharsets.US_ASCII);

    String id = store.startUpload(key);
    store.uploadPart(key, id, 1, part, part.length);
    store.abortUpload(key, id);

    assertThat(store.size(key)).isEmpty();
  }

  @Test
  void deletingAMissingObjectIsNoError() {
    String key = newKey();

    store.delete(key);

    assertThat(store.size(key)).isEmpty();
  }

  @Test
  void deletedObjectIsGone() {
    String key = newKey();
    putObject(key, "a\n".getBytes(StandardCharsets.US_ASCII));

    store.delete(key);

    assertThat(store.size(key)).isEmpty();
  }

  @Test
  void connectingToAMissingBucketNamesTheSetting() {
    S3Config missing = withBucket(embedded.config(), "no-such-bucket");

    assertThatThrownBy(() -> S3ObjectStore.connect(missing))
        .isInstanceOf(ObjectStoreException.class)
        .hasMessageContaining("S3__Bucket")
        .hasMessageContaining("no-such-bucket")
        .hasMessageNotContaining(embedded.config().secretKey());
  }

  @Test
  void connectingToAnUnreachableStoreNamesTheServiceUrl() {
    S3Config config = embedded.config();
    S3Config unreachable =
        new S3Config(
            true,
            Optional.of(URI.create("http://127.0.0.1:1")),
            config.accessKey(),
            config.secretKey(),
            config.bucket(),
            config.region(),
            true,
            config.presignedUrlExpiry(),
            0,
            List.of(),
            config.embeddedDataDirectory(),
            0);

    assertThatThrownBy(() -> S3ObjectStore.connect(unreachable))
        .isInstanceOf(ObjectStoreException.class)
        .hasMessageContaining("S3__ServiceUrl")
        .hasMessageNotContaining(config.secretKey())
        .satisfies(e -> assertThat(((ObjectStoreException) e).unavailable()).isTrue());
  }

  @Test
  void embeddedStoreOnATakenPortFailsNamingTheSetting() {
    assertThatThrownBy(
            () ->
                EmbeddedObjectStore.start(
                    directory.resolve("second"), embedded.port(), List.of(), embedded.config()))
        .isInstanceOf(ObjectStoreException.class)
        .hasMessageContaining("S3__Embedded__Port");
  }

  @Test
  void retentionTheStoreCannotSetFailsNamingTheSetting() {
    S3Config config = embedded.config();
    S3Config retention =
        new S3Config(
            true,
            config.serviceUrl(),
            config.accessKey(),
            config.secretKey(),
            config.bucket(),
            config.region(),
            true,
            config.presignedUrlExpiry(),
            30,
            List.of(),
            config.embeddedDataDirectory(),
            0);

    assertThatThrownBy(() -> S3ObjectStore.connect(retention))
        .isInstanceOf(ObjectStoreException.class)
        .hasMessageContaining("S3__ObjectRetentionDays")
        .hasMessageContaining("0");
  }

  @Test
  void readResumesWhereABrokenConnectionBroke() throws Exception {
    String key = newKey();
    byte[] bytes = randomBytes(24 * MIB);
    putObject(key, bytes);
    S3Config config = embedded.config();
    try (TcpProxy proxy = new TcpProxy("127.0.0.1", embedded.port());
        S3ObjectStore throughProxy =
            S3ObjectStore.connect(
                withServiceUrl(config, URI.create("http://127.0.0.1:" + proxy.port())))) {
      byte[] read = new byte[bytes.length];
      int total = 0;
      int cuts = 0;
      try (InputStream in = throughProxy.read(key, 0)) {
        for (int n; (n = in.read(read, total, Math.min(64 * 1024, read.length - total))) > 0; ) {
          total += n;
          // cut twice while far more than the socket buffers hold is still on its way
          if (cuts < 2 && total > (cuts + 1) * 6 * MIB) {
            breakConnections(proxy);
            cuts++;
          }
        }
      }
      assertThat(cuts).isEqualTo(2);
      assertThat(total).isEqualTo(bytes.length);
      assertThat(read).isEqualTo(bytes);
    }
  }

  @Test
  void readOfAnObjectThatChangedFailsSayingSo() throws Exception {
    String key = newKey();
    byte[] bytes = randomBytes(24 * MIB);
    putObject(key, bytes);
    S3Config config = embedded.config();
    try (TcpProxy proxy = new TcpProxy("127.0.0.1", embedded.port());
        S3ObjectStore throughProxy =
            S3ObjectStore.connect(
                withServiceUrl(config, URI.create("http://127.0.0.1:" + proxy.port())))) {
      InputStream in = throughProxy.read(key, 0);
      in.readNBytes(MIB);
      // cut while the rest is still streaming, then change the object before the resume
      breakConnections(proxy);
      putObject(key, "changed".getBytes(StandardCharsets.US_ASCII));

      assertThatThrownBy(in::readAllBytes)
          .isInstanceOf(IOException.class)
          .hasMessageContaining("changed");
      in.close();
    }
  }

  /** Cuts the open connections and keeps accepting new ones. */
  private static void breakConnections(TcpProxy proxy) {
    proxy.stall();
    proxy.unstall();
  }

  private static S3Config withBucket(S3Config config, String bucket) {
    return new S3Config(
        true,
        config.serviceUrl(),
        config.accessKey(),
        config.secretKey(),
        bucket,
        config.region(),
        true,
        config.presignedUrlExpiry(),
        0,
        List.of(),
        config.embeddedDataDirectory(),
        0);
  }

  private static S3Config withServiceUrl(S3Config config, URI serviceUrl) {
    return new S3Config(
        true,
        Optional.of(serviceUrl),
        config.accessKey(),
        config.secretKey(),
        config.bucket(),
        config.region(),
        true,
        config.presignedUrlExpiry(),
        0,
        List.of(),
        config.embeddedDataDirectory(),
        0);
  }
}
