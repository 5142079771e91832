package org.vfps.metrics;

/**
 * A cache's statistics at one moment, as {@link ServiceMeters#bindCache} exports them.
 *
 * @param entries the entries the cache holds now
 * @param hits the lookups it answered since it was built
 * @param misses the lookups it could not answer since it was built
 */
public record CacheStatistics(long entries, long hits, long misses) {}
