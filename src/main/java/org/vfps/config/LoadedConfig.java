package org.vfps.config;

import java.util.List;
import java.util.Objects;

/**
 * A loaded configuration, the keys that were set in one of the service's sections but that nobody
 * reads (a typo such as {@code Authorization__Authorty}, or a .NET setting vfps does not have), for
 * the caller to warn about, and the keys it was read from.
 *
 * @param unreadKeys in environment variable form, sorted; never with their values; unmodifiable
 * @param readKeys every key the loader asked for, set or not, in environment variable form, sorted;
 *     unmodifiable
 */
public record LoadedConfig(VfpsConfig config, List<String> unreadKeys, List<String> readKeys) {

  public LoadedConfig {
    Objects.requireNonNull(config, "config");
    unreadKeys = List.copyOf(unreadKeys);
    readKeys = List.copyOf(readKeys);
  }
}
