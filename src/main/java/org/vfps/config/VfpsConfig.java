package org.vfps.config;

import java.util.List;
import java.util.Objects;

/**
 * The whole configuration of vfps, as {@link ConfigLoader} loads it once at start-up.
 *
 * @param initNamespaces the namespaces to create at start-up ({@code Init__v1__Namespaces}), in
 *     index order; unmodifiable
 */
public record VfpsConfig(
    DatabaseConfig database,
    ServerConfig server,
    CachingConfig caching,
    List<NamespaceSeed> initNamespaces,
    ClusterConfig cluster) {

  public VfpsConfig {
    Objects.requireNonNull(database, "database");
    Objects.requireNonNull(server, "server");
    Objects.requireNonNull(caching, "caching");
    initNamespaces = List.copyOf(initNamespaces);
    Objects.requireNonNull(cluster, "cluster");
  }
}
