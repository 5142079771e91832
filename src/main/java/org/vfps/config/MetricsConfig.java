package org.vfps.config;

import java.time.Duration;
import java.util.Objects;

/**
 * The service's own meters ({@code Metrics__*}); the listener's port is {@link
 * ServerConfig#metricsPort()}.
 *
 * @param pseudonymCountInterval how often {@code vfps_pseudonyms} is recounted; positive ({@code
 *     PseudonymCountInterval}). Counting reads every pseudonym's index entry, so large databases
 *     may want it rarer.
 */
public record MetricsConfig(Duration pseudonymCountInterval) {

  public MetricsConfig {
    Objects.requireNonNull(pseudonymCountInterval, "pseudonymCountInterval");
    if (pseudonymCountInterval.isNegative() || pseudonymCountInterval.isZero()) {
      throw new IllegalArgumentException("pseudonymCountInterval must be positive");
    }
  }
}
