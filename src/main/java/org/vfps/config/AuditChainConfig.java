package org.vfps.config;

import java.security.PrivateKey;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The chain of the audit trail ({@code Audit__*}): how often a signed checkpoint covers it, and the
 * key that signs the checkpoints.
 *
 * @param checkpointEvery a checkpoint after this many lines since the last ({@code
 *     CheckpointEvery})
 * @param checkpointInterval a checkpoint at this interval when lines were written since the last
 *     ({@code CheckpointInterval})
 * @param signingKey the Ed25519 private key of the checkpoints ({@code SigningKeyFile}); empty: the
 *     lines are chained, and no checkpoint is written
 */
public record AuditChainConfig(
    int checkpointEvery, Duration checkpointInterval, Optional<PrivateKey> signingKey) {

  /** The defaults: a checkpoint every 1,000 lines or a minute, and no signing key. */
  public static final AuditChainConfig UNSIGNED =
      new AuditChainConfig(1_000, Duration.ofMinutes(1), Optional.empty());

  public AuditChainConfig {
    Objects.requireNonNull(checkpointInterval, "checkpointInterval");
    Objects.requireNonNull(signingKey, "signingKey");
    if (checkpointEvery < 1 || checkpointInterval.isNegative() || checkpointInterval.isZero()) {
      throw new IllegalArgumentException("checkpoints need a positive count and interval");
    }
  }

  @Override
  public String toString() {
    // never the key
    return "AuditChainConfig[checkpointEvery="
        + checkpointEvery
        + ", checkpointInterval="
        + checkpointInterval
        + ", signingKey="
        + (signingKey.isPresent() ? "set" : "none")
        + "]";
  }
}
