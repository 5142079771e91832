package org.vfps.objectstore;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Supplier;
import org.vfps.config.S3Config;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.model.AbortIncompleteMultipartUpload;
import software.amazon.awssdk.services.s3.model.BucketLifecycleConfiguration;
import software.amazon.awssdk.services.s3.model.CORSConfiguration;
import software.amazon.awssdk.services.s3.model.CORSRule;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.ExpirationStatus;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.LifecycleExpiration;
import software.amazon.awssdk.services.s3.model.LifecycleRule;
import software.amazon.awssdk.services.s3.model.LifecycleRuleFilter;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.NoSuchUploadException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.services.s3.presigner.model.PresignedGetObjectRequest;
import software.amazon.awssdk.services.s3.presigner.model.PresignedPutObjectRequest;

/**
 * A bucket through the AWS SDK for Java v2: its synchronous client on the JDK's URL connection (no
 * second Netty beside Vert.x's), checksums only where S3 requires them (as MinIO, Ceph and s3proxy
 * accept), and its presigner for the URLs clients use themselves.
 */
public final class S3ObjectStore implements ObjectStore {

  /** A broken download is resumed this often in a row, this long apart, before it fails. */
  static final int READ_RESUMES = 5;

  static final Duration RESUME_PAUSE = Duration.ofSeconds(2);

  private static final String JOB_PREFIX = "csv-jobs/";

  private final S3Client client;
  private final S3Presigner presigner;
  private final String bucket;
  private final Duration uploadExpiry;
  private final String description;

  private S3ObjectStore(S3Config config) {
    AwsCredentialsProvider credentials =
        config.accessKey().isEmpty()
            ? DefaultCredentialsProvider.builder().build()
            : StaticCredentialsProvider.create(
                AwsBasicCredentials.create(config.accessKey(), config.secretKey()));
    S3Configuration addressing =
        S3Configuration.builder().pathStyleAccessEnabled(config.forcePathStyle()).build();
    Region region = Region.of(config.region());
    var builder =
        S3Client.builder()
            .httpClientBuilder(
                UrlConnectionHttpClient.builder()
                    .connectionTimeout(Duration.ofSeconds(10))
                    .socketTimeout(Duration.ofSeconds(60)))
            .credentialsProvider(credentials)
            .region(region)
            .serviceConfiguration(addressing)
            .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
            .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
    var presigning =
        S3Presigner.builder()
            .credentialsProvider(credentials)
            .region(region)
            .serviceConfiguration(addressing);
    config.serviceUrl().ifPresent(builder::endpointOverride);
    config.serviceUrl().ifPresent(presigning::endpointOverride);
    this.client = builder.build();
    this.presigner = presigning.build();
    this.bucket = config.bucket();
    this.uploadExpiry = config.presignedUrlExpiry();
    this.description =
        "bucket '"
            + config.bucket()
            + "'"
            + config.serviceUrl().map(url -> " at " + url).orElse(" in " + config.region());
  }

  /**
   * Connects to the configured bucket, which must exist, and sets its lifecycle and CORS rules as
   * the .NET vfps does at start, when {@code S3__ObjectRetentionDays} and {@code
   * S3__AllowedOrigins} ask for them.
   *
   * @throws ObjectStoreException naming the key whose setting cannot be honoured
   */
  public static S3ObjectStore connect(S3Config config) {
    S3ObjectStore store = new S3ObjectStore(config);
    try {
      store.requireBucket();
      if (config.objectRetentionDays() > 0) {
        store.expireJobFiles(config.objectRetentionDays());
      }
      if (!config.allowedOrigins().isEmpty()) {
        store.allowOrigins(config.allowedOrigins());
      }
      return store;
    } catch (RuntimeException e) {
      store.close();
      throw e;
    }
  }

  /** Connects to a store of our own (the embedded one), creating the bucket when it is missing. */
  static S3ObjectStore connectCreatingBucket(S3Config config) {
    S3ObjectStore store = new S3ObjectStore(config);
    try {
      if (!store.bucketExists()) {
        store.client.createBucket(request -> request.bucket(config.bucket()));
      }
      return store;
    } catch (SdkException e) {
      store.close();
      throw new ObjectStoreException(
          "S3__Embedded__DataDirectory: the embedded store's bucket cannot be created: "
              + e.getMessage(),
          false,
          e);
    }
  }

  private boolean bucketExists() {
    try {
      client.headBucket(request -> request.bucket(bucket));
      return true;
    } catch (S3Exception e) {
      if (e.statusCode() == 404) {
        return false;
      }
      throw e;
    }
  }

  private void requireBucket() {
    boolean exists;
    try {
      exists = bucketExists();
    } catch (SdkClientException e) {
      throw new ObjectStoreException(
          "S3__ServiceUrl: the object store cannot be reached (" + e.getMessage() + ")", true, e);
    } catch (S3Exception e) {
      throw new ObjectStoreException(
          "S3__Bucket: the bucket '"
              + bucket
              + "' cannot be used ("
              + e.statusCode()
              + " "
              + errorCode(e)
              + "); check S3__AccessKey, S3__SecretKey and S3__Region",
          false,
          e);
    }
    if (!exists) {
      throw new ObjectStoreException(
          "S3__Bucket: the bucket '" + bucket + "' does not exist; create it first", false, null);
    }
  }

  private void expireJobFiles(int days) {
    LifecycleRule rule =
        LifecycleRule.builder()
            .id("vfps-csv-jobs")
            .filter(LifecycleRuleFilter.builder().prefix(JOB_PREFIX).build())
            .status(ExpirationStatus.ENABLED)
            .expiration(LifecycleExpiration.builder().days(days).build())
            .abortIncompleteMultipartUpload(
                AbortIncompleteMultipartUpload.builder().daysAfterInitiation(1).build())
            .build();
    setBucketRule(
        "S3__ObjectRetentionDays",
        "lifecycle",
        "set 0 to leave the bucket's lifecycle alone",
        () ->
            client.putBucketLifecycleConfiguration(
                request ->
                    request
                        .bucket(bucket)
                        .lifecycleConfiguration(
                            BucketLifecycleConfiguration.builder().rules(rule).build())));
  }

  private void allowOrigins(List<String> origins) {
    CORSRule rule =
        CORSRule.builder()
            .allowedOrigins(origins)
            .allowedMethods("GET", "PUT", "HEAD")
            .allowedHeaders("*")
            .exposeHeaders("ETag")
            .maxAgeSeconds(3000)
            .build();
    setBucketRule(
        "S3__AllowedOrigins",
        "CORS",
        "leave S3__AllowedOrigins empty to leave the bucket's CORS rules alone",
        () ->
            client.putBucketCors(
                request ->
                    request
                        .bucket(bucket)
                        .corsConfiguration(CORSConfiguration.builder().corsRules(rule).build())));
  }

  /**
   * Sets a rule of the bucket at start-up; when S3 refuses, an {@link ObjectStoreException} names
   * the setting that asked for it and how to do without it.
   *
   * @param kind the rule's kind, as the message names it
   */
  private static void setBucketRule(
      String setting, String kind, String withoutIt, Runnable putRule) {
    try {
      putRule.run();
    } catch (SdkException e) {
      throw new ObjectStoreException(
          setting
              + ": the bucket's "
              + kind
              + " rule cannot be set ("
              + describe(e)
              + "); "
              + withoutIt,
          e instanceof SdkClientException,
          e);
    }
  }

  @Override
  public PresignedRequest presignUpload(String key, String contentType) {
    PresignedPutObjectRequest presigned =
        presigner.presignPutObject(
            request ->
                request
                    .signatureDuration(uploadExpiry)
                    .putObjectRequest(put -> put.bucket(bucket).key(key).contentType(contentType)));
    return new PresignedRequest(
        URI.create(presigned.url().toString()),
        headersToSend(presigned.signedHeaders()),
        presigned.expiration());
  }

  @Override
  public PresignedRequest presignDownload(String key, String fileName, Duration expiry) {
    PresignedGetObjectRequest presigned =
        presigner.presignGetObject(
            request ->
                request
                    .signatureDuration(expiry)
                    .getObjectRequest(
                        get ->
                            get.bucket(bucket)
                                .key(key)
                                .responseContentType("text/csv; charset=utf-8")
                                .responseContentDisposition(contentDisposition(fileName))));
    return new PresignedRequest(
        URI.create(presigned.url().toString()), Map.of(), presigned.expiration());
  }

  /** The signed headers a client must send itself: all but {@code host}. */
  private static Map<String, String> headersToSend(Map<String, List<String>> signed) {
    Map<String, String> headers = new LinkedHashMap<>();
    signed.forEach(
        (name, values) -> {
          if (!name.equalsIgnoreCase("host")) {
            headers.put(name, String.join(",", values));
          }
        });
    return headers;
  }

  /** An attachment under a name a browser shows as it is, quotes and control characters out. */
  static String contentDisposition(String fileName) {
    StringBuilder plain = new StringBuilder();
    fileName
        .codePoints()
        .forEach(
            c -> {
              if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
                plain.appendCodePoint(c);
              } else if (!Character.isISOControl(c)) {
                plain.append('_');
              }
            });
    String encoded = URLEncoder.encode(fileName, StandardCharsets.UTF_8).replace("+", "%20");
    return "attachment; filename=\"" + plain + "\"; filename*=UTF-8''" + encoded;
  }

  @Override
  public OptionalLong size(String key) {
    return call(
        "HEAD",
        key,
        () -> {
          try {
            return OptionalLong.of(
                client.headObject(request -> request.bucket(bucket).key(key)).contentLength());
          } catch (NoSuchKeyException e) {
            return OptionalLong.empty();
          } catch (S3Exception e) {
            if (e.statusCode() == 404) {
              return OptionalLong.empty();
            }
            throw e;
          }
        });
  }

  @Override
  public InputStream read(String key, long offset) {
    OptionalLong size = size(key);
    if (size.isEmpty()) {
      throw new ObjectStoreException("GET " + key + ": no such object", false, null);
    }
    if (offset >= size.getAsLong()) {
      return InputStream.nullInputStream();
    }
    return new ResumingInput(key, offset);
  }

  private ResponseInputStream<GetObjectResponse> get(String key, long offset, String etag) {
    GetObjectRequest.Builder request = GetObjectRequest.builder().bucket(bucket).key(key);
    if (offset > 0) {
      request.range("bytes=" + offset + "-");
    }
    if (etag != null) {
      request.ifMatch(etag);
    }
    return call("GET", key, () -> client.getObject(request.build()));
  }

  /**
   * An object's bytes from an offset: a transfer that breaks is resumed where it broke, with a
   * ranged GET of the same object version ({@code If-Match} its ETag).
   */
  private final class ResumingInput extends InputStream {
    private final String key;
    private final String etag;
    private final long end;
    private long position;
    private InputStream current;

    ResumingInput(String key, long offset) {
      this.key = key;
      this.position = offset;
      ResponseInputStream<GetObjectResponse> first = get(key, offset, null);
      this.etag = first.response().eTag();
      this.end = offset + first.response().contentLength();
      this.current = first;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      int read = read(one, 0, 1);
      return read < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] buffer, int from, int length) throws IOException {
      if (length == 0) {
        return 0;
      }
      for (int resumes = 0; ; resumes++) {
        try {
          if (current == null) {
            current = reopen();
          }
          int read = current.read(buffer, from, length);
          if (read > 0) {
            position += read;
          } else if (read < 0 && position < end) {
            // a connection closed before the announced length is a broken transfer too
            throw new IOException(key + " ended at byte " + position + " of " + end);
          }
          return read;
        } catch (Unresumable e) {
          throw e;
        } catch (IOException e) {
          closeQuietly();
          if (resumes >= READ_RESUMES) {
            throw e;
          }
          pause(e);
        }
      }
    }

    /** The rest of the same object version, from the last byte delivered. */
    private InputStream reopen() throws IOException {
      if (position >= end) {
        return InputStream.nullInputStream();
      }
      try {
        return get(key, position, etag);
      } catch (ObjectStoreException e) {
        if (e.getCause() instanceof S3Exception s3 && s3.statusCode() == 412) {
          throw new Unresumable(key + " changed while it was read", e);
        }
        if (e.unavailable()) {
          throw new IOException(e.getMessage(), e);
        }
        throw new Unresumable(e.getMessage(), e);
      }
    }

    private void pause(IOException broken) throws IOException {
      try {
        Thread.sleep(RESUME_PAUSE.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw broken;
      }
    }

    private void closeQuietly() {
      if (current != null) {
        try {
          current.close();
        } catch (IOException ignored) {
          // the transfer is broken already
        }
        current = null;
      }
    }

    @Override
    public void close() throws IOException {
      if (current != null) {
        current.close();
        current = null;
      }
    }
  }

  /** A broken read that another GET cannot mend: the object changed or went away. */
  private static final class Unresumable extends IOException {
    Unresumable(String message, Throwable cause) {
      super(message, cause);
    }
  }

  @Override
  public String startUpload(String key) {
    return call(
        "CreateMultipartUpload",
        key,
        () ->
            client
                .createMultipartUpload(
                    request -> request.bucket(bucket).key(key).contentType("text/csv"))
                .uploadId());
  }

  @Override
  public String uploadPart(String key, String uploadId, int partNumber, byte[] bytes, int length) {
    return call(
        "UploadPart",
        key,
        () ->
            client
                .uploadPart(
                    request ->
                        request
                            .bucket(bucket)
                            .key(key)
                            .uploadId(uploadId)
                            .partNumber(partNumber)
                            .contentLength((long) length),
                    RequestBody.fromContentProvider(
                        // no copy of the part: the SDK re-reads it from here on a retry
                        () -> new ByteArrayInputStream(bytes, 0, length),
                        length,
                        "application/octet-stream"))
                .eTag());
  }

  @Override
  public void completeUpload(String key, String uploadId, List<String> partETags) {
    List<CompletedPart> parts = new ArrayList<>(partETags.size());
    for (int i = 0; i < partETags.size(); i++) {
      parts.add(CompletedPart.builder().partNumber(i + 1).eTag(partETags.get(i)).build());
    }
    call(
        "CompleteMultipartUpload",
        key,
        () ->
            client.completeMultipartUpload(
                request ->
                    request
                        .bucket(bucket)
                        .key(key)
                        .uploadId(uploadId)
                        .multipartUpload(CompletedMultipartUpload.builder().parts(parts).build())));
  }

  @Override
  public void abortUpload(String key, String uploadId) {
    call(
        "AbortMultipartUpload",
        key,
        () -> {
          try {
            return client.abortMultipartUpload(
                request -> request.bucket(bucket).key(key).uploadId(uploadId));
          } catch (NoSuchUploadException e) {
            return null;
          } catch (S3Exception e) {
            if (e.statusCode() == 404) {
              return null;
            }
            throw e;
          }
        });
  }

  @Override
  public void delete(String key) {
    call("DELETE", key, () -> client.deleteObject(request -> request.bucket(bucket).key(key)));
  }

  @Override
  public String description() {
    return description;
  }

  @Override
  public void close() {
    client.close();
    presigner.close();
  }

  /** The SDK's failure as ours: the operation, the key and S3's error code, never a credential. */
  private static <T> T call(String operation, String key, Supplier<T> request) {
    try {
      return request.get();
    } catch (SdkClientException e) {
      throw new ObjectStoreException(
          operation + " " + key + ": the object store cannot be reached (" + e.getMessage() + ")",
          true,
          e);
    } catch (S3Exception e) {
      throw new ObjectStoreException(
          operation + " " + key + ": " + e.statusCode() + " " + errorCode(e),
          e.statusCode() >= 500,
          e);
    }
  }

  private static String errorCode(S3Exception e) {
    return e.awsErrorDetails() == null || e.awsErrorDetails().errorCode() == null
        ? "(no error code)"
        : e.awsErrorDetails().errorCode();
  }

  private static String describe(SdkException e) {
    return e instanceof S3Exception s3 ? s3.statusCode() + " " + errorCode(s3) : e.getMessage();
  }
}
