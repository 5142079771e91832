package org.vfps.config;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The S3 bucket that holds the files of CSV jobs ({@code S3__*}, the .NET keys), and the embedded
 * development store that stands in for it when neither a bucket nor a database is configured.
 *
 * @param enabled whether CSV jobs use the configured bucket ({@code S3__IsEnabled})
 * @param serviceUrl the S3 endpoint ({@code S3__ServiceUrl}); empty for AWS's regional endpoint
 * @param accessKey the access key ({@code S3__AccessKey})
 * @param secretKey the secret key ({@code S3__SecretKey}); never logged
 * @param bucket the bucket ({@code S3__Bucket}); not blank when enabled
 * @param region the signing region ({@code S3__Region})
 * @param forcePathStyle path-style addressing ({@code S3__ForcePathStyle}), as MinIO and Ceph need
 * @param presignedUrlExpiry how long presigned upload and download URLs stay valid ({@code
 *     S3__PresignedUrlExpiry})
 * @param objectRetentionDays the days after which the bucket expires objects under {@code
 *     csv-jobs/} ({@code S3__ObjectRetentionDays}); 0 leaves the bucket's lifecycle rules alone
 * @param allowedOrigins the origins the bucket's CORS rule lets upload and download from a browser
 *     ({@code S3__AllowedOrigins__0}, ...); empty leaves the bucket's CORS rules alone
 * @param embeddedDataDirectory where the embedded development store keeps its objects ({@code
 *     S3__Embedded__DataDirectory})
 * @param embeddedPort the loopback port of the embedded development store ({@code
 *     S3__Embedded__Port}); 0 for any free one
 */
public record S3Config(
    boolean enabled,
    Optional<URI> serviceUrl,
    String accessKey,
    String secretKey,
    String bucket,
    String region,
    boolean forcePathStyle,
    Duration presignedUrlExpiry,
    int objectRetentionDays,
    List<String> allowedOrigins,
    Path embeddedDataDirectory,
    int embeddedPort) {

  public S3Config {
    Objects.requireNonNull(serviceUrl, "serviceUrl");
    Objects.requireNonNull(accessKey, "accessKey");
    Objects.requireNonNull(secretKey, "secretKey");
    Objects.requireNonNull(bucket, "bucket");
    Objects.requireNonNull(region, "region");
    Objects.requireNonNull(presignedUrlExpiry, "presignedUrlExpiry");
    allowedOrigins = List.copyOf(allowedOrigins);
    Objects.requireNonNull(embeddedDataDirectory, "embeddedDataDirectory");
  }

  /** Never the secret key. */
  @Override
  public String toString() {
    return "S3Config[enabled="
        + enabled
        + ", serviceUrl="
        + serviceUrl.map(URI::toString).orElse("")
        + ", bucket="
        + bucket
        + ", region="
        + region
        + "]";
  }
}
