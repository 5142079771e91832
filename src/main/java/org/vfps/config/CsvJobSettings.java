package org.vfps.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Reads the {@code S3:*} and {@code CsvProcessing:*} sections. */
final class CsvJobSettings {

  private static final String S3 = "S3:";
  private static final String CSV = "CsvProcessing:";

  private CsvJobSettings() {}

  static S3Config s3(FlatSettings settings) {
    boolean enabled = ConfigLoader.bool(settings, S3 + "IsEnabled");
    Optional<URI> serviceUrl = serviceUrl(settings, S3 + "ServiceUrl");
    String bucket = settings.required(S3 + "Bucket").strip();
    if (enabled && bucket.isEmpty()) {
      throw new ConfigException(
          FlatSettings.environmentName(S3 + "Bucket")
              + ": must not be blank while S3__IsEnabled=true");
    }
    String accessKey = settings.required(S3 + "AccessKey").strip();
    String secretKey = settings.required(S3 + "SecretKey").strip();
    if (accessKey.isEmpty() != secretKey.isEmpty()) {
      throw new ConfigException(
          FlatSettings.environmentName(S3 + (accessKey.isEmpty() ? "AccessKey" : "SecretKey"))
              + ": missing; S3__AccessKey and S3__SecretKey are set together, or neither (then"
              + " the AWS SDK's default credentials are used)");
    }
    String region = settings.required(S3 + "Region").strip();
    if (region.isEmpty()) {
      throw new ConfigException(
          FlatSettings.environmentName(S3 + "Region") + ": must not be blank");
    }
    Duration expiry = ConfigLoader.positiveTimeSpan(settings, S3 + "PresignedUrlExpiry");
    if (expiry.compareTo(Duration.ofDays(7)) > 0) {
      throw ConfigLoader.invalid(
          S3 + "PresignedUrlExpiry",
          settings.required(S3 + "PresignedUrlExpiry"),
          "is longer than the 7 days S3 allows for a presigned URL");
    }
    return new S3Config(
        enabled,
        serviceUrl,
        accessKey,
        secretKey,
        bucket,
        region,
        ConfigLoader.bool(settings, S3 + "ForcePathStyle"),
        expiry,
        ConfigLoader.nonNegativeInt(settings, S3 + "ObjectRetentionDays"),
        origins(settings, S3 + "AllowedOrigins"),
        ConfigLoader.path(settings, S3 + "Embedded:DataDirectory"),
        ConfigLoader.port(settings, S3 + "Embedded:Port"));
  }

  static CsvProcessingConfig csvProcessing(FlatSettings settings) {
    Duration recovery = ConfigLoader.positiveTimeSpan(settings, CSV + "OrphanedJobRecoveryDelay");
    long maxUpload = ConfigLoader.positiveLong(settings, CSV + "MaxUploadBytes");
    int checkpointBytes = ConfigLoader.positiveInt(settings, CSV + "CheckpointBytes");
    if (checkpointBytes < CsvProcessingConfig.MIN_PART_BYTES) {
      throw ConfigLoader.invalid(
          CSV + "CheckpointBytes",
          settings.required(CSV + "CheckpointBytes"),
          "is below S3's smallest part of " + CsvProcessingConfig.MIN_PART_BYTES + " bytes");
    }
    Duration downloadUrlExpiry = ConfigLoader.positiveTimeSpan(settings, CSV + "DownloadUrlExpiry");
    if (downloadUrlExpiry.compareTo(CsvProcessingConfig.MAX_DOWNLOAD_URL_EXPIRY) > 0) {
      throw ConfigLoader.invalid(
          CSV + "DownloadUrlExpiry",
          settings.required(CSV + "DownloadUrlExpiry"),
          "is longer than an hour: a download URL keeps working after its reader lost the right"
              + " to the result");
    }
    // a job whose upload URL still works is not abandoned yet: the longer of the two holds, so
    // that a longer upload URL set before this setting existed does not stop the start
    Duration abandonedJobExpiry =
        Collections.max(
            List.of(
                ConfigLoader.positiveTimeSpan(settings, CSV + "AbandonedJobExpiry"),
                ConfigLoader.positiveTimeSpan(settings, S3 + "PresignedUrlExpiry")));
    return new CsvProcessingConfig(
        ConfigLoader.bool(settings, CSV + "ProcessJobs"),
        ConfigLoader.positiveInt(settings, CSV + "PseudonymizeBatchSize"),
        ConfigLoader.positiveInt(settings, CSV + "WorkerCount"),
        ConfigLoader.positiveTimeSpan(settings, CSV + "StalledJobThreshold"),
        recovery,
        ConfigLoader.timeSpan(settings, CSV + "JobServerShutdownTimeout"),
        ConfigLoader.positiveTimeSpan(settings, CSV + "ProgressUpdateInterval"),
        AuthorizationSettings.strings(settings, CSV + "MissingValuePlaceholders").stream()
            .map(String::strip)
            .toList(),
        maxUpload,
        checkpointBytes,
        downloadUrlExpiry,
        abandonedJobExpiry);
  }

  private static Optional<URI> serviceUrl(FlatSettings settings, String key) {
    String value = settings.required(key).strip();
    if (value.isEmpty()) {
      return Optional.empty();
    }
    try {
      URI uri = new URI(value);
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
        throw ConfigLoader.invalid(key, value, "is not an http or https URL");
      }
      return Optional.of(uri);
    } catch (URISyntaxException e) {
      throw ConfigLoader.invalid(key, value, "is not a URL");
    }
  }

  private static List<String> origins(FlatSettings settings, String array) {
    List<String> origins = AuthorizationSettings.strings(settings, array);
    for (int i = 0; i < origins.size(); i++) {
      String origin = origins.get(i).strip();
      if (!origin.equals("*") && !origin.matches("https?://[^/\\s]+")) {
        throw ConfigLoader.invalid(
            array + ":" + i, origin, "is not an origin (scheme://host[:port], or *)");
      }
    }
    return origins.stream().map(String::strip).toList();
  }
}
