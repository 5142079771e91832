package org.vfps.config;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How this replica runs CSV jobs ({@code CsvProcessing__*}, the .NET keys, and a few of ours).
 *
 * @param processJobs whether this replica claims and runs queued jobs ({@code
 *     CsvProcessing__ProcessJobs}); every replica accepts jobs either way
 * @param batchSize rows per chunk, each chunk one multi-row write or lookup per mapped column
 *     ({@code CsvProcessing__PseudonymizeBatchSize})
 * @param workerCount jobs this replica runs at once ({@code CsvProcessing__WorkerCount})
 * @param stalledJobThreshold a running job without progress for this long is marked stalled ({@code
 *     CsvProcessing__StalledJobThreshold})
 * @param orphanedJobRecoveryDelay a running job whose worker sent no heartbeat for this long is
 *     taken over by another worker ({@code CsvProcessing__OrphanedJobRecoveryDelay}); heartbeats go
 *     out four times as often
 * @param jobServerShutdownTimeout how long a stopping replica waits for its jobs to checkpoint
 *     ({@code CsvProcessing__JobServerShutdownTimeout})
 * @param progressUpdateInterval how often a running job writes its counters ({@code
 *     CsvProcessing__ProgressUpdateInterval})
 * @param missingValuePlaceholders cells that count as missing besides blank ones, compared trimmed
 *     and ignoring case ({@code CsvProcessing__MissingValuePlaceholders__0}, ...); unmodifiable
 * @param maxUploadBytes the largest input file a job accepts ({@code
 *     CsvProcessing__MaxUploadBytes})
 * @param checkpointBytes output bytes between checkpoints, each one part of the output's multipart
 *     upload ({@code CsvProcessing__CheckpointBytes}); at least S3's 5 MiB part minimum
 * @param downloadUrlExpiry how long the download URL of a job's result stays valid ({@code
 *     CsvProcessing__DownloadUrlExpiry}); at most {@link #MAX_DOWNLOAD_URL_EXPIRY}
 * @param abandonedJobExpiry a job still awaiting its upload this long after it was created fails as
 *     abandoned ({@code CsvProcessing__AbandonedJobExpiry}, or the upload URL's {@code
 *     S3__PresignedUrlExpiry} where that is longer)
 */
public record CsvProcessingConfig(
    boolean processJobs,
    int batchSize,
    int workerCount,
    Duration stalledJobThreshold,
    Duration orphanedJobRecoveryDelay,
    Duration jobServerShutdownTimeout,
    Duration progressUpdateInterval,
    List<String> missingValuePlaceholders,
    long maxUploadBytes,
    int checkpointBytes,
    Duration downloadUrlExpiry,
    Duration abandonedJobExpiry) {

  /** S3's smallest part of a multipart upload other than the last. */
  public static final int MIN_PART_BYTES = 5 * 1024 * 1024;

  /**
   * The longest a download URL may live: a URL keeps working after its reader lost the right to the
   * result, so minutes, not days.
   */
  public static final Duration MAX_DOWNLOAD_URL_EXPIRY = Duration.ofHours(1);

  public CsvProcessingConfig {
    Objects.requireNonNull(stalledJobThreshold, "stalledJobThreshold");
    Objects.requireNonNull(orphanedJobRecoveryDelay, "orphanedJobRecoveryDelay");
    Objects.requireNonNull(jobServerShutdownTimeout, "jobServerShutdownTimeout");
    Objects.requireNonNull(progressUpdateInterval, "progressUpdateInterval");
    missingValuePlaceholders = List.copyOf(missingValuePlaceholders);
    Objects.requireNonNull(downloadUrlExpiry, "downloadUrlExpiry");
    Objects.requireNonNull(abandonedJobExpiry, "abandonedJobExpiry");
  }
}
