package org.vfps.config;

import java.time.Duration;
import java.util.Objects;

/**
 * The in-memory caches ({@code Pseudonymization__Caching__*}); both share one bounded cache.
 *
 * @param namespacesEnabled cache namespaces by name ({@code Namespaces__IsEnabled})
 * @param pseudonymsEnabled cache (namespace, original value) to pseudonym ({@code
 *     Pseudonyms__IsEnabled})
 * @param sizeLimit the most entries the cache holds, at least 1 ({@code SizeLimit})
 * @param absoluteExpiration how long an entry lives after it is written, positive ({@code
 *     AbsoluteExpiration})
 */
public record CachingConfig(
    boolean namespacesEnabled,
    boolean pseudonymsEnabled,
    long sizeLimit,
    Duration absoluteExpiration) {

  public CachingConfig {
    if (sizeLimit < 1) {
      throw new IllegalArgumentException("sizeLimit must be at least 1: " + sizeLimit);
    }
    Objects.requireNonNull(absoluteExpiration, "absoluteExpiration");
    if (absoluteExpiration.isNegative() || absoluteExpiration.isZero()) {
      throw new IllegalArgumentException("absoluteExpiration must be positive");
    }
  }
}
